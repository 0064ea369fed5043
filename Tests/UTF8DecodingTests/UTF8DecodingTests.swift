import Seeded
import Testing
import UTF8Decoding

/// The decoder agrees with the standard library's validation, byte sequence by byte sequence.
@Suite struct UTF8DecodingTests {
    static let cases: [(bytes: [UInt8], expected: UInt32?)] = [
        ([0x41], 0x41),
        ([0xC3, 0xA9], 0xE9),
        ([0xE2, 0x82, 0xAC], 0x20AC),
        ([0xF0, 0x9F, 0x91, 0x8D], 0x1F44D),
        ([0xC0, 0x80], nil),              // overlong NUL
        ([0xE0, 0x80, 0x80], nil),        // overlong
        ([0xED, 0xA0, 0x80], nil),        // a surrogate
        ([0xF4, 0x90, 0x80, 0x80], nil),  // past U+10FFFF
        ([0xE2, 0x82], nil),              // cut off
        ([0x80], nil),                    // a continuation byte alone
        ([0xFF], nil),
    ]

    @Test(arguments: cases.indices)
    func table(_ index: Int) {
        let (bytes, expected) = Self.cases[index]
        let decoded = bytes.withUnsafeBufferPointer { UTF8Decoding.scalar(at: 0, in: $0) }
        #expect(decoded?.scalar.value == expected)
        if expected != nil { #expect(decoded?.length == bytes.count) }
    }

    @Test(arguments: UInt64(1)...4)
    func randomBytesAgreeWithTheStandardLibrary(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let interesting: [UInt8] = [0x41, 0x80, 0xBF, 0xC2, 0xC3, 0xDF, 0xE0, 0xE2, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0x9F, 0xA0, 0x90]
        for _ in 0..<2_000 {
            let bytes = (0..<random.next(below: 6)).map { _ in interesting[random.next(below: interesting.count)] }
            let valid = String(validating: bytes, as: UTF8.self) != nil
            let walked = bytes.withUnsafeBufferPointer { UTF8Decoding.firstInvalidOffset(in: $0, range: 0..<$0.count) == nil }
            #expect(walked == valid, "\(bytes)")
        }
    }
}
