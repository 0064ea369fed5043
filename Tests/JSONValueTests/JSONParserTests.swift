import Testing

@testable import JSONValue
import TextIndex

/// Parses `text` and expects `expected`.
func checkParses(
    _ text: String, _ expected: JSON, options: JSONParseOptions = .strict,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let value = try JSONParser.parse(Array(text.utf8), options: options)
        #expect(value == expected, "input: \(text)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(text): unexpected error \(error)", sourceLocation: sourceLocation)
    }
}

/// Parses `bytes` and expects an error whose message contains `message`, at the given
/// one-based line and column.
func checkFails(
    _ bytes: [UInt8], options: JSONParseOptions = .strict, message: String, line: Int, column: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let value = try JSONParser.parse(bytes, options: options)
        Issue.record("\(String(decoding: bytes, as: UTF8.self)): parsed as \(value), expected an error",
            sourceLocation: sourceLocation)
    } catch {
        #expect(error.message.contains(message), "message: \(error.message)", sourceLocation: sourceLocation)
        #expect(error.location == TextLocation(line: line, column: column),
            "\(error) in \(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
        #expect(TextLocation(utf8Offset: error.utf8Offset, in: bytes) == error.location, sourceLocation: sourceLocation)
    }
}

/// Shorthand for `checkFails` on a string.
func checkFails(
    _ text: String, options: JSONParseOptions = .strict, message: String, line: Int, column: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    checkFails(Array(text.utf8), options: options, message: message, line: line, column: column,
        sourceLocation: sourceLocation)
}

@Suite struct JSONParserTests {
    @Test func scalars() {
        let table: [(String, JSON)] = [
            ("null", .null),
            ("true", true),
            ("false", false),
            ("0", 0),
            ("-0", .number("-0")),
            ("42", 42),
            ("-17", -17),
            ("9223372036854775807", .integer(Int.max)),
            ("-9223372036854775808", .integer(Int.min)),
            // Every other number keeps its exact text, so that an id is echoed as it was sent.
            ("9223372036854775808", .number("9223372036854775808")),
            ("-9223372036854775809", .number("-9223372036854775809")),
            ("12345678901234567890123", .number("12345678901234567890123")),
            ("1.5", .number("1.5")),
            ("-0.25", .number("-0.25")),
            ("1e3", .number("1e3")),
            ("1E+3", .number("1E+3")),
            ("25e-1", .number("25e-1")),
            ("2.0", .number("2.0")),
            ("2.50", .number("2.50")),
            ("1e400", .number("1e400")),
            ("\"\"", ""),
            ("\"plain\"", "plain"),
            ("  \t\r\n 7 \n", 7),
        ]
        for (text, expected) in table { checkParses(text, expected) }
    }

    /// Number text is read as a number by the accessors; an integer is only what fits exactly.
    @Test func numberTextAccessors() {
        let table: [(JSON, integer: Int?, double: Double?)] = [
            (.number("9223372036854775808"), nil, 9_223_372_036_854_775_808),
            // Rounds to -2^63 as a double: must not pass for `Int.min` (it would collide with a real id).
            (.number("-9223372036854775809"), nil, -9_223_372_036_854_775_808),
            (.number("1e3"), 1000, 1000),
            (.number("-0"), 0, 0),
            (.number("2.0"), 2, 2),
            (.number("2.5"), nil, 2.5),
            (.number("1e400"), nil, .infinity),
            (.number("9007199254740993.0"), nil, 9_007_199_254_740_992),
        ]
        for (value, integer, double) in table {
            #expect(value.integerValue == integer, "\(value)")
            #expect(value.doubleValue == double, "\(value)")
            #expect(value.typeName == "number")
        }
    }

    @Test func containers() {
        let table: [(String, JSON)] = [
            ("[]", []),
            ("{}", [:]),
            ("[ ]", []),
            ("{ }", [:]),
            ("[1,2,3]", [1, 2, 3]),
            ("[[[]]]", [[[]]]),
            ("{\"a\":1,\"b\":[true,null,{\"c\":\"d\"}]}", ["a": 1, "b": [true, nil, ["c": "d"]]]),
            ("[{}, [], {\"x\": []}]", [[:], [], ["x": []]]),
            ("{\"a\":1,\"a\":2}", ["a": 2]),
            ("{\"a\":{\"x\":1},\"a\":[3]}", ["a": [3]]),
            (" { \"k\" : [ 1 , 2 ] } ", ["k": [1, 2]]),
        ]
        for (text, expected) in table { checkParses(text, expected) }
    }

