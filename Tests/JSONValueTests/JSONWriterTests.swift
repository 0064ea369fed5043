import Seeded
import Testing

@testable import JSONValue

/// Expects `value` to encode to exactly `expected`.
private func checkEncodes(_ value: JSON, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(value.jsonText == expected, sourceLocation: sourceLocation)
    #expect(value.encoded() == Array(expected.utf8), sourceLocation: sourceLocation)
}

@Suite struct JSONWriterTests {
    @Test func values() {
        let table: [(JSON, String)] = [
            (nil, "null"),
            (true, "true"),
            (false, "false"),
            (0, "0"),
            (7, "7"),
            (-7, "-7"),
            (10, "10"),
            (1_000_000, "1000000"),
            (.integer(Int.max), "9223372036854775807"),
            (.integer(Int.min), "-9223372036854775808"),
            (1.5, "1.5"),
            (-0.1, "-0.1"),
            (2.0, "2"),
            (-0.0, "0"),
            (1e20, "1e+20"),
            (1e-7, "1e-07"),
            (.double(9_223_372_036_854_775_808), "9.223372036854776e+18"),
            (.double(-9_223_372_036_854_775_808), "-9223372036854775808"),
            (.double(.nan), "null"),
            (.double(.infinity), "null"),
            (.double(-.infinity), "null"),
            // Number text is copied exactly; text that is not a JSON number is written as null.
            (.number("12345678901234567890123"), "12345678901234567890123"),
            (.number("-9223372036854775809"), "-9223372036854775809"),
            (.number("2.50"), "2.50"),
            (.number("-0"), "-0"),
            (.number("1E+3"), "1E+3"),
            (.number(""), "null"),
            (.number("01"), "null"),
            (.number("1."), "null"),
            (.number("+1"), "null"),
            (.number("1e"), "null"),
            (.number("NaN"), "null"),
            (.number("1 "), "null"),
            ("", "\"\""),
            ([], "[]"),
            ([:], "{}"),
            ([1, "a", [nil]], "[1,\"a\",[null]]"),
            (["b": 1, "a": [true], "c": ["z": 0, "y": 1]], "{\"a\":[true],\"b\":1,\"c\":{\"y\":1,\"z\":0}}"),
        ]
        for (value, expected) in table { checkEncodes(value, expected) }
    }

    @Test func stringEscaping() {
        let table: [(String, String)] = [
            ("plain", #""plain""#),
            ("quote \" backslash \\ slash /", #""quote \" backslash \\ slash /""#),
            ("\n\r\t\u{8}\u{C}", #""\n\r\t\b\f""#),
            ("\u{0}\u{1}\u{1F}\u{7F}", #""\u0000\u0001\u001f"# + "\u{7F}\""),
            ("é中👍 e\u{301} 👨‍👩‍👧", "\"é中👍 e\u{301} 👨‍👩‍👧\""),
            ("\u{2028}\u{2029}", "\"\u{2028}\u{2029}\""),
            ("end\\", #""end\\""#),
            ("\"", #""\"""#),
        ]
        for (string, expected) in table {
            #expect(JSON.string(string).encoded() == Array(expected.utf8), "\(string.debugDescription)")
            checkEncodes(.string(string), expected)
        }
    }

    @Test func integersOfEveryLengthAndSign() {
        var generator = SplitMix64(seed: 0x5EED)
        var samples = [0, 1, 9, 10, 99, 100, 999, 1_000, 4_294_967_295, Int.min, Int.max, -1_234_567_890_123]
        for _ in 0..<2_000 {
            let digits = Int(generator.next() % 19) + 1
            var limit: UInt64 = 1
            for _ in 0..<digits { limit *= 10 }
            let value = Int(truncatingIfNeeded: generator.next() % limit)
            samples.append(generator.next() % 2 == 0 ? value : -value)
        }
        let text = String(decoding: JSON.array(samples.map { .integer($0) }).encoded(), as: UTF8.self)
        #expect(text == "[" + samples.map(String.init).joined(separator: ",") + "]")
        checkEncodes([], "[]")
    }

    /// `.integers` is the `.array` of its `.integer`s in every way a caller can see: written the same, equal, hashed
    /// the same, read back by `arrayValue`, and parsed back as that `.array`.
    @Test func integersAreTheArrayOfTheirIntegers() throws {
        for integers in [[], [0], [3, -1, 0, Int.max, Int.min, 42]] {
            let array = JSON.array(integers.map { .integer($0) })
            let compact = JSON.integers(integers)
            #expect(compact.encoded() == array.encoded())
            #expect(compact == array && array == compact)
            #expect(compact.hashValue == array.hashValue)
            #expect(Set([compact, array]).count == 1)
            #expect(compact.arrayValue == array.arrayValue)
            #expect(try JSONParser.parse(compact.encoded()) == array)
        }
        #expect(JSON.integers([1, 2]) != JSON.array([.integer(1), .double(2)]))
        #expect(JSON.integers([1, 2]) != JSON.array([.integer(1)]))
        checkEncodes(["data": .integers([0, 5, 3, 1, 0])], #"{"data":[0,5,3,1,0]}"#)
    }

    @Test func roundTripsThroughTheParser() throws {
        var generator = SplitMix64(seed: 20_261_121)
        for iteration in 0..<300 {
            let value = randomJSON(using: &generator, depth: 0)
            let parsed = try JSONParser.parse(value.encoded())
            #expect(parsed == value, "iteration \(iteration), seed 20261121: \(value)")
            #expect(parsed.encoded() == value.encoded())
        }
    }
}

/// A random value; its numbers that are not integers are number text (as the parser gives them),
/// written from doubles that are never integral (those are written as integers on purpose).
private func randomJSON(using generator: inout SplitMix64, depth: Int) -> JSON {
    let choice = generator.next() % (depth > 4 ? 5 : 7)
    switch choice {
    case 0: return .null
    case 1: return .bool(generator.next() & 1 == 0)
    case 2: return .integer(Int(truncatingIfNeeded: generator.next()) >> Int(generator.next() % 64))
    case 3:
        let value = Double(bitPattern: generator.next())
        if !value.isFinite || exactInteger(value) != nil { return .number("0.5") }
        return .number(value.description)
    case 4: return .string(randomString(using: &generator))
    case 5:
        return .array((0..<Int(generator.next() % 5)).map { _ in randomJSON(using: &generator, depth: depth + 1) })
    default:
        var members: [String: JSON] = [:]
        for _ in 0..<Int(generator.next() % 5) {
            members[randomString(using: &generator)] = randomJSON(using: &generator, depth: depth + 1)
        }
        return .object(members)
    }
}

private func randomString(using generator: inout SplitMix64) -> String {
    let pieces = [
        "a", "Z", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "e\u{301}", "中", "👍",
        "👨‍👩‍👧", "\u{FFFD}", "\u{10FFFF}",
    ]
    var result = ""
    for _ in 0..<Int(generator.next() % 8) {
        result += pieces[Int(generator.next() % UInt64(pieces.count))]
    }
    return result
}

