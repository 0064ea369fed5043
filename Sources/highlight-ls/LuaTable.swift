// A reader for the part of Lua that plugin settings are written in: table constructors holding
// strings ('…', "…", [[…]], [==[…]==]), numbers, booleans, nil and tables, with `--` and
// `--[[ ]]` comments between them. Anything else in a value's place (a variable, a function call,
// `function … end`, an operator) is kept as its text, so that the import can name it as something
// it cannot carry over, at its place; the reader skips it to the next `,`, `;` or `}` outside
// brackets and `function`/`if`/`do` … `end` blocks.

/// A value of a Lua table constructor, with where it starts.
struct LuaNode {
    /// What a value is.
    indirect enum Value {
        case string(String)
        case number(String)
        case boolean(Bool)
        case `nil`
        case table(LuaTable)
        /// An expression the reader does not evaluate, as written.
        case expression(String)
    }

    var value: Value
    /// The UTF-8 offset of the value's first byte in the file.
    var utf8Offset: Int

    var stringValue: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    var tableValue: LuaTable? {
        if case .table(let table) = value { return table }
        return nil
    }

    var boolValue: Bool? {
        if case .boolean(let flag) = value { return flag }
        return nil
    }
}

/// A table constructor: its fields in the order written.
struct LuaTable {
    /// A field: `name = v`, `["key"] = v` (both a `key`), or `v` (positional).
    struct Field {
        var key: String?
        var keyUTF8Offset: Int
        var value: LuaNode
    }

    var fields: [Field] = []

    /// The value of the field `key` (the last one written, as Lua keeps it).
    subscript(key: String) -> LuaNode? {
        fields.last { $0.key == key }?.value
    }

    /// The positional values, in order.
    var elements: [LuaNode] {
        fields.filter { $0.key == nil }.map(\.value)
    }
}

/// Why a Lua text could not be read, and where.
struct LuaSyntaxError: Error {
    var utf8Offset: Int
    var message: String
}

/// Reads table constructors from Lua source bytes.
struct LuaReader {
    let bytes: [UInt8]
    var index: Int
    /// How deep the table being read is nested; reading recurses, so nesting is bounded.
    var depth = 0
    static let maximumDepth = 256

    /// A reader of `bytes` that starts at `utf8Offset`.
    init(bytes: [UInt8], at utf8Offset: Int) {
        self.bytes = bytes
        index = utf8Offset
    }

    /// The byte `ahead` places after `index`, if there is one.
    func byte(_ ahead: Int = 0) -> UInt8? {
        index + ahead < bytes.count ? bytes[index + ahead] : nil
    }

    /// Skips spaces and comments.
    mutating func skipTrivia() {
        while let current = byte() {
            if current == 0x20 || current == 0x09 || current == 0x0A || current == 0x0D {
                index += 1
            } else if current == UInt8(ascii: "-"), byte(1) == UInt8(ascii: "-") {
                index += 2
                if let level = longBracketLevel() {
                    _ = longBracketBody(level: level)
                } else {
                    while let next = byte(), next != 0x0A { index += 1 }
                }
            } else {
                return
            }
        }
    }

    /// The level of a long bracket (`[[` is 0, `[==[` is 2) opening at `index`, or nil.
    func longBracketLevel() -> Int? {
        guard byte() == UInt8(ascii: "[") else { return nil }
        var level = 0
        while byte(1 + level) == UInt8(ascii: "=") { level += 1 }
        return byte(1 + level) == UInt8(ascii: "[") ? level : nil
    }

    /// The text of a long bracket opening at `index`, consumed; nil when it is not closed.
    mutating func longBracketBody(level: Int) -> String? {
        index += level + 2
        // A line break right after the opening bracket is not part of the string.
        if byte() == 0x0D { index += 1 }
        if byte() == 0x0A { index += 1 }
        let start = index
        let closing = [UInt8(ascii: "]")] + Array(repeating: UInt8(ascii: "="), count: level) + [UInt8(ascii: "]")]
        while index + closing.count <= bytes.count {
            if bytes[index..<(index + closing.count)].elementsEqual(closing) {
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                index += closing.count
                return text
            }
            index += 1
        }
        index = bytes.count
        return nil
    }