    @Test func escapesAndUnicode() {
        let table: [(String, JSON)] = [
            (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
            (#""\u0041\u00e9\u4E2D""#, "Aé中"),
            (#""\u0000""#, "\u{0}"),
            (#""\uD83D\uDC4D""#, "👍"),
            (#""\ud83d\udc4d!""#, "👍!"),
            (#""\uD800""#, "\u{FFFD}"),
            (#""\uDC00""#, "\u{FFFD}"),
            (#""\uD800x""#, "\u{FFFD}x"),
            (#""\uD800\u0041""#, "\u{FFFD}A"),
            (#""\uD800\uD800\uDC00""#, "\u{FFFD}𐀀"),
            (#""\uDC00\uD800""#, "\u{FFFD}\u{FFFD}"),
            ("\"é中👍 e\u{301}\"", "é中👍 e\u{301}"),
            ("\"a\\nb é\"", "a\nb é"),
            ("\"\u{7F}\"", "\u{7F}"),
        ]
        for (text, expected) in table { checkParses(text, expected) }
    }

    /// The string scanner reads eight bytes at a time; every special byte must be seen at
    /// every position of a word and in the byte-wise tail.
    @Test func specialBytesAtEveryPositionOfAString() {
        for length in 1..<34 {
            for position in 0..<length {
                var plain = Array(repeating: UInt8(ascii: "a"), count: length)
                plain[position] = 0xC3  // paired with the next byte as "é" when it fits
                if position + 1 < length {
                    plain[position + 1] = 0xA9
                    checkParses("\"" + String(decoding: plain, as: UTF8.self) + "\"",
                        .string(String(decoding: plain, as: UTF8.self)))
                }

                var escaped = Array(repeating: UInt8(ascii: "b"), count: length)
                escaped[position] = UInt8(ascii: "\\")
                escaped.insert(UInt8(ascii: "n"), at: position + 1)
                var expected = Array(repeating: UInt8(ascii: "b"), count: length)
                expected[position] = 0x0A
                checkParses("\"" + String(decoding: escaped, as: UTF8.self) + "\"", .string(String(decoding: expected, as: UTF8.self)))

                let before = String(repeating: "c", count: position)
                let after = String(repeating: "c", count: length - position - 1)
                checkParses("[\"" + before + "\",\"" + after + "\"]", [.string(before), .string(after)])

                var control = Array(repeating: UInt8(ascii: "d"), count: length)
                control[position] = 0x1F
                checkFails([UInt8(ascii: "\"")] + control + [UInt8(ascii: "\"")], message: "control character U+001F",
                    line: 1, column: position + 2)

                var invalid = Array(repeating: UInt8(ascii: "e"), count: length)
                invalid[position] = 0xFF
                checkFails([UInt8(ascii: "\"")] + invalid + [UInt8(ascii: "\"")], message: "invalid UTF-8",
                    line: 1, column: position + 2)
            }
        }
    }

    @Test func lenientExtensions() {
        let table: [(String, JSON)] = [
            ("// leading\n{\"a\": 1, // after\n \"b\": 2 /* inline */}", ["a": 1, "b": 2]),
            ("[1, 2, ]", [1, 2]),
            ("{\"a\": 1,}", ["a": 1]),
            ("[/* é 中 👍 */ 1]", [1]),
            ("1 // trailing comment", 1),
            ("1 // comment ending with CR\r", 1),
            ("/**/ 1 /***/", 1),
            ("[[1,],{},]", [[1], [:]]),
        ]
        for (text, expected) in table { checkParses(text, expected, options: .lenient) }
    }

    @Test func byteOrderMarkIsSkipped() throws {
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == [1])
    }

    @Test func invalidInStrictMode() {
        let table: [(text: String, message: String, line: Int, column: Int)] = [
            ("", "expected a value, found the end of the input", 1, 1),
            ("   ", "expected a value", 1, 4),
            ("nul", "invalid literal", 1, 1),
            ("tru e", "invalid literal", 1, 1),
            ("True", "expected a value, found 'T'", 1, 1),
            ("01", "leading zeros", 1, 1),
            ("-01", "leading zeros", 1, 1),
            ("-", "expected a digit", 1, 2),
            ("+1", "expected a value, found '+'", 1, 1),
            (".5", "expected a value", 1, 1),
            ("1.", "expected a digit after the decimal point", 1, 3),
            ("1.e5", "expected a digit after the decimal point", 1, 3),
            ("1e", "expected a digit in the exponent", 1, 3),
            ("1e+", "expected a digit in the exponent", 1, 4),
            ("0x10", "expected end of input after the JSON value, found 'x'", 1, 2),
            ("1 2", "expected end of input", 1, 3),
            ("{} x", "expected end of input", 1, 4),
            ("NaN", "expected a value", 1, 1),
            ("[1,]", "trailing comma", 1, 4),
            ("{\"a\":1,}", "trailing comma", 1, 8),
            ("[1 2]", "expected ',' or ']' after an array element, found '2'", 1, 4),
            ("[1", "expected ',' or ']'", 1, 3),
            ("[", "expected a value, found the end of the input", 1, 2),
            ("[,1]", "expected a value, found ','", 1, 2),
            ("[1,,2]", "expected a value", 1, 4),
            ("{\"a\" 1}", "expected ':' after an object key", 1, 6),
            ("{a:1}", "expected a string as an object key, found 'a'", 1, 2),
            ("{\"a\":1 \"b\":2}", "expected ',' or '}' after an object member", 1, 8),
            ("{\"a\":}", "expected a value, found '}'", 1, 6),
            ("{1:2}", "expected a string as an object key", 1, 2),
            ("[}", "expected a value, found '}'", 1, 2),
            ("{]", "expected a string as an object key", 1, 2),
            ("[1}", "expected ',' or ']'", 1, 3),
            ("\"abc", "unterminated string", 1, 1),
            ("\"abc\\", "unterminated string", 1, 1),
            ("\"a\nb\"", "line break in a string", 1, 3),
            ("\"a\tb\"", "control character U+0009", 1, 3),
            ("\"\\x\"", "invalid escape sequence", 1, 2),
            ("\"\\u12\"", "four hexadecimal digits", 1, 2),
            ("\"\\uZZZZ\"", "four hexadecimal digits", 1, 2),
            ("\"\\uD800\\u12\"", "four hexadecimal digits", 1, 8),
            ("// comment\n1", "comments are not allowed", 1, 1),
            ("[1] /* c */", "comments are not allowed", 1, 5),
            ("\u{1}", "expected a value, found U+0001", 1, 1),
            ("é", "expected a value, found 'é'", 1, 1),
            ("[\"é\", ü]", "found 'ü'", 1, 7),
            ("\u{FEFF}\u{FEFF}1", "found '\u{FEFF}'", 1, 2),
        ]
        for row in table {
            checkFails(row.text, message: row.message, line: row.line, column: row.column)
        }
    }

    @Test func invalidInLenientMode() {
        let table: [(text: String, message: String, line: Int, column: Int)] = [
            ("/* never closed", "unterminated comment", 1, 1),
            ("1 /", "expected '//' or '/*'", 1, 3),
            ("[1,,]", "expected a value", 1, 4),
            ("[,]", "expected a value, found ','", 1, 2),
            ("{,}", "expected a string as an object key", 1, 2),
            ("01", "leading zeros", 1, 1),
            ("{\"a\":1 // c\n \"b\":2}", "expected ',' or '}'", 2, 2),
        ]
        for row in table {
            checkFails(row.text, options: .lenient, message: row.message, line: row.line, column: row.column)
        }
    }

    @Test func invalidUTF8IsRejected() {
        let quote = UInt8(ascii: "\"")
        let table: [(bytes: [UInt8], options: JSONParseOptions, line: Int, column: Int)] = [
            ([quote, 0xFF, quote], .strict, 1, 2),
            ([quote, 0x61, 0xC3, quote], .strict, 1, 3),  // truncated 2-byte sequence
            ([quote, 0xC0, 0xAF, quote], .strict, 1, 2),  // overlong '/'
            ([quote, 0xED, 0xA0, 0x80, quote], .strict, 1, 2),  // encoded surrogate
            ([quote, 0xF4, 0x90, 0x80, 0x80, quote], .strict, 1, 2),  // above U+10FFFF
            ([quote, 0x5C, 0x6E, 0xC3, 0xA9, 0x80, quote], .strict, 1, 5),  // after an escape
            ([0x5B, 0x80, 0x5D], .strict, 1, 2),
            ([0x0A, 0x31, 0x20, 0xFE], .strict, 2, 3),
            (Array("// é ".utf8) + [0xC3, 0x28] + Array("\n1".utf8), .lenient, 1, 6),
            (Array("/* ".utf8) + [0xE2, 0x82] + Array(" */ 1".utf8), .lenient, 1, 4),
        ]
        for row in table {
            checkFails(row.bytes, options: row.options, message: "invalid UTF-8", line: row.line, column: row.column)
        }
    }

    @Test func errorLocationsCountScalarsAndAllLineBreaks() {
        let table: [(text: String, line: Int, column: Int)] = [
            ("[\n1,\nx]", 3, 1),
            ("[\r\n1,\r\nx]", 3, 1),
            ("[\r1,\rx]", 3, 1),
            ("[\r\n\n\r1,\r\r\nx]", 6, 1),
            ("[\"é\", x]", 1, 7),
            ("[\"中文\", x]", 1, 8),
            ("[\"👍\",  x]", 1, 8),
            ("[\"e\u{301}\", x]", 1, 8),
            ("{\n  \"a\": [1,\n  2 3]}", 3, 5),
        ]
        for row in table {
            checkFails(row.text, message: "", line: row.line, column: row.column)
        }
    }

    @Test func errorDescriptionIsLineColonColumn() {
        do {
            let value = try JSONParser.parse("[1,\n  x]")
            Issue.record("parsed as \(value)")
        } catch {
            #expect(error.description == "2:3: expected a value, found 'x'")
            #expect(error.utf8Offset == 6)
        }
    }

    @Test func depthLimit() {
        let options = JSONParseOptions(maximumDepth: 4)
        checkParses("[[[[1]]]]", [[[[1]]]], options: options)
        checkParses("{\"a\":[{\"b\":[]}]}", ["a": [["b": []]]], options: options)
        checkFails("[[[[[1]]]]]", options: options, message: "nesting is deeper than the limit of 4", line: 1, column: 5)
        checkFails("{\"a\":[{\"b\":[{}]}]}", options: options, message: "deeper", line: 1, column: 13)
        checkFails("[]", options: JSONParseOptions(maximumDepth: 0), message: "deeper", line: 1, column: 1)
        checkParses("7", 7, options: JSONParseOptions(maximumDepth: 0))
    }

    @Test func deepNestingNeverExhaustsTheStack() {
        let depth = 200_000
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        checkFails(text, message: "nesting is deeper than the limit of 512", line: 1, column: 513)
        // Without a limit the parser itself still uses no stack, but destroying (or writing,
        // or comparing) a value recurses through it, so the value built here stays shallow
        // enough for a test thread.
        let unlimited = JSONParseOptions(maximumDepth: Int.max)
        let shallowerDepth = 2_000
        let shallowerText = String(repeating: "[", count: shallowerDepth) + String(repeating: "]", count: shallowerDepth)
        do {
            var value = try JSONParser.parse(shallowerText, options: unlimited)
            var levels = 0
            while case .array(let elements) = value, let first = elements.first {
                value = first
                levels += 1
            }
            #expect(levels == shallowerDepth - 1)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func stringAndBufferOverloadsAgree() throws {
        let text = "{\"a\": [1, 2.5, \"é\"]}"
        let fromString = try JSONParser.parse(text)
        let fromArray = try JSONParser.parse(Array(text.utf8))
        let fromBuffer = try Array(text.utf8).withUnsafeBufferPointer { buffer in
            try JSONParser.parse(buffer)
        }
        #expect(fromString == fromArray)
        #expect(fromArray == fromBuffer)
    }
}


/// A string found by path without parsing the rest of the text.
@Suite struct JSONStringAtPathTests {
    /// (text, path, the string found, or nil)
    static let table: [(text: String, path: [String], expected: String?)] = [
        (#"{"params":{"textDocument":{"uri":"file:///a"}}}"#, ["params", "textDocument", "uri"], "file:///a"),
        (#" { "jsonrpc" : "2.0" , "params" : { "textDocument" : { "text" : "a \" } { [ b", "uri" : "file:///b" } } } "#,
         ["params", "textDocument", "uri"], "file:///b"),
        (#"{"a":[1,{"uri":"no"},"]"],"b":{"c":null,"d":-1.5e3,"e":true},"params":{"textDocument":{"uri":"x\u00e9\n"}}}"#,
         ["params", "textDocument", "uri"], "xé\n"),
        (#"{"params":{"textDocument":{"uri":3}}}"#, ["params", "textDocument", "uri"], nil),
        (#"{"params":{"textDocument":{}}}"#, ["params", "textDocument", "uri"], nil),
        (#"{"params":[{"textDocument":{"uri":"a"}}]}"#, ["params", "textDocument", "uri"], nil),
        (#"{"params":{"textDocument":{"uri":"unterminated}}}"#, ["params", "textDocument", "uri"], nil),
        (#"[{"params":1}]"#, ["params"], nil),
        (#"{"first":"a","first":"b"}"#, ["first"], "a"),
        ("", ["a"], nil),
    ]

    @Test(arguments: table.indices)
    func stringAtPath(_ index: Int) {
        let (text, path, expected) = Self.table[index]
        #expect(JSONParser.string(atPath: path, in: Array(text.utf8)) == expected, "\(text)")
    }

    /// The same string as bytes, and where its literal is: the literal parses back to it.
    @Test(arguments: table.indices)
    func stringBytesAtPath(_ index: Int) throws {
        let (text, path, expected) = Self.table[index]
        let bytes = Array(text.utf8)
        let found = JSONParser.stringBytes(atPath: path, in: bytes)
        #expect(found?.bytes == expected.map { Array($0.utf8) }, "\(text)")
        if let found {
            #expect(try JSONParser.parse(Array(bytes[found.literal])) == .string(try #require(expected)))
        }
    }
}
