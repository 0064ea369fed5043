import Testing

import Seeded
@testable import TextIndex

/// Texts that have tripped up position conversions somewhere.
let trickyTexts: [(name: String, text: String)] = [
    ("empty", ""),
    ("ASCII", "hello world"),
    ("trailing newline", "a\nb\n"),
    ("only newlines", "\n\n\n"),
    ("precomposed é", "café\nnaïve"),
    ("decomposed é", "cafe\u{301}\ne\u{301}e\u{301}"),
    ("CJK", "中文字符 TODO 漢字"),
    ("emoji", "👍 ok 👍👍"),
    ("ZWJ family", "a👨‍👩‍👧b"),
    ("flags", "🇫🇷🇯🇵 x"),
    ("CRLF", "one\r\ntwo\r\n\r\nthree"),
    ("lone CR", "one\rtwo\r\rthree\r"),
    ("mixed terminators", "a\n\r\nb\r\r\nc\n\rd"),
    ("CR then LF across lines", "x\r\n\ny\n\r"),
    ("mixed everything", "é👍\r\n中\re\u{301}\n👨‍👩‍👧🇫🇷\r\n"),
    ("4-byte only", "𐀀𝄞😀"),
    ("BOM", "\u{FEFF}TODO"),
]

@Suite struct LineIndexTests {
    @Test(arguments: trickyTexts.map(\.name))
    func everyOffsetMatchesTheReference(name: String) {
        let text = trickyTexts.first { $0.name == name }?.text ?? ""
        let bytes = Array(text.utf8)
        let index = LineIndex(utf8: bytes)
        let reference = ReferencePositions(text)
        #expect(index.lineCount == reference.lineStarts.count)
        #expect(index.utf8Count == bytes.count)
        for line in 0..<reference.lineStarts.count {
            #expect(index.utf8Offset(ofLineStart: line) == reference.lineStarts[line], "line \(line)")
            #expect(index.utf8Offset(ofLineContentEnd: line) == reference.lineContentEnds[line], "line \(line)")
        }
        for offset in 0...bytes.count {
            for encoding in PositionEncoding.allCases {
                let expected = reference.positions[offset][encoding]
                #expect(index.position(ofUTF8Offset: offset, encoding: encoding) == expected,
                    "\(name): offset \(offset) in \(encoding)")
            }
            #expect(index.line(containingUTF8Offset: offset) == reference.positions[offset][.utf8]?.line)
        }
    }

    @Test(arguments: trickyTexts.map(\.name))
    func roundTripsInEveryEncoding(name: String) {
        let text = trickyTexts.first { $0.name == name }?.text ?? ""
        let bytes = Array(text.utf8)
        let index = LineIndex(utf8: bytes)
        let reference = ReferencePositions(text)
        for encoding in PositionEncoding.allCases {
            // Offset -> position -> offset lands on the start of the character (or on the
            // content end for offsets inside a terminator).
            for offset in 0...bytes.count {
                let position = index.position(ofUTF8Offset: offset, encoding: encoding)
                let back = index.utf8Offset(of: position, encoding: encoding)
                #expect(back <= offset, "\(name): \(offset) -> \(position) -> \(back) in \(encoding)")
                #expect(index.position(ofUTF8Offset: back, encoding: encoding) == position)
                #expect(reference.positions[back][encoding] == position)
            }
            // Each line's character count in this encoding is its last column.
            for line in 0..<index.lineCount {
                let end = index.utf8Offset(ofLineContentEnd: line)
                #expect(index.characterCount(ofLine: line, encoding: encoding)
                    == index.position(ofUTF8Offset: end, encoding: encoding).character)
            }
        }
    }

    @Test func lineCounts() {
        let table: [(String, Int)] = [
            ("", 1), ("a", 1), ("\n", 2), ("a\n", 2), ("\r\n", 2), ("\r", 2), ("\n\r", 3), ("\r\r\n", 3),
            ("a\nb", 2), ("a\r\nb\r\n", 3),
        ]
        for (text, expected) in table {
            #expect(LineIndex(utf8: Array(text.utf8)).lineCount == expected, "\(text.debugDescription)")
        }
    }

    @Test func clamping() {
        // "ab\r\nc👍d" — line 0 is "ab" (then \r\n), line 1 is "c👍d" (offsets 4...10).
        let index = LineIndex(utf8: Array("ab\r\nc👍d".utf8))
        let toOffset: [(Position, PositionEncoding, Int)] = [
            (Position(line: -1, character: 5), .utf16, 0),
            (Position(line: 0, character: -3), .utf16, 0),
            (Position(line: 0, character: 2), .utf16, 2),
            (Position(line: 0, character: 3), .utf16, 2),  // never inside "\r\n"
            (Position(line: 0, character: Int.max), .utf16, 2),
            (Position(line: 1, character: 0), .utf16, 4),
            (Position(line: 1, character: 1), .utf16, 5),
            (Position(line: 1, character: 2), .utf16, 5),  // between the surrogates of 👍
            (Position(line: 1, character: 3), .utf16, 9),
            (Position(line: 1, character: 4), .utf16, 10),
            (Position(line: 1, character: 99), .utf16, 10),
            (Position(line: 1, character: 2), .utf32, 9),
            (Position(line: 1, character: 2), .utf8, 5),  // inside 👍's bytes
            (Position(line: 1, character: 5), .utf8, 9),
            (Position(line: 1, character: 8), .utf8, 10),
            (Position(line: 1, character: Int.max), .utf8, 10),
            (Position(line: 2, character: 0), .utf16, 10),
            (Position(line: Int.max, character: Int.max), .utf32, 10),
            (Position(line: Int.min, character: Int.min), .utf8, 0),
        ]
        for (position, encoding, expected) in toOffset {
            #expect(index.utf8Offset(of: position, encoding: encoding) == expected, "\(position) \(encoding)")
        }
        let toPosition: [(Int, PositionEncoding, Position)] = [
            (-5, .utf16, Position(line: 0, character: 0)),
            (3, .utf16, Position(line: 0, character: 2)),  // between \r and \n
            (7, .utf16, Position(line: 1, character: 1)),  // inside 👍
            (100, .utf16, Position(line: 1, character: 4)),
            (Int.max, .utf32, Position(line: 1, character: 3)),
            (Int.min, .utf8, Position(line: 0, character: 0)),
        ]
        for (offset, encoding, expected) in toPosition {
            #expect(index.position(ofUTF8Offset: offset, encoding: encoding) == expected, "\(offset) \(encoding)")
        }
        #expect(index.utf8Offset(ofLineStart: -1) == 0)
        #expect(index.utf8Offset(ofLineStart: 9) == 10)
        #expect(index.utf8Offset(ofLineContentEnd: 9) == 10)
        #expect(index.line(containingUTF8Offset: -1) == 0)
        #expect(index.line(containingUTF8Offset: 99) == 1)
        #expect(index.characterCount(ofLine: 5, encoding: .utf16) == 0)
        #expect(index.utf8ContentRange(ofLine: 1) == 4..<10)
    }

    @Test func invalidUTF8NeverTraps() {
        let bytes: [UInt8] = [0x61, 0xFF, 0xC3, 0x0A, 0xE2, 0x82, 0x80, 0xF0, 0x9F, 0x0D, 0x62, 0xBF]
        let index = LineIndex(utf8: bytes)
        #expect(index.lineCount == 3)
        for offset in -1...(bytes.count + 1) {
            for encoding in PositionEncoding.allCases {
                let position = index.position(ofUTF8Offset: offset, encoding: encoding)
                _ = index.utf8Offset(of: position, encoding: encoding)
            }
        }
        #expect(index.position(ofUTF8Offset: 7, encoding: .utf16) == Position(line: 1, character: 1))
    }

    @Test func longASCIIAndNonASCIIRunsAcrossWordBoundaries() {
        // The scanner skips eight bytes at a time; put terminators and wide characters at every
        // position of a word.
        for length in 1..<20 {
            for position in 0..<length {
                for insert in ["\n", "\r", "\r\n", "é", "中", "👍"] {
                    var scalars = Array(repeating: "x", count: length)
                    scalars[position] = insert
                    let text = scalars.joined()
                    let index = LineIndex(utf8: Array(text.utf8))
                    let reference = ReferencePositions(text)
                    #expect(index.lineCount == reference.lineStarts.count, "\(text.debugDescription)")
                    for offset in 0...text.utf8.count {
                        #expect(index.position(ofUTF8Offset: offset, encoding: .utf16) == reference.positions[offset][.utf16],
                            "\(text.debugDescription) at \(offset)")
                    }
                }
            }
        }
    }

    /// The index costs what LineIndex.swift says: nine bytes a line (a start and a shape) and sixteen
    /// a non-ASCII character (a start and a record), whatever the text.
    @Test func recordSizes() {
        #expect(MemoryLayout<Int>.stride + MemoryLayout<LineIndex.LineShape>.stride == 9)
        #expect(MemoryLayout<Int>.stride + MemoryLayout<LineIndex.WideCharacter>.stride == 16)
        // The running totals survive the packing: a line of 300 wide characters, 4 bytes every third one.
        let line = String(repeating: "é中😀", count: 100)
        let index = LineIndex(utf8: Array(line.utf8))
        #expect(index.characterCount(ofLine: 0, encoding: .utf16) == line.utf16.count)
        #expect(index.characterCount(ofLine: 0, encoding: .utf32) == line.unicodeScalars.count)
        #expect(index.characterCount(ofLine: 0, encoding: .utf8) == line.utf8.count)
    }

    /// Plain blocks hand over their line starts in batches: runs of thousands of short lines, cut
    /// by a wide character or a `\r` now and then, give the same index either way.
    @Test func longPlainRunsAgreeWithTheWordScanner() {
        var random = SplitMix64(seed: 52)
        var text: [UInt8] = []
        while text.count < 200_000 {
            switch random.next(below: 400) {
            case 0: text += Array("é".utf8)
            case 1: text += [0x0D, 0x0A]
            case 2..<200: text.append(0x0A)
            default: text += Array("abc\n".utf8)
            }
        }
        text.withUnsafeBufferPointer { buffer in
            var scanned: [LineIndex.ScannedLines] = []
            for usesAVX2 in [false, true] {
                var lines = LineIndex.ScannedLines()
                _ = lines.scan(buffer, utf8Range: 0..<buffer.count, isDocumentEnd: true, usesAVX2: usesAVX2)
                scanned.append(lines)
            }
            #expect(scanned[0].starts == scanned[1].starts)
            #expect(scanned[0].shapes == scanned[1].shapes)
            #expect(scanned[0].wideStarts == scanned[1].wideStarts)
            #expect(scanned[0].starts.count > 50_000)
        }
    }

    /// Blocks of sixty-four bytes are taken whole where the CPU has AVX2: both scanners give the
    /// same lines for texts whose terminators, wide characters and stray bytes fall anywhere
    /// around block boundaries, with ranges that start and end anywhere.
    @Test func blockScannerAgreesWithTheWordScanner() {
        let pieces: [[UInt8]] = [
            Array(repeating: UInt8(ascii: "x"), count: 30), Array("ab".utf8), [0x0A], [0x0D], [0x0D, 0x0A],
            Array("é".utf8), Array("👍".utf8), [0xFF], [0xE2, 0x82],
        ]
        var random = SplitMix64(seed: 38)
        for _ in 0..<400 {
            var text: [UInt8] = []
            while text.count < 300 { text += pieces[random.next(below: random.next(below: 4) == 0 ? pieces.count : 3)] }
            let lower = random.next(below: 70)
            let upper = max(lower, text.count - random.next(below: 70))
            text.withUnsafeBufferPointer { buffer in
                var results: [[String]] = []
                for usesAVX2 in [false, true] {
                    var scanned = LineIndex.ScannedLines()
                    let rest = scanned.scan(
                        buffer, utf8Range: lower..<upper, isDocumentEnd: upper == text.count, usesAVX2: usesAVX2)
                    results.append([
                        "\(rest)", "\(scanned.starts)", "\(scanned.shapes)", "\(scanned.wideStarts)",
                        "\(scanned.wideCharacters)", "\(scanned.loneCarriageReturnCount)",
                    ])
                }
                #expect(results[0] == results[1], "\(text) in \(lower)..<\(upper)")
            }
        }
    }
}
