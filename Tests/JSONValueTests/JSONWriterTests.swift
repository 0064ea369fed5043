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
            var writer = JSONWriter()
            writer.writeString(string)
            #expect(writer.bytes == Array(expected.utf8), "\(string.debugDescription)")
            checkEncodes(.string(string), expected)
        }
    }

    @Test func integerArrayFastPathsMatchTheGenericPath() {
        var generator = SplitMix64(seed: 0x5EED)
        var samples: [UInt32] = [0, 1, 9, 10, 99, 100, 4_294_967_295, 1_000_000_000, 999_999_999]
        for _ in 0..<2_000 {
            let digits = Int(generator.next() % 10) + 1
            var limit: UInt64 = 1
            for _ in 0..<digits { limit *= 10 }
            samples.append(UInt32(truncatingIfNeeded: generator.next() % min(limit, 1 << 32)))
        }
        var fast = JSONWriter()
        fast.writeIntegerArray(samples)
        var generic = JSONWriter()
        generic.write(.array(samples.map { .integer(Int($0)) }))
        #expect(fast.bytes == generic.bytes)

        let signed = [0, -1, 1, Int.min, Int.max, -1_234_567_890_123] + samples.map { -Int($0) }
        var fastSigned = JSONWriter()
        fastSigned.writeIntegerArray(signed)
        var genericSigned = JSONWriter()
        genericSigned.write(.array(signed.map { .integer($0) }))
        #expect(fastSigned.bytes == genericSigned.bytes)

        var empty = JSONWriter()
        empty.writeIntegerArray([UInt32]())
        #expect(empty.bytes == Array("[]".utf8))
        var range = JSONWriter()
        range.writeIntegerArray(8..<12)
        #expect(range.bytes == Array("[8,9,10,11]".utf8))
    }

    @Test func streamingContainersInsertCommas() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.writeKey("jsonrpc")
        writer.writeString("2.0")
        writer.writeKey("id")
        writer.writeInteger(1)
        writer.writeKey("result")
        writer.beginObject()
        writer.writeKey("data")
        writer.writeIntegerArray([UInt32]([0, 5, 4, 1, 0]))
        writer.writeKey("more")
        writer.beginArray()
        writer.writeNull()
        writer.writeBool(true)
        writer.writeDouble(0.5)
        writer.write(["k": "v"])
        writer.beginArray()
        writer.endArray()
        writer.endArray()
        writer.endObject()
        writer.endObject()
        let expected = #"{"jsonrpc":"2.0","id":1,"result":{"data":[0,5,4,1,0],"more":[null,true,0.5,{"k":"v"},[]]}}"#
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
        #expect(writer.takeBytes() == Array(expected.utf8))
        #expect(writer.bytes.isEmpty)
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