    /// A table constructor at `index` (after trivia).
    mutating func readTable() throws(LuaSyntaxError) -> LuaTable {
        skipTrivia()
        guard depth < Self.maximumDepth else {
            throw LuaSyntaxError(utf8Offset: index, message: "tables are nested more than \(Self.maximumDepth) deep")
        }
        depth += 1
        defer { depth -= 1 }
        guard byte() == UInt8(ascii: "{") else { throw LuaSyntaxError(utf8Offset: index, message: "expected a table {") }
        index += 1
        var table = LuaTable()
        while true {
            skipTrivia()
            guard let current = byte() else { throw LuaSyntaxError(utf8Offset: index, message: "the table is not closed") }
            if current == UInt8(ascii: "}") {
                index += 1
                return table
            }
            let fieldStart = index
            var key: String?
            if current == UInt8(ascii: "["), longBracketLevel() == nil {
                index += 1
                let keyNode = try readValue()
                skipTrivia()
                guard byte() == UInt8(ascii: "]") else { throw LuaSyntaxError(utf8Offset: index, message: "expected ] after a key") }
                index += 1
                skipTrivia()
                guard byte() == UInt8(ascii: "=") else { throw LuaSyntaxError(utf8Offset: index, message: "expected = after [key]") }
                index += 1
                switch keyNode.value {
                case .string(let text), .number(let text), .expression(let text): key = text
                default: key = nil
                }
            } else if let name = peekName(), afterNameIsAssignment(name) {
                index += name.utf8.count
                skipTrivia()
                index += 1  // The `=`.
                key = name
            }
            let value = try readValue()
            table.fields.append(LuaTable.Field(key: key, keyUTF8Offset: fieldStart, value: value))
            skipTrivia()
            if byte() == UInt8(ascii: ",") || byte() == UInt8(ascii: ";") { index += 1 }
        }
    }

    /// A name (identifier) at `index`, not consumed.
    func peekName() -> String? {
        guard let first = byte(), isNameStart(first) else { return nil }
        var end = index
        while end < bytes.count, isNameStart(bytes[end]) || (0x30...0x39).contains(bytes[end]) { end += 1 }
        return String(decoding: bytes[index..<end], as: UTF8.self)
    }

    /// Whether `byte` can start a Lua name: an ASCII letter or `_`.
    func isNameStart(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_")
    }

    /// Whether `name` at `index` is followed by `=` (and not `==`).
    func afterNameIsAssignment(_ name: String) -> Bool {
        var copy = self
        copy.index += name.utf8.count
        copy.skipTrivia()
        return copy.byte() == UInt8(ascii: "=") && copy.byte(1) != UInt8(ascii: "=")
    }

    /// One value: a literal, a table, or an expression kept as text.
    mutating func readValue() throws(LuaSyntaxError) -> LuaNode {
        skipTrivia()
        let start = index
        guard let current = byte() else { throw LuaSyntaxError(utf8Offset: index, message: "expected a value") }
        var value: LuaNode.Value
        if current == UInt8(ascii: "{") {
            value = .table(try readTable())
        } else if current == UInt8(ascii: "\"") || current == UInt8(ascii: "'") {
            value = .string(try readQuoted())
        } else if let level = longBracketLevel() {
            guard let text = longBracketBody(level: level) else { throw LuaSyntaxError(utf8Offset: start, message: "the long string is not closed") }
            value = .string(text)
        } else if (0x30...0x39).contains(current) || (current == UInt8(ascii: "-") && byte(1).map { (0x30...0x39).contains($0) } == true) {
            index += 1
            while let next = byte(), (0x30...0x39).contains(next) || isNameStart(next) || next == UInt8(ascii: ".") { index += 1 }
            value = .number(String(decoding: bytes[start..<index], as: UTF8.self))
        } else if let name = peekName(), ["true", "false", "nil"].contains(name) {
            index += name.utf8.count
            value = name == "nil" ? .nil : .boolean(name == "true")
        } else {
            value = .expression("")
        }
        // Whatever follows a value up to the end of its field (`.. "x"`, `(args)`, `.field`) makes it an expression.
        let end = skipExpressionRest()
        if end > index || value.isExpressionPlaceholder {
            index = end
            value = .expression(String(decoding: bytes[start..<end], as: UTF8.self).trimmingSpaces())
        }
        return LuaNode(value: value, utf8Offset: start)
    }

