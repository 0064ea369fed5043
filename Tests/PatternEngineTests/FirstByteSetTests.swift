import Seeded
import Testing

@testable import PatternEngine

/// `FirstByteSet.firstIndex`, the vector scan for a regex's first bytes and inner literal, against a byte-by-byte loop.
@Suite struct FirstByteSetTests {
    /// Random texts of every length around the vector widths, random sets of one to three bytes, every start.
    @Test func agreesWithAByteLoop() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var generator = SplitMix64(seed: seed)
        for _ in 0..<300 {
            // A small alphabet, so that hits are frequent and land in every lane.
            let alphabet = (0..<Int.random(in: 2...12, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let length = Int.random(in: 0...80, using: &generator)
            let text = (0..<length).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
            let bytes = Array(Set((0..<Int.random(in: 1...3, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator) ?? 0
            })).sorted()
            let set = FirstByteSet(bytes: bytes)
            text.withUnsafeBufferPointer { buffer in
                for from in 0...length + 1 {
                    let expected = from < length ? (from..<length).first { bytes.contains(text[$0]) } : nil
                    #expect(
                        set.firstIndex(in: buffer, from: from) == expected,
                        "seed \(seed): bytes \(bytes), from \(from), text \(text)")
                }
            }
        }
    }

    /// A hit in the last byte of each vector step and in the tail after them.
    @Test(arguments: [0, 15, 16, 31, 32, 47, 48, 63, 64, 70])
    func findsAHitAtEveryPlace(_ offset: Int) {
        var text = [UInt8](repeating: UInt8(ascii: "a"), count: 71)
        text[offset] = UInt8(ascii: "-")
        let set = FirstByteSet(bytes: [UInt8(ascii: "-")])
        #expect(text.withUnsafeBufferPointer { set.firstIndex(in: $0, from: 0) } == offset)
        #expect(text.withUnsafeBufferPointer { set.firstIndex(in: $0, from: offset + 1) } == nil)
    }
}
