import Seeded
import Testing

@testable import TextIndex

/// Applies one edit to `text` through `TextBuffer` and expects the incrementally updated
/// index to equal a fresh one and the text to equal `expected`.
private func checkEdit(
    _ text: String, replacing utf8Range: Range<Int>, with inserted: String, expected: String, lineCount: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    var buffer = TextBuffer(text)
    buffer.replace(utf8Range: utf8Range, with: Array(inserted.utf8))
    #expect(buffer.text == expected, sourceLocation: sourceLocation)
    #expect(buffer.lineIndex == LineIndex(utf8: buffer.utf8), "\(text.debugDescription)", sourceLocation: sourceLocation)
    #expect(buffer.lineIndex.lineCount == lineCount, sourceLocation: sourceLocation)
}

@Suite struct LineIndexEditingTests {
    @Test func editsAtCarriageReturnLineFeedBorders() {
        // (text, range, inserted, expected text, expected line count)
        let table: [(String, Range<Int>, String, String, Int)] = [
            ("a\rb", 2..<2, "\n", "a\r\nb", 2),  // joins a lone CR with an inserted LF
            ("a\nb", 1..<1, "\r", "a\r\nb", 2),  // joins an inserted CR with the LF after it
            ("a\r\nb", 2..<2, "x", "a\rx\nb", 3),  // splits a pair
            ("a\r\nb", 1..<2, "", "a\nb", 2),  // deletes the CR of a pair
            ("a\r\nb", 2..<3, "", "a\rb", 2),  // deletes the LF of a pair
            ("a\r\nb", 1..<3, "", "ab", 1),
            ("a\rx\nb", 2..<3, "", "a\r\nb", 2),  // deleting between CR and LF joins them
            ("a\r\r\nb", 2..<3, "", "a\r\nb", 2),
            ("\r", 1..<1, "\n", "\r\n", 2),
            ("\n", 0..<0, "\r", "\r\n", 2),
            ("x\r", 2..<2, "\n\n", "x\r\n\n", 3),
            ("a\r\nb\r\nc", 2..<5, "", "a\r\nc", 2),  // the CR of one pair meets the LF of the next
            ("a\r\nb\r\nc", 1..<5, "", "a\nc", 2),
            ("a\r\nb\r\nc", 3..<4, "\r\n\r", "a\r\n\r\n\r\r\nc", 5),
            ("abc", 0..<3, "", "", 1),
            ("", 0..<0, "\r\n", "\r\n", 2),
            ("é\r\n👍", 0..<2, "中", "中\r\n👍", 2),
        ]
        for (text, range, inserted, expected, lineCount) in table {
            checkEdit(text, replacing: range, with: inserted, expected: expected, lineCount: lineCount)
        }
    }

    /// Random edits on random texts, after each of which the updated index must equal a
    /// fresh one. Edits take raw byte ranges, so they also split multi-byte characters and
    /// `\r\n` pairs (the index must cope with the invalid UTF-8 this creates).
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomRawEditsMatchAFullRebuild(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var text = Array(randomText(using: &generator, chunks: 40).utf8)
        var index = LineIndex(utf8: text)
        for step in 0..<300 {
            let lower = Int(generator.next() % UInt64(text.count + 1))
            let maximumLength = generator.next() % 4 == 0 ? text.count - lower : min(text.count - lower, 12)
            let upper = lower + Int(generator.next() % UInt64(maximumLength + 1))
            let inserted = Array(randomText(using: &generator, chunks: Int(generator.next() % 6)).utf8)
            text.replaceSubrange(lower..<upper, with: inserted)
            text.withUnsafeBufferPointer { buffer in
                index.replace(utf8Range: lower..<upper, withUTF8Count: inserted.count, in: buffer)
            }
            let rebuilt = LineIndex(utf8: text)
            guard index == rebuilt else {
                Issue.record(
                    "seed \(seed), step \(step): index differs after replacing \(lower)..<\(upper) with \(inserted) in \(text)"
                )
                return
            }
        }
    }

    /// Random edits through `TextBuffer` (which keeps the text valid UTF-8), comparing positions
    /// with the reference as well as the index with a fresh one.
    @Test(arguments: [11, 12, 13, 14] as [UInt64])
    func randomBufferEditsMatchTheReference(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var buffer = TextBuffer(randomText(using: &generator, chunks: 30))
        for step in 0..<150 {
            let count = UInt64(buffer.utf8Count + 1)
            // Possibly reversed and out of range on purpose: the buffer normalises them.
            let start = Int(generator.next() % (count + 4)) - 2
            let end = generator.next() % 3 == 0 ? start - Int(generator.next() % 5) : start + Int(generator.next() % 10)
            let inserted = randomText(using: &generator, chunks: Int(generator.next() % 5))
            buffer.replace(fromUTF8Offset: start, toUTF8Offset: end, with: Array(inserted.utf8))

            let text = buffer.text
            #expect(Array(text.utf8) == buffer.utf8, "seed \(seed), step \(step): text is no longer valid UTF-8")
            guard buffer.lineIndex == LineIndex(utf8: buffer.utf8) else {
                Issue.record("seed \(seed), step \(step): index differs from a rebuild for \(text.debugDescription)")
                return
            }
            if step % 10 == 0 {
                let reference = ReferencePositions(text)
                for offset in 0...buffer.utf8Count {
                    for encoding in PositionEncoding.allCases
                    where buffer.lineIndex.position(ofUTF8Offset: offset, encoding: encoding) != reference.positions[offset][encoding] {
                        Issue.record("seed \(seed), step \(step): offset \(offset) in \(encoding) of \(text.debugDescription)")
                        return
                    }
                }
            }
        }
    }
}

