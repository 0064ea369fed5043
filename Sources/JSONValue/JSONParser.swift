import CPUFeatures

/// Options for `JSONParser`.
///
/// Both option sets accept a leading UTF-8 byte order mark, which RFC 8259 lets a parser ignore.
public struct JSONParseOptions: Sendable {
    /// Accept `//` and `/* */` comments.
    var allowsComments: Bool
    /// Accept a trailing comma before `]` and `}`.
    var allowsTrailingCommas: Bool
    /// Nesting deeper than this is a syntax error.
    ///
    /// The parser itself never recurses, but destroying, comparing or writing a `JSON` value
    /// recurses through its nesting, so this limit is what keeps those safe too.
    var maximumDepth: Int
    /// Look for the end of a string's plain bytes with `VectorKernels`' AVX2 loop (tests turn it off).
    var usesAVX2: Bool

    /// Options with each relaxation chosen separately.
    init(
        allowsComments: Bool = false, allowsTrailingCommas: Bool = false, maximumDepth: Int = 512,
        usesAVX2: Bool = VectorUnit.hasAVX2
    ) {
        self.allowsComments = allowsComments
        self.allowsTrailingCommas = allowsTrailingCommas
        self.maximumDepth = maximumDepth
        self.usesAVX2 = usesAVX2
    }

    /// RFC 8259 JSON, as on the wire.
    public static let strict = JSONParseOptions()
    /// JSON with comments and trailing commas, as in config files.
    public static let lenient = JSONParseOptions(allowsComments: true, allowsTrailingCommas: true)
}

/// Parses JSON texts (RFC 8259) from UTF-8 bytes, without Foundation.
///
/// - Numbers: an integral literal (no fraction or exponent) that fits in `Int` becomes
///   `.integer`; any other number becomes `.number` with its text exactly as written, so a
///   23-digit integer or `2.50` is written back unchanged (`doubleValue` reads it as a double).
/// - Strings: invalid UTF-8 and unescaped control characters are errors. A `\u` escape of a
///   lone UTF-16 surrogate decodes to U+FFFD; an escaped surrogate pair decodes to its scalar.
/// - Objects: when a key repeats, the last member wins.
/// - Nesting deeper than `JSONParseOptions.maximumDepth` is an error; the parser does not
///   recurse, so no input can exhaust the stack.
/// - Anything after the value other than whitespace (and comments, when allowed) is an error.
public enum JSONParser {
    /// Parses one JSON text from UTF-8 bytes.
    ///
    /// - Complexity: O(*n*) in the length of `bytes`.
    public static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, options: JSONParseOptions = .strict
    ) throws(JSONSyntaxError) -> JSON {
        var parser = JSONByteParser(bytes: bytes, options: options, recordsLocations: false)
        return try parser.parseDocument()
    }

    /// Parses one JSON text from UTF-8 bytes.
    ///
    /// - Complexity: O(*n*) in the length of `bytes`.
    public static func parse(_ bytes: [UInt8], options: JSONParseOptions = .strict) throws(JSONSyntaxError) -> JSON {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONSyntaxError) -> JSON in try parse(buffer, options: options) }
        }
        return try result.get()
    }

    /// Parses one JSON text from a string.
    ///
    /// - Complexity: O(*n*) in the UTF-8 length of `text`.
    public static func parse(_ text: String, options: JSONParseOptions = .strict) throws(JSONSyntaxError) -> JSON {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONSyntaxError) -> JSON in try parse(buffer, options: options) }
        }
        return try result.get()
    }

    /// The string at `path` (object keys from the root) of a JSON text, found without parsing the
    /// rest (`["params", "textDocument", "uri"]` of a 50 MB `didOpen`); nil when there is none.
    ///
    /// - Complexity: O(*n*) in the bytes before the string, skimmed a word at a time.
    public static func string(atPath path: [String], in bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONByteParser(bytes: buffer, options: .strict, recordsLocations: false)
            return parser.string(atPath: path[...])
        }
    }

    /// Takes the string at `path` out of the JSON text `bytes`, found as `string(atPath:in:)` finds it, decoded in the
    /// text's own storage: a large document's text becomes bytes that never were a `String`, with no second buffer of
    /// its size (pass the only reference to `bytes`, or they are copied first). When there is no such string, or it
    /// is not a whole string of valid escapes and UTF-8, the text comes back untaken, with the same meaning.
    ///
    /// - Complexity: O(*n*) in the bytes up to the string's end, plus a copy of those after it (the `rest`).
    public static func takeString(atPath path: [String], from bytes: consuming [UInt8]) -> TakenString {
        JSONByteParser.takeString(atPath: path[...], from: bytes, usesAVX2: JSONParseOptions.strict.usesAVX2)
    }

    /// The string at `path` as UTF-8 bytes, and the range of its literal: `takeString(atPath:from:)` of a copy of
    /// `bytes`.
    public static func stringBytes(atPath path: [String], in bytes: [UInt8]) -> (bytes: [UInt8], literal: Range<Int>)? {
        guard case .taken(let string, _, let literal) = takeString(atPath: path, from: bytes) else { return nil }
        return (string, literal)
    }

    /// Parses one JSON text and records where each value and key starts, for error messages
    /// that point into the text.
    ///
    /// - Complexity: O(*n*) in the length of `bytes`.
    public static func parseWithLocations(
        _ bytes: [UInt8], options: JSONParseOptions = .strict
    ) throws(JSONSyntaxError) -> (JSON, JSONSourceMap) {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONSyntaxError) -> (JSON, [JSONSourceMap.Node]) in
                var parser = JSONByteParser(bytes: buffer, options: options, recordsLocations: true)
                let value = try parser.parseDocument()
                return (value, parser.sourceNodes ?? [])
            }
        }
        let (value, nodes) = try result.get()
        return (value, JSONSourceMap(nodes: nodes, utf8: bytes))
    }
}

/// A string taken out of a JSON text (`JSONParser.takeString(atPath:from:)`).
public enum TakenString: Sendable {
    /// The string's bytes (in the text's storage), the text with `null` in the string's place, and where the string's
    /// literal was in the text.
    case taken(bytes: [UInt8], rest: [UInt8], literal: Range<Int>)
    /// No string to take: the text, as it came or with the same meaning.
    case notTaken([UInt8])

    /// The text whole again, with the same meaning as the one the string was taken from (the string written as a
    /// literal of its own, where `null` stands in `rest`).
    public static func restored(bytes: [UInt8], rest: [UInt8], literal: Range<Int>) -> [UInt8] {
        Array(rest[..<literal.lowerBound]) + JSONWriter.escaped(bytes, closed: true) + rest[(literal.lowerBound + 4)...]
    }
}
