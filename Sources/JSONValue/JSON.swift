/// A JSON value as read from or written to the wire or a config file.
///
/// Integral numbers that fit in `Int` are kept as `.integer`; every other number the parser reads
/// is kept as its exact text (`.number`), so that request ids such as `12345678901234567890123`
/// or `-9223372036854775809` are written back exactly as they came. `.double` is for numbers the
/// program computes.
public enum JSON: Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    case double(Double)
    /// A number as written in a JSON text (RFC 8259 grammar), kept verbatim: the parser's form of
    /// every number that is not an integer within `Int`, and of `-0`. The writer copies it as it is (and
    /// writes `null` for text that is not a JSON number).
    case number(String)
    case string(String)
    case array([JSON])
    /// An array of integers kept as one `[Int]`: the form in which a large array of numbers, such as a
    /// document's semantic tokens, is built (8 bytes an element; an `.array` of `.integer`s takes 24). The
    /// same value as that `.array`: equal to it, hashed and written as it. The parser never makes it.
    case integers([Int])
    case object([String: JSON])
}

extension JSON: Hashable {
    /// Structural equality, but for `.integers`, which equals the `.array` of its `.integer`s.
    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let left), .bool(let right)): return left == right
        case (.integer(let left), .integer(let right)): return left == right
        case (.double(let left), .double(let right)): return left == right
        case (.number(let left), .number(let right)): return left == right
        case (.string(let left), .string(let right)): return left == right
        case (.array(let left), .array(let right)): return left == right
        case (.integers(let left), .integers(let right)): return left == right
        case (.integers(let integers), .array(let elements)), (.array(let elements), .integers(let integers)):
            return integers.count == elements.count && zip(integers, elements).allSatisfy { .integer($0) == $1 }
        case (.object(let left), .object(let right)): return left == right
        default: return false
        }
    }

    /// As `==` says: `.integers` hashes as the `.array` of its `.integer`s.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(1); hasher.combine(value)
        case .integer(let value): hasher.combine(2); hasher.combine(value)
        case .double(let value): hasher.combine(3); hasher.combine(value)
        case .number(let text): hasher.combine(4); hasher.combine(text)
        case .string(let value): hasher.combine(5); hasher.combine(value)
        case .array(let elements): hasher.combine(6); hasher.combine(elements)
        case .integers(let integers):
            hasher.combine(6)
            hasher.combine(integers.count)
            for integer in integers { JSON.integer(integer).hash(into: &hasher) }
        case .object(let members): hasher.combine(7); hasher.combine(members)
        }
    }
}

extension JSON {
    /// The member `key` of an object, or `nil` for a missing key or a value that is not an object.
    public subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The string, or `nil` when the value is not a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, or `nil` when the value is not an integral number that fits in `Int`.
    public var integerValue: Int? {
        switch self {
        case .integer(let value): return value
        case .double(let value):
            return exactInteger(value)
        case .number(let text):
            // An integral literal is read exactly (`-0` is 0; one beyond `Int` is nil, so that
            // `-9223372036854775809` never turns into `Int.min`); a fraction or an exponent is read
            // as a double, trusted only where doubles are exact (|x| < 2^53).
            if let integer = Int(text) { return integer }
            guard text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
                  let value = Double(text), value.magnitude < 9_007_199_254_740_992 else { return nil }
            return exactInteger(value)
        default: return nil
        }
    }

    /// The number as a `Double`, or `nil` when the value is not a number.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .double(let value): return value
        case .number(let text): return Double(text)
        default: return nil
        }
    }

    /// The boolean, or `nil` when the value is not a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, or `nil` when the value is not an array.
    public var arrayValue: [JSON]? {
        switch self {
        case .array(let value): return value
        case .integers(let integers): return integers.map { .integer($0) }
        default: return nil
        }
    }

    /// The members, or `nil` when the value is not an object.
    public var objectValue: [String: JSON]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// `true` for `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// A short name of the value's type for error messages ("string", "object", ...).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer, .double, .number: return "number"
        case .string: return "string"
        case .array, .integers: return "array"
        case .object: return "object"
        }
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    /// A `.string` from a string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An `.integer` from an integer literal.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A `.bool` from `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A `.double` from a floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// An `.array` from an array literal.
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    /// `.null` from `nil`.
    public init(nilLiteral: ()) { self = .null }
    /// An `.object` from a dictionary literal; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSON)...) {
        var members: [String: JSON] = [:]
        for (key, value) in elements { members[key] = value }
        self = .object(members)
    }
}
