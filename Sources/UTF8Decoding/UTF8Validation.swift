// Whether a whole text is valid UTF-8: the one answer for the scanner (every file, every streamed
// chunk), the walk (file names) and the JSON parser (a document's text), as fast as the CPU
// allows: VectorKernels' and VectorKernels512's checks where `VectorUnit` says they run, sixteen
// bytes a step in plain Swift elsewhere, and `scalar(at:in:end:)` for the last bytes.

import CPUFeatures
import VectorKernels
import VectorKernels512

extension UTF8Decoding {
    /// Whether `bytes` are valid UTF-8.
    public static func isValid(_ bytes: [UInt8], widest: VectorWidth = .avx512) -> Bool {
        bytes.withUnsafeBufferPointer { isValid($0, widest: widest) }
    }

    /// Whether the sixteen bytes at `bytes` break no rule of UTF-8 that the three bytes before them (readable, and
    /// checked already) and they themselves can show: a continuation byte (0x80...0xBF) exactly where a lead before
    /// it wants one (within one byte of any lead, two of a three- or four-byte lead, three of a four-byte lead), no
    /// byte that never occurs (0xC0, 0xC1, 0xF5...0xFF), and the second byte of 0xE0, 0xED, 0xF0 and 0xF4 in the
    /// narrower range that rules out overlong forms, surrogates and values past U+10FFFF. Continuation bytes a lead
    /// near the end wants beyond the sixteen are left to the caller.
    @inline(__always)
    static func sixteenBytesAreValid(_ bytes: UnsafeRawPointer) -> Bool {
        typealias Bytes = SIMD16<UInt8>
        let current = bytes.loadUnaligned(as: Bytes.self)
        let before1 = bytes.loadUnaligned(fromByteOffset: -1, as: Bytes.self)
        let before2 = bytes.loadUnaligned(fromByteOffset: -2, as: Bytes.self)
        let before3 = bytes.loadUnaligned(fromByteOffset: -3, as: Bytes.self)
        // 0x80...0xBF are the signed bytes below -64.
        let isContinuation = SIMD16<Int8>(truncatingIfNeeded: current) .< SIMD16<Int8>(repeating: -64)
        let wantsContinuation = (before1 .>= Bytes(repeating: 0xC0)) .| (before2 .>= Bytes(repeating: 0xE0))
            .| (before3 .>= Bytes(repeating: 0xF0))
        let never = (current .>= Bytes(repeating: 0xF5)) .| ((current & Bytes(repeating: 0xFE)) .== Bytes(repeating: 0xC0))
        let outOfRange = ((before1 .== Bytes(repeating: 0xE0)) .& (current .< Bytes(repeating: 0xA0)))
            .| ((before1 .== Bytes(repeating: 0xED)) .& (current .> Bytes(repeating: 0x9F)))
            .| ((before1 .== Bytes(repeating: 0xF0)) .& (current .< Bytes(repeating: 0x90)))
            .| ((before1 .== Bytes(repeating: 0xF4)) .& (current .> Bytes(repeating: 0x8F)))
        let bad = (isContinuation .^ wantsContinuation) .| never .| outOfRange
        let lanes = Bytes(repeating: 0).replacing(with: 0xFF, where: bad)
        return withUnsafeBytes(of: lanes) { $0.loadUnaligned(as: UInt64.self) | $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self) } == 0
    }

    /// Where the AVX2 checks may start in `buffer` (at least 64 bytes): after the characters that begin in its first
    /// three bytes, checked one by one (each block reads the three bytes before it); nil when they are not valid.
    public static func afterFirstCharacters(_ buffer: UnsafeBufferPointer<UInt8>) -> Int? {
        var start = 0
        while start < 3 {
            guard let (_, length) = scalar(at: start, in: buffer) else { return nil }
            start += length
        }
        return start
    }

    /// Whether `bytes` are valid UTF-8, without allocating: sixty-four bytes a step where the CPU has AVX-512,
    /// thirty-two where it has AVX2 (`widest` holds it to narrower loops, for tests), else sixteen (ASCII runs
    /// sixty-four), the last bytes a character at a time.
    public static func isValid(_ buffer: UnsafeBufferPointer<UInt8>, widest: VectorWidth = .avx512) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        let count = buffer.count
        var index = 0
        let width = min(widest, VectorUnit.widest)
        if width >= .avx2, count >= 64 {
            guard let start = afterFirstCharacters(buffer) else { return false }
            index = width == .avx512
                ? AVX512.validUTF8Prefix(text: UnsafeRawPointer(base), from: start, count: count)
                : AVX2.validUTF8Prefix(text: UnsafeRawPointer(base), from: start, count: count)
            guard index >= 0 else { return false }
        }
        while index < count {
            // Long ASCII runs, sixty-four bytes at a time in vectors, then thirty-two in words.
            while count - index >= 64 {
                let raw = UnsafeRawPointer(base + index)
                let any = raw.loadUnaligned(as: SIMD16<UInt8>.self) | raw.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self)
                    | raw.loadUnaligned(fromByteOffset: 32, as: SIMD16<UInt8>.self) | raw.loadUnaligned(fromByteOffset: 48, as: SIMD16<UInt8>.self)
                let highBits = any & SIMD16<UInt8>(repeating: 0x80)
                let nonASCII = withUnsafeBytes(of: highBits) { $0.loadUnaligned(as: UInt64.self) | $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self) }
                guard nonASCII == 0 else { break }
                index += 64
            }
            while count - index >= 32 {
                let raw = UnsafeRawPointer(base + index)
                let any = raw.loadUnaligned(as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                    | raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                guard any & 0x8080_8080_8080_8080 == 0 else { break }
                index += 32
            }
            guard index < count else { break }
            // Sixteen bytes that are not all ASCII, checked where they stand (see `sixteenBytesAreValid`); the next
            // step begins after them, or at the character that starts in their last three bytes and ends beyond.
            if index >= 3, count - index >= 16 {
                guard sixteenBytesAreValid(UnsafeRawPointer(base + index)) else { return false }
                let end = index + 16
                index = end
                for position in stride(from: end - 1, through: end - 3, by: -1) where buffer[position] >= 0xC0 {
                    let length = buffer[position] >= 0xF0 ? 4 : buffer[position] >= 0xE0 ? 3 : 2
                    if position + length > end { index = position }
                    break
                }
                continue
            }
            if index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                    continue
                }
            }
            guard let (_, length) = scalar(at: index, in: buffer) else { return false }
            index += length
        }
        return true
    }
}
