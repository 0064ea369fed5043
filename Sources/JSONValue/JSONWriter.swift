// A JSON writer that appends UTF-8 straight into a byte array.
//
// Output is compact (no spaces or line breaks) and deterministic: object keys are written in
// sorted order. Integers are converted to digits by hand, so writing the long integer arrays
// of semantic tokens costs no `String` per number. Every JSON the program writes, and every
// string it escapes for JSON, goes through here (`JSON.encoded()`, `jsonText`).

/// Writes JSON as UTF-8 bytes.
struct JSONWriter: Sendable {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []

    /// Writes a whole value.
    ///
    /// Object keys come out in sorted order; an integral double that fits in `Int` is written as
    /// an integer (`2.0` as `2`), NaN and infinities as `null` (JSON has no way to spell them),
    /// any other double in the shortest form that reads back as the same double; strings with the
    /// escapes JSON needs: `\"`, `\\`, the short forms `\b \f \n \r \t`, and `\u00XX` for the
    /// other control characters (everything else, non-ASCII text included, is copied as UTF-8).
    ///
    /// - Complexity: O(*n*) in the size of the value, plus sorting the keys of each object.
    mutating func write(_ json: JSON) {
        appendValue(json)
    }

    // MARK: Encoding

    private mutating func appendValue(_ json: JSON) {
        switch json {
        case .null: appendStaticText("null")
        case .bool(let value): appendStaticText(value ? "true" : "false")
        case .integer(let value): appendInteger(value)
        case .double(let value): appendDouble(value)
        case .number(let text): appendNumberText(text)
        case .string(let value): appendString(value)
        case .array(let elements):
            bytes.append(ASCII.openBracket)
            var isFirst = true
            for element in elements {
                if !isFirst { bytes.append(ASCII.comma) }
                isFirst = false
                appendValue(element)
            }
            bytes.append(ASCII.closeBracket)
        case .integers(let integers):
            bytes.append(ASCII.openBracket)
            for (index, integer) in integers.enumerated() {
                if index > 0 { bytes.append(ASCII.comma) }
                appendInteger(integer)
            }
            bytes.append(ASCII.closeBracket)
        case .object(let members):
            bytes.append(ASCII.openBrace)
            var isFirst = true
            for key in members.keys.sorted() {
                guard let value = members[key] else { continue }
                if !isFirst { bytes.append(ASCII.comma) }
                isFirst = false
                appendString(key)
                bytes.append(ASCII.colon)
                appendValue(value)
            }
            bytes.append(ASCII.closeBrace)
        }
    }

