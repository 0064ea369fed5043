import Testing

@testable import JSONValue
import TextIndex

/// Expects the value at `path` in the source map of `text` to start at `value`, and its key at `key`.
private func checkLocation(
    in text: String, options: JSONParseOptions = .lenient, path: [JSONPathComponent],
    value: TextLocation?, key: TextLocation?, sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let (_, map) = try JSONParser.parseWithLocations(Array(text.utf8), options: options)
        #expect(map.utf8Offset(ofValueAt: path).map { map.textLocation(ofUTF8Offset: $0) } == value,
            "value at \(path)", sourceLocation: sourceLocation)
        #expect(map.utf8Offset(ofKeyAt: path).map { map.textLocation(ofUTF8Offset: $0) } == key,
            "key at \(path)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
}

@Suite struct JSONSourceMapTests {
    static let config = """
        {
          // comments are fine in config files
          "rules": [
            { "pattern": "TODO", "style": "warning" },
            {
              "pattern": "é中👍", "style": "info" }
          ],\r
          "nested": {"deep": {"er": [10, [20, 30]]}},\r\r
          "x": 1, "x": {"y": 2}
        }
        """

    @Test func valuesAndKeys() {
        let table: [(path: [JSONPathComponent], value: TextLocation?, key: TextLocation?)] = [
            ([], TextLocation(line: 1, column: 1), nil),
            ([.key("rules")], TextLocation(line: 3, column: 12), TextLocation(line: 3, column: 3)),
            ([.key("rules"), .index(0)], TextLocation(line: 4, column: 5), nil),
            ([.key("rules"), .index(0), .key("pattern")], TextLocation(line: 4, column: 18), TextLocation(line: 4, column: 7)),
            ([.key("rules"), .index(0), .key("style")], TextLocation(line: 4, column: 35), TextLocation(line: 4, column: 26)),
            ([.key("rules"), .index(1), .key("pattern")], TextLocation(line: 6, column: 18), TextLocation(line: 6, column: 7)),
            // Columns count scalars: "é中👍" takes 5 columns including its quotes.
            ([.key("rules"), .index(1), .key("style")], TextLocation(line: 6, column: 34), TextLocation(line: 6, column: 25)),
            ([.key("nested"), .key("deep"), .key("er"), .index(1), .index(0)], TextLocation(line: 8, column: 35), nil),
            ([.key("nested"), .key("deep"), .key("er"), .index(1), .index(1)], TextLocation(line: 8, column: 39), nil),
            // "\r\r" after line 8 are two line ends; the duplicate key "x" keeps the last member.
            ([.key("x")], TextLocation(line: 10, column: 16), TextLocation(line: 10, column: 11)),
            ([.key("x"), .key("y")], TextLocation(line: 10, column: 22), TextLocation(line: 10, column: 17)),
            // Paths that do not exist.
            ([.key("missing")], nil, nil),
            ([.key("rules"), .index(2)], nil, nil),
            ([.key("rules"), .index(-1)], nil, nil),
            ([.key("rules"), .key("0")], nil, nil),
            ([.index(0)], nil, nil),
            ([.key("x"), .key("y"), .key("z")], nil, nil),
        ]
        for row in table {
            checkLocation(in: Self.config, path: row.path, value: row.value, key: row.key)
        }
    }

    @Test func offsetsPointAtTheValueAndTheKeyQuote() throws {
        let bytes = Array(#"{"a": [true, "s"], "b": -1.5}"#.utf8)
        let (value, map) = try JSONParser.parseWithLocations(bytes)
        #expect(value == ["a": [true, "s"], "b": .number("-1.5")])
        #expect(map.utf8Offset(ofValueAt: []) == 0)
        #expect(map.utf8Offset(ofKeyAt: []) == nil)
        #expect(map.utf8Offset(ofKeyAt: [.key("a")]) == 1)
        #expect(map.utf8Offset(ofValueAt: [.key("a")]) == 6)
        #expect(map.utf8Offset(ofValueAt: [.key("a"), .index(0)]) == 7)
        #expect(map.utf8Offset(ofValueAt: [.key("a"), .index(1)]) == 13)
        #expect(map.utf8Offset(ofKeyAt: [.key("b")]) == 19)
        #expect(map.utf8Offset(ofValueAt: [.key("b")]) == 24)
        #expect(map.textLocation(ofKeyAt: [.key("a"), .index(1)]) == TextLocation(line: 1, column: 14))
    }

    @Test func scalarDocumentHasARootLocation() throws {
        let (value, map) = try JSONParser.parseWithLocations(Array("  42".utf8))
        #expect(value == 42)
        #expect(map.utf8Offset(ofValueAt: []) == 2)
        #expect(map.utf8Offset(ofValueAt: [.index(0)]) == nil)
    }

    @Test func parseWithLocationsReportsTheSameErrors() {
        do {
            _ = try JSONParser.parseWithLocations(Array("{\r\n\"a\": tru}".utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.location == TextLocation(line: 2, column: 6))
        }
    }
}

@Suite struct TextLocationTests {
    @Test func everyOffset() {
        // (text, the expected "line:column" of each UTF-8 offset from 0 through the end)
        let table: [(text: String, expected: [String])] = [
            ("", ["1:1"]),
            ("ab", ["1:1", "1:2", "1:3"]),
            ("a\nb", ["1:1", "1:2", "2:1", "2:2"]),
            ("a\r\nb", ["1:1", "1:2", "1:2", "2:1", "2:2"]),
            ("a\rb", ["1:1", "1:2", "2:1", "2:2"]),
            ("\n\r\n\r", ["1:1", "2:1", "2:1", "3:1", "4:1"]),
            ("é!", ["1:1", "1:1", "1:2", "1:3"]),
            ("中x", ["1:1", "1:1", "1:1", "1:2", "1:3"]),
            ("👍", ["1:1", "1:1", "1:1", "1:1", "1:2"]),
            ("e\u{301}", ["1:1", "1:2", "1:2", "1:3"]),
        ]
        for row in table {
            let bytes = Array(row.text.utf8)
            let actual = (0...bytes.count).map { TextLocation(utf8Offset: $0, in: bytes).description }
            #expect(actual == row.expected, "\(row.text.debugDescription)")
        }
    }

    @Test func clampsOffsets() {
        let bytes = Array("ab\ncd".utf8)
        #expect(TextLocation(utf8Offset: -5, in: bytes) == TextLocation(line: 1, column: 1))
        #expect(TextLocation(utf8Offset: 99, in: bytes) == TextLocation(line: 2, column: 3))
    }

    @Test func strayContinuationByteHasItsOwnColumn() {
        let bytes: [UInt8] = [0x61, 0x80, 0x62]
        #expect(TextLocation(utf8Offset: 1, in: bytes) == TextLocation(line: 1, column: 2))
    }
}
