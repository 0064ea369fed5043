import PatternEngine
import Testing

@testable import HighlightConfig

/// `LocatedMatch.locate`: each match's bytes and text, which the command line's writers copy as bytes.
@Suite struct LocatedMatchTests {
    /// One row: a text, the matches' UTF-8 ranges, and the text each match must carry.
    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var ranges: [Range<Int>]
        var expected: [String]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "ASCII words", text: "a TODO b FIXME", ranges: [2..<6, 9..<14], expected: ["TODO", "FIXME"]),
        Row(name: "adjacent matches", text: "ABC-1ABC-2", ranges: [0..<5, 5..<10], expected: ["ABC-1", "ABC-2"]),
        Row(name: "non-ASCII", text: "x café 日本語 🔥", ranges: [2..<7, 8..<17, 18..<22], expected: ["café", "日本語", "🔥"]),
        Row(name: "a match across a line break", text: "TODO\r\n// more", ranges: [0..<9], expected: ["TODO\r\n// "]),
        Row(name: "a range past the text is clamped", text: "end", ranges: [1..<9], expected: ["nd"]),
        Row(name: "no matches", text: "nothing", ranges: [], expected: []),
    ]

    @Test(arguments: rows)
    func textOfEachMatch(_ row: Row) {
        let bytes = Array(row.text.utf8)
        let located = bytes.withUnsafeBufferPointer { text in
            LocatedMatch.locate(row.ranges.map { Match(ruleIndex: 0, utf8Range: $0) }, in: text)
        }
        #expect(located.map(\.text) == row.expected)
        #expect(located.map { Array($0.textUTF8) } == row.expected.map { Array($0.utf8) })
        #expect(located.map(\.utf8Range) == row.ranges)
    }
}
