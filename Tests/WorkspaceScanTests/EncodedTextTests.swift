import Foundation
import HighlightConfig
import PatternEngine
import Testing
@testable import WorkspaceScan

/// Files in UTF-16 and UTF-32 with a byte order mark are searched in their UTF-8 transcoding, positions counted in it
/// as ripgrep counts them; names and texts shown on a terminal have their control characters escaped.
@Suite struct EncodedTextTests {
    static let marks: [(ByteOrderMark, String.Encoding, [UInt8])] = [
        (.utf16LittleEndian, .utf16LittleEndian, [0xFF, 0xFE]),
        (.utf16BigEndian, .utf16BigEndian, [0xFE, 0xFF]),
        (.utf32LittleEndian, .utf32LittleEndian, [0xFF, 0xFE, 0x00, 0x00]),
        (.utf32BigEndian, .utf32BigEndian, [0x00, 0x00, 0xFE, 0xFF]),
    ]

    /// Texts whose positions differ by unit: ASCII, two-byte, astral and CRLF lines, and one past the binary check's
    /// 8 KiB and the chunked search's 4 MiB.
    static let texts: [String] = [
        "DO NOT MERGE\n",
        "é x DO NOT MERGE\n𝄞 DO NOT MERGE\r\nlast DO NOT MERGE",
        String(repeating: "filler line\n", count: 1_000) + "tail DO NOT MERGE\n",
        String(repeating: "x é 𝄞 DO NOT MERGE\n", count: 190_000),
    ]

    static var configuration: HighlightConfiguration {
        WorkspaceScanTests.configuration(#"{ "name": "dnm", "words": ["DO NOT MERGE"], "blocking": true }"#)
    }

    /// Every match of the encoded file is the match of the same text in UTF-8: the same lines, columns and offsets.
    @Test(arguments: marks)
    func anEncodedFileIsSearchedAsItsUTF8(mark: ByteOrderMark, encoding: String.Encoding, bytes: [UInt8]) throws {
        var files: [String: [UInt8]] = [:]
        for (number, text) in Self.texts.enumerated() {
            files["utf8-\(number).txt"] = Array(text.utf8)
            files["encoded-\(number).txt"] = bytes + [UInt8](try #require(text.data(using: encoding)))
        }
        let root = try WorkspaceScanTests.tree(files)
        defer { try? FileManager.default.removeItem(atPath: root) }
        // The command line's way (a walk, streaming and chunks where the rules allow) and one file at a time; the limit
        // is the raw file's, four times the text in UTF-32.
        let options = ScanOptions(maximumFileSize: 32 << 20, mapsLargeFiles: true)
        let walked = WorkspaceScanner.scan(walking: [root], configuration: Self.configuration, options: options)
        for number in Self.texts.indices {
            let encoded = try #require(walked.first { $0.file.relativePath == "encoded-\(number).txt" })
            let plain = try #require(walked.first { $0.file.relativePath == "utf8-\(number).txt" })
            #expect(encoded.outcome == .searched(truncated: false), "\(mark) text \(number)")
            // Compared as a whole, not printed: the largest text has 190,000 matches.
            #expect(encoded.matches == plain.matches && !plain.matches.isEmpty, "\(mark) text \(number): \(encoded.matches.count) matches")
            let single = WorkspaceScanner.scan(encoded.file, configuration: Self.configuration, options: options)
            #expect(single.matches == plain.matches, "\(mark) text \(number), one file: \(single.matches.count) matches")
        }
    }

    /// (mark, encoded bytes after the mark, the text): what is not a character becomes U+FFFD.
    static let malformed: [(ByteOrderMark, [UInt8], String)] = [
        (.utf16LittleEndian, [0x41, 0x00, 0x00, 0xD8, 0x42, 0x00], "A\u{FFFD}B"),  // a lone high surrogate
        (.utf16BigEndian, [0xDC, 0x00, 0x00, 0x41], "\u{FFFD}A"),  // a lone low surrogate
        (.utf16LittleEndian, [0x41, 0x00, 0x42], "A\u{FFFD}"),  // an odd last byte
        (.utf16BigEndian, [0xD8, 0x34, 0xDD, 0x1E], "𝄞"),
        (.utf32LittleEndian, [0x41, 0, 0, 0, 0x00, 0x00, 0x11, 0x00], "A\u{FFFD}"),  // past U+10FFFF
        (.utf32BigEndian, [0, 0, 0xD8, 0x00, 0, 0, 0, 0x41, 0, 0], "\u{FFFD}A\u{FFFD}"),  // a surrogate, two bytes left over
        (.utf32LittleEndian, [], ""),
    ]

    @Test(arguments: malformed)
    func whatIsNotACharacterIsReplaced(mark: ByteOrderMark, body: [UInt8], text: String) {
        let file = (Self.marks.first { $0.0 == mark }?.2 ?? []) + body
        #expect(file.withUnsafeBufferPointer { ByteOrderMark.of($0) } == mark)
        #expect(WorkspaceScanner.utf8Text(ofFileBytes: file) == Array(text.utf8))
    }

    /// (bytes, as a terminal is shown them): control characters as `\xNN`, backslashes doubled in a name that has any.
    static let shownOnATerminal: [([UInt8], String)] = [
        (Array("plain é\ttab.txt".utf8), "plain é\ttab.txt"),
        (Array("x\n::error file=README.md,line=1::forged\n.txt".utf8), "x\\x0A::error file=README.md,line=1::forged\\x0A.txt"),
        (Array("e\u{1B}[31mred\u{7}.txt".utf8), "e\\x1B[31mred\\x07.txt"),
        (Array("del\u{7F} csi\u{9B}.txt".utf8), "del\\x7F csi\\xC2\\x9B.txt"),
        (Array("back\\slash\r".utf8), "back\\\\slash\\x0D"),
        ([0x61, 0xFF, 0x0A], "a\\xFF\\x0A"),
    ]

    @Test(arguments: shownOnATerminal)
    func controlCharactersAreEscapedForATerminal(bytes: [UInt8], shown: String) {
        #expect(FileSystemPath.displayed(bytes, controls: .escaped) == shown)
        // The walk's own names keep them: every output format escapes them its own way.
        if let valid = String(validating: bytes, as: UTF8.self) { #expect(FileSystemPath.displayed(bytes) == valid) }
    }
}