    /// The offset where the field that `index` is inside ends: the next `,`, `;` or `}` outside brackets, strings
    /// and blocks (trailing spaces and comments before it are not counted).
    func skipExpressionRest() -> Int {
        var copy = self
        copy.skipTrivia()
        var lastEnd = index
        var depth = 0
        var blocks = 0
        while let current = copy.byte() {
            if depth == 0, blocks == 0, [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "}")].contains(current) { break }
            switch current {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                _ = try? copy.readQuoted()
                lastEnd = copy.index
                copy.skipTrivia()
                continue
            default:
                if let name = copy.peekName() {
                    if ["function", "if", "do"].contains(name) { blocks += 1 }
                    if name == "end" { blocks -= 1 }
                    copy.index += name.utf8.count
                    lastEnd = copy.index
                    copy.skipTrivia()
                    continue
                }
            }
            copy.index += 1
            lastEnd = copy.index
            copy.skipTrivia()
        }
        return lastEnd
    }

    /// A string in `'` or `"` at `index`, with its escapes decoded.
    mutating func readQuoted() throws(LuaSyntaxError) -> String {
        let start = index
        let quote = bytes[index]
        index += 1
        var out: [UInt8] = []
        while let current = byte() {
            index += 1
            if current == quote { return String(decoding: out, as: UTF8.self) }
            if current == 0x0A { break }
            guard current == UInt8(ascii: "\\"), let escaped = byte() else {
                out.append(current)
                continue
            }
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "a"): out.append(0x07)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "v"): out.append(0x0B)
            case UInt8(ascii: "z"):
                while let next = byte(), next == 0x20 || next == 0x09 || next == 0x0A || next == 0x0D { index += 1 }
            case UInt8(ascii: "x"):
                if index + 2 <= bytes.count, let value = valueOfHexDigits(bytes[index..<(index + 2)].lazy.map(Unicode.Scalar.init)).flatMap(UInt8.init(exactly:)) {
                    out.append(value)
                    index += 2
                }
            case UInt8(ascii: "u"):
                if byte() == UInt8(ascii: "{"), let close = bytes[index...].firstIndex(of: UInt8(ascii: "}")),
                    let value = valueOfHexDigits(bytes[(index + 1)..<close].lazy.map(Unicode.Scalar.init)),
                    let scalar = Unicode.Scalar(value)
                {
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    index = close + 1
                }
            case 0x30...0x39:
                var value = Int(escaped - 0x30)
                var digits = 1
                while digits < 3, let next = byte(), (0x30...0x39).contains(next) {
                    value = value * 10 + Int(next - 0x30)
                    index += 1
                    digits += 1
                }
                out.append(UInt8(truncatingIfNeeded: value))
            default: out.append(escaped)
            }
        }
        throw LuaSyntaxError(utf8Offset: start, message: "the string is not closed")
    }
}

extension LuaNode.Value {
    /// Whether the reader found nothing it reads at the value's start, so the value is an expression whatever follows.
    var isExpressionPlaceholder: Bool {
        if case .expression(let text) = self { return text.isEmpty }
        return false
    }
}
