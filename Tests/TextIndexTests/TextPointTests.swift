import Seeded
import Testing

@testable import TextIndex

/// The one-pass locator against positions computed the obvious way, and against the line index.
@Suite struct TextPointTests {
    static let chunks = ["abcdefghijklmnopqrstuvwxyz0123456789", "ab", "\n", "\r", "\r\n", "\t", "é", "中", "🔥", "e\u{301}", "👩‍👩‍👧", "TODO"]

    @Test(arguments: UInt64(1)...40)
    func pointsAgreeWithReferencePositionsAndTheLineIndex(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var text = ""
        for _ in 0..<random.next(below: 60) { text += Self.chunks[random.next(below: Self.chunks.count)] }
        let bytes = Array(text.utf8)
        let reference = ReferencePositions(text)
        let index = LineIndex(utf8: bytes)
        // Sorted offsets on scalar boundaries, repeats included, and the end of the text.
        var offsets: [Int] = []
        var offset = 0
        while offset <= bytes.count {
            if offset == bytes.count || bytes[offset] & 0xC0 != 0x80 {
                if random.next(below: 3) == 0 { offsets.append(offset) }
                if random.next(below: 8) == 0 { offsets.append(offset) }
            }
            offset += 1
        }
        offsets.append(bytes.count)
        let points = bytes.withUnsafeBufferPointer { TextPoint.points(ofUTF8Offsets: offsets, in: $0) }
        let prefixCounts = { (end: Int) -> (Int, Int) in
            let prefix = String(decoding: bytes[0..<end], as: UTF8.self)
            return (prefix.utf16.count, prefix.unicodeScalars.count)
        }
        for (offset, point) in zip(offsets, points) {
            let context = Comment(rawValue: "seed \(seed), offset \(offset), text \(text.debugDescription)")
            for encoding in PositionEncoding.allCases {
                #expect(point.position(in: encoding) == reference.positions[offset][encoding], context)
                #expect(point.position(in: encoding) == index.position(ofUTF8Offset: offset, encoding: encoding), context)
            }
            // File offsets: those of the point's place (an offset inside `\r\n` is taken before the `\r`).
            #expect(point.utf8Offset == index.utf8Offset(of: point.position(in: .utf8), encoding: .utf8), context)
            let (utf16, utf32) = prefixCounts(point.utf8Offset)
            #expect(point.utf16Offset == utf16, context)
            #expect(point.utf32Offset == utf32, context)
        }
    }

    /// Long texts of short ASCII lines (several line feeds per sixteen bytes), with the odd `\r\n`,
    /// lone `\r` and non-ASCII character, so that the vector path takes chunks with many line ends.
    @Test(arguments: UInt64(1)...12, [false, true])
    func pointsOfLongTextsAgreeWithTheLineIndex(seed: UInt64, avx2: Bool) {
        var random = SplitMix64(seed: seed)
        let lines = ["", "a", "ab", "let x = 1", "abcdefghijklmnopqrstuvw", "TODO: fix"]
        let ends = ["\n", "\n", "\n", "\n", "\n", "\n", "\r\n", "\r", "é\n"]
        var text = ""
        for _ in 0..<(200 + random.next(below: 400)) {
            text += lines[random.next(below: lines.count)] + ends[random.next(below: ends.count)]
        }
        checkPointsAgreeWithTheLineIndex(text, seed: seed, avx2: avx2)
    }

    /// Long texts without `\r` whose lines mix ASCII with two-, three- and four-byte characters, some lines
    /// far longer than a block: the sixty-four-byte steps take non-ASCII blocks, and the line start after a run
    /// is counted back over them.
    @Test(arguments: UInt64(1)...12, [false, true])
    func pointsOfLongNonASCIITextsAgreeWithTheLineIndex(seed: UInt64, avx2: Bool) {
        var random = SplitMix64(seed: seed)
        let chunks = ["a", "let x = 1; ", "é", "日本語", "😀", "x😀y", "abcdefghijklmnopqrstuvwxyz0123456789", " "]
        var text = ""
        for _ in 0..<(150 + random.next(below: 300)) {
            let length = random.next(below: 10) == 0 ? 20 + random.next(below: 60) : random.next(below: 8)
            for _ in 0..<length { text += chunks[random.next(below: chunks.count)] }
            text += "\n"
        }
        checkPointsAgreeWithTheLineIndex(text, seed: seed, avx2: avx2)
    }

    /// Points at offsets spread over `text` (character starts only) against the line index and the standard library,
    /// with the AVX2 loop (where the CPU has it) or without.
    func checkPointsAgreeWithTheLineIndex(_ text: String, seed: UInt64, avx2: Bool) {
        var random = SplitMix64(seed: seed &+ 1000)
        let bytes = Array(text.utf8)
        let index = LineIndex(utf8: bytes)
        var offsets: [Int] = []
        var offset = random.next(below: 40)
        while offset <= bytes.count {
            if offset == bytes.count || bytes[offset] & 0xC0 != 0x80 { offsets.append(offset) }
            offset += 1 + random.next(below: 90)
        }
        offsets.append(bytes.count)
        let points = bytes.withUnsafeBufferPointer { TextPoint.points(ofUTF8Offsets: offsets, in: $0, usesAVX2: avx2) }
        for (offset, point) in zip(offsets, points) {
            let context = Comment(rawValue: "seed \(seed), avx2 \(avx2), offset \(offset)")
            for encoding in PositionEncoding.allCases {
                #expect(point.position(in: encoding) == index.position(ofUTF8Offset: offset, encoding: encoding), context)
            }
            let prefix = String(decoding: bytes[0..<point.utf8Offset], as: UTF8.self)
            #expect(point.utf16Offset == prefix.utf16.count, context)
            #expect(point.utf32Offset == prefix.unicodeScalars.count, context)
        }
    }

    @Test func offsetsPastTheEndAndDecreasingOnesAreClamped() {
        let bytes = Array("ab\ncd".utf8)
        let points = bytes.withUnsafeBufferPointer { TextPoint.points(ofUTF8Offsets: [4, 2, 99], in: $0) }
        #expect(points.map { $0.position(in: .utf16) } == [Position(line: 1, character: 1), Position(line: 1, character: 1), Position(line: 1, character: 2)])
        let empty = [UInt8]().withUnsafeBufferPointer { TextPoint.points(ofUTF8Offsets: [0, 3], in: $0) }
        #expect(empty.map(\.line) == [0, 0])
    }
}