    private mutating func appendStaticText(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func appendInteger(_ value: Int) {
        if value < 0 { bytes.append(ASCII.minus) }
        // `magnitude` is exact even for `Int.min`.
        appendDigits(of: value.magnitude)
    }

    /// Appends the decimal digits of `value`, most significant first.
    ///
    /// Values below 1000 (most semantic-token numbers) are appended digit by digit; larger
    /// ones are converted into a small buffer on the stack and appended in one go.
    @inline(__always)
    private mutating func appendDigits(of value: UInt) {
        if value < 10 {
            bytes.append(ASCII.zero &+ UInt8(truncatingIfNeeded: value))
        } else if value < 100 {
            let (tens, ones) = value.quotientAndRemainder(dividingBy: 10)
            bytes.append(ASCII.zero &+ UInt8(truncatingIfNeeded: tens))
            bytes.append(ASCII.zero &+ UInt8(truncatingIfNeeded: ones))
        } else if value < 1000 {
            let (hundreds, rest) = value.quotientAndRemainder(dividingBy: 100)
            let (tens, ones) = rest.quotientAndRemainder(dividingBy: 10)
            bytes.append(ASCII.zero &+ UInt8(truncatingIfNeeded: hundreds))
            bytes.append(ASCII.zero &+ UInt8(truncatingIfNeeded: tens))
            bytes.append(ASCII.zero &+ UInt8(truncatingIfNeeded: ones))
        } else {
            appendManyDigits(of: value)
        }
    }

    /// The general case of `appendDigits(of:)`: up to 20 digits.
    private mutating func appendManyDigits(of value: UInt) {
        // 24 bytes of scratch on the stack; `UInt.max` has 20 digits.
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { digits in
            var remaining = value
            var index = digits.count
            repeat {
                let (quotient, digit) = remaining.quotientAndRemainder(dividingBy: 10)
                index -= 1
                digits[index] = ASCII.zero &+ UInt8(truncatingIfNeeded: digit)
                remaining = quotient
            } while remaining > 0 && index > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: digits[index...]))
        }
    }

    private mutating func appendDouble(_ value: Double) {
        guard value.isFinite else {
            appendStaticText("null")
            return
        }
        if let integer = exactInteger(value) {
            appendInteger(integer)
            return
        }
        // Swift's description is the shortest text that reads back as the same double, and
        // for finite values it is valid JSON ("0.1", "1e-07", "1.5e+300").
        bytes.append(contentsOf: value.description.utf8)
    }

    /// Appends number text as it is when it is a JSON number, else `null`, so that the output
    /// stays JSON whatever a caller put in a `.number`.
    private mutating func appendNumberText(_ text: String) {
        if isJSONNumberText(text.utf8) {
            bytes.append(contentsOf: text.utf8)
        } else {
            appendStaticText("null")
        }
    }

    private mutating func appendString(_ string: String) {
        var string = string
        string.withUTF8 { appendEscaped(utf8: $0) }
    }

    /// `utf8` as a JSON string literal, its bytes at or above 0x80 as they are (so invalid UTF-8 stays invalid);
    /// without the closing quote when not `closed`.
    static func escaped(_ utf8: [UInt8], closed: Bool) -> [UInt8] {
        var writer = JSONWriter()
        utf8.withUnsafeBufferPointer { writer.appendEscaped(utf8: $0, closed: closed) }
        return writer.bytes
    }

    /// Appends `utf8` between quotes (without the closing one when not `closed`), copying runs that need no escape in
    /// one go.
    private mutating func appendEscaped(utf8: UnsafeBufferPointer<UInt8>, closed: Bool = true) {
        bytes.reserveCapacity(bytes.count + utf8.count + 2)
        bytes.append(ASCII.quote)
        var runStart = 0
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte >= 0x20, byte != ASCII.quote, byte != ASCII.backslash {
                index += 1
                continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            bytes.append(ASCII.backslash)
            switch byte {
            case ASCII.quote: bytes.append(ASCII.quote)
            case ASCII.backslash: bytes.append(ASCII.backslash)
            case 0x08: bytes.append(ASCII.lowercaseB)
            case 0x0C: bytes.append(ASCII.lowercaseF)
            case ASCII.lineFeed: bytes.append(ASCII.lowercaseN)
            case ASCII.carriageReturn: bytes.append(ASCII.lowercaseR)
            case ASCII.tab: bytes.append(ASCII.lowercaseT)
            default:
                let hexDigits: StaticString = "0123456789abcdef"
                hexDigits.withUTF8Buffer { hex in
                    bytes.append(contentsOf: [
                        ASCII.lowercaseU, ASCII.zero, ASCII.zero,
                        hex[Int(byte >> 4)], hex[Int(byte & 0x0F)],
                    ])
                }
            }
            index += 1
            runStart = index
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        if closed { bytes.append(ASCII.quote) }
    }
}

extension JSON: CustomStringConvertible {
    /// The value as compact UTF-8 JSON with sorted object keys.
    ///
    /// - Complexity: O(*n*) in the size of the value, plus sorting the keys of each object.
    public func encoded() -> [UInt8] {
        var writer = JSONWriter()
        writer.write(self)
        return writer.bytes
    }

    /// The value as compact JSON text with sorted object keys.
    public var jsonText: String {
        String(decoding: encoded(), as: UTF8.self)
    }

    /// The compact JSON text of the value.
    public var description: String { jsonText }
}

/// Whether `text` is a number by RFC 8259's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
func isJSONNumberText(_ text: String.UTF8View) -> Bool {
    var bytes = text.makeIterator()
    var next = bytes.next()
    func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 &- UInt8(ascii: "0") < 10 } ?? false }
    if next == UInt8(ascii: "-") { next = bytes.next() }
    guard isDigit(next) else { return false }
    if next == UInt8(ascii: "0") {
        next = bytes.next()
    } else {
        while isDigit(next) { next = bytes.next() }
    }
    if next == UInt8(ascii: ".") {
        next = bytes.next()
        guard isDigit(next) else { return false }
        while isDigit(next) { next = bytes.next() }
    }
    if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
        next = bytes.next()
        if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { next = bytes.next() }
        guard isDigit(next) else { return false }
        while isDigit(next) { next = bytes.next() }
    }
    return next == nil
}
