import Seeded
import Testing

@testable import JSONValue

/// Mutated JSON texts: whatever the bytes, the parser must return a value or an error with
/// an offset inside the input, never trap; and whatever it accepts must survive a round trip.
@Suite struct JSONParserFuzzTests {
    static let seeds: [String] = [
        #"{"rules": [{"pattern": "TODO", "style": "warning"}, {"words": ["é", "中文", "👍"]}], "n": -12.5e3}"#,
        #"[1, 2.0, -0, "a\nb\u00e9\ud83d\udc4d", true, false, null, {}, [], {"a": {"b": [[]]}}]"#,
        "// comment\n{\"a\": 1, /* block */ \"b\": [1, 2, ], }\r\n",
        #""\\\"\/\b\f\n\r\t""#,
    ]

    @Test(arguments: [101, 102, 103, 104, 105, 106] as [UInt64])
    func mutatedInputsNeverTrap(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let interesting: [UInt8] = [
            0x22, 0x5C, 0x2F, 0x2A, 0x2C, 0x3A, 0x5B, 0x5D, 0x7B, 0x7D, 0x0A, 0x0D, 0x00, 0x1F, 0x75, 0x30, 0x2D,
            0x65, 0x2E, 0xC3, 0xA9, 0xED, 0xA0, 0xF0, 0x9F, 0xFF, 0x80,
        ]
        for iteration in 0..<400 {
            var bytes = Array(Self.seeds[Int(generator.next() % UInt64(Self.seeds.count))].utf8)
            for _ in 0..<Int(generator.next() % 4 + 1) {
                let position = Int(generator.next() % UInt64(bytes.count + 1))
                let byte = interesting[Int(generator.next() % UInt64(interesting.count))]
                switch generator.next() % 4 {
                case 0 where position < bytes.count: bytes[position] = byte
                case 1: bytes.insert(byte, at: position)
                case 2 where position < bytes.count: bytes.remove(at: position)
                default: bytes.removeSubrange(position...)
                }
            }
            for options in [JSONParseOptions.strict, .lenient, JSONParseOptions(maximumDepth: 2)] {
                do {
                    let (value, map) = try JSONParser.parseWithLocations(bytes, options: options)
                    #expect(try JSONParser.parse(bytes, options: options) == value)
                    // Integral doubles come back as integers, so compare the written forms.
                    #expect(try JSONParser.parse(value.encoded()).encoded() == value.encoded(),
                        "seed \(seed), iteration \(iteration)")
                    #expect(map.utf8Offset(ofValueAt: []).map { (0..<bytes.count).contains($0) } == true)
                } catch {
                    #expect((0...bytes.count).contains(error.utf8Offset), "seed \(seed), iteration \(iteration): \(error)")
                    #expect(error.line >= 1 && error.column >= 1)
                }
            }
        }
    }

    /// Strings whose escapes, non-ASCII and bad bytes fall anywhere in the thirty-two-byte steps of
    /// the AVX2 scan: with and without it, the same string or the same error at the same offset,
    /// and valid ones decode to what was written.
    @Test func stringsDecodeTheSameWithAndWithoutAVX2() {
        var generator = SplitMix64(seed: 0x53_54_52)
        // The first ten often (a document's text: long runs and one-letter escapes), the rest now and then.
        let pieces: [(raw: String, decoded: String?)] = [
            ("a", "a"), ("abcdefghijklmnopqrstuvwxyz0123456789", "abcdefghijklmnopqrstuvwxyz0123456789"),
            (#"\n"#, "\n"), (#"\""#, "\""), (#"\\"#, "\\"), (#"\t"#, "\t"), (#"\/"#, "/"), (#"\b"#, "\u{08}"),
            (#"\f"#, "\u{0C}"), (#"\r"#, "\r"),
            (#"\u00e9"#, "é"), (#"\ud83d\ude00"#, "😀"),
            (#"\ud83d"#, "\u{FFFD}"), ("é", "é"), ("中", "中"), ("\u{01}", nil), (#"\x"#, nil), (#"\u12"#, nil),
        ]
        for _ in 0..<1_500 {
            var raw = ""
            var decoded: String? = ""
            for _ in 0..<generator.next(below: 40) {
                let piece = pieces[generator.next(below: generator.next(below: 6) == 0 ? pieces.count : 10)]
                raw += piece.raw
                decoded = decoded.flatMap { text in piece.decoded.map { text + $0 } }
            }
            var bytes = Array(("[\"" + raw + "\", 1]").utf8)
            // Now and then a stray byte that is not UTF-8, or a string that never closes.
            if generator.next(below: 10) == 0 {
                bytes[1 + generator.next(below: bytes.count - 5)] = 0xFF
                decoded = nil
            }
            if generator.next(below: 20) == 0 {
                bytes = Array(bytes.prefix(bytes.count - 5))
                decoded = nil
            }
            var outcomes: [String] = []
            for usesAVX2 in [false, true] {
                do {
                    let value = try JSONParser.parse(bytes, options: JSONParseOptions(usesAVX2: usesAVX2))
                    outcomes.append("value \(value)")
                    if let decoded { #expect(value == .array([.string(decoded), .integer(1)])) }
                } catch {
                    outcomes.append("error \(error.message) at \(error.utf8Offset)")
                }
            }
            #expect(outcomes[0] == outcomes[1], "\(bytes)")
            if decoded != nil { #expect(outcomes[0].hasPrefix("value")) }
            // The same string found by path, as bytes in one pass and as a `String`.
            let member = Array(#"{"s":"#.utf8) + bytes[1...] + Array("}".utf8)
            let found = JSONParser.stringBytes(atPath: ["s"], in: member)
            #expect(found?.bytes == JSONParser.string(atPath: ["s"], in: member).map { Array($0.utf8) }, "\(member)")
            if let decoded { #expect(found?.bytes == Array(decoded.utf8)) }
            // Far enough from the start that the decoding in place is vectorized too.
            let far = Array(#"{"padding":"01234567890123456789012345678901234567890123456789012345678901234567890123456789","s":"#.utf8) + bytes[1...] + Array("}".utf8)
            #expect(JSONParser.stringBytes(atPath: ["s"], in: far)?.bytes == found?.bytes, "\(far)")
            // Taken or not, the text keeps its meaning: the same value, or the same error, whole again.
            for text in [member, far] {
                func outcome(_ bytes: [UInt8]) -> String {
                    do { return "value \(try JSONParser.parse(bytes))" } catch { return "error \(error.message)" }
                }
                switch JSONParser.takeString(atPath: ["s"], from: text) {
                case .taken(let string, let rest, let literal):
                    #expect(outcome(TakenString.restored(bytes: string, rest: rest, literal: literal)) == outcome(text), "\(text)")
                    #expect(outcome(rest) == outcome(Array(text[..<literal.lowerBound]) + Array("null".utf8) + text[literal.upperBound...]))
                case .notTaken(let untaken):
                    #expect(found == nil)
                    #expect(outcome(untaken) == outcome(text), "\(text)")
                }
            }
        }
    }
}