@Suite struct TextBufferTests {
    /// The count of lone `\r`s follows random edits that make, join and split `\r\n` pairs.
    @Test func loneCarriageReturnsFollowEdits() {
        var state: UInt64 = 0x4352
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % bound
        }
        let chunks = ["\r", "\n", "\r\n", "a", "é"]
        var buffer = TextBuffer("a\r\nb\rc")
        for step in 0..<2_000 {
            let count = buffer.utf8Count
            let start = next(count + 1)
            let end = min(count, start + next(3))
            let inserted = (0..<next(3)).map { _ in chunks[next(chunks.count)] }.joined()
            buffer.replace(fromUTF8Offset: start, toUTF8Offset: end, with: Array(inserted.utf8))
            let bytes = buffer.utf8
            let expected = bytes.indices.filter { bytes[$0] == 0x0D && ($0 + 1 == bytes.count || bytes[$0 + 1] != 0x0A) }.count
            #expect(buffer.loneCarriageReturnCount == expected, "step \(step): \(buffer.text.debugDescription)")
            if buffer.loneCarriageReturnCount != expected { return }
        }
    }

    @Test func clampsAndNormalisesRanges() {
        let table: [(start: Int, end: Int, inserted: String, expected: String)] = [
            (1, 3, "X", "aXd👍"),
            (3, 1, "X", "aXd👍"),  // reversed
            (-5, 1, "X", "Xbcd👍"),
            (4, 99, "X", "abcdX"),
            (99, 199, "X", "abcd👍X"),
            (6, 6, "X", "abcdX👍"),  // inside 👍: moves back to its start
            (5, 7, "", "abcd👍"),  // both bounds inside 👍: an empty range at its start
            (5, 8, "", "abcd"),  // 8 is the end of the text, not inside 👍
        ]
        for row in table {
            var buffer = TextBuffer("abcd👍")
            buffer.replace(fromUTF8Offset: row.start, toUTF8Offset: row.end, with: Array(row.inserted.utf8))
            #expect(buffer.text == row.expected, "\(row)")
            #expect(buffer.lineIndex == LineIndex(utf8: buffer.utf8))
        }
    }

    @Test func replaceByPositions() {
        var buffer = TextBuffer("héllo\r\nwörld 👍!")
        // UTF-16 columns of line 1: w0 ö1 r2 l3 d4 (space)5 👍6-7 !8; the range is reversed.
        buffer.replace(from: Position(line: 1, character: 8), to: Position(line: 1, character: 6), encoding: .utf16,
            with: Array("🎉".utf8))
        #expect(buffer.text == "héllo\r\nwörld 🎉!")
        buffer.replace(from: Position(line: 0, character: 5), to: Position(line: 1, character: 0), encoding: .utf32,
            with: Array(" ".utf8))
        #expect(buffer.text == "héllo wörld 🎉!")
        #expect(buffer.lineIndex.lineCount == 1)
        buffer.replaceAll(with: Array("x\ny".utf8))
        #expect(buffer.lineIndex.lineCount == 2)
    }

    @Test func lineTextAndBytes() {
        let buffer = TextBuffer("one\r\ntwo é\rthree\n")
        #expect(buffer.lineText(0) == "one")
        #expect(buffer.lineText(1) == "two é")
        #expect(buffer.lineText(2) == "three")
        #expect(buffer.lineText(3) == "")
        #expect(buffer.lineText(-1) == "")
        #expect(buffer.lineText(4) == "")
        #expect(buffer.utf8Count == 18)
        #expect(buffer.withUnsafeBytes { $0.count } == 18)
    }
}

/// Random text from chunks that stress position conversion and line splitting.
func randomText(using generator: inout SplitMix64, chunks: Int) -> String {
    let alphabet = [
        "a", "TODO", " ", "\t", "\n", "\r", "\r\n", "é", "e\u{301}", "中文", "👍", "👨‍👩‍👧", "🇫🇷", "\u{FEFF}",
        "abcdefghijklmnop",
    ]
    var result = ""
    for _ in 0..<chunks {
        result += alphabet[Int(generator.next() % UInt64(alphabet.count))]
    }
    return result
}

