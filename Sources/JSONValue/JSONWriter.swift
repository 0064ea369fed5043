// A JSON writer that appends UTF-8 straight into a byte array.
//
// Output is compact (no spaces or line breaks) and deterministic: object keys are written in
// sorted order. Integers are converted to digits by hand, so writing the long integer arrays
// of semantic tokens costs no `String` per number.
//
// Besides whole `JSON` values the writer has a small streaming interface (`beginObject`,
// `writeKey`, `endObject`, ...) that inserts the commas itself, so a message can embed a
// fast-path array without first building a `JSON` tree.

/// Writes JSON as UTF-8 bytes.
public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []
    /// `true` once a container member has been written, so the next one needs a comma.
    private var needsSeparator = false
    /// The number of open containers of the streaming interface.
    private var openContainerCount = 0

    /// An empty writer.
    public init() {}

    /// An empty writer that reserves room for `capacity` bytes.
    public init(reservingCapacity capacity: Int) {
        bytes.reserveCapacity(max(capacity, 0))
    }

    /// Takes the written bytes, leaving the writer empty.
    public mutating func takeBytes() -> [UInt8] {
        let result = bytes
        self = JSONWriter()
        return result
    }

    // MARK: Values

    /// Writes a whole value.
    ///
    /// Object keys come out in sorted order; doubles are written as described at `writeDouble(_:)`.
    ///
    /// - Complexity: O(*n*) in the size of the value, plus sorting the keys of each object.
    public mutating func write(_ json: JSON) {
        writeSeparatorIfNeeded()
        appendValue(json)
        needsSeparator = true
    }

    /// Writes `null`.
    public mutating func writeNull() {
        writeSeparatorIfNeeded()
        appendStaticText("null")
        needsSeparator = true
    }

    /// Writes `true` or `false`.
    public mutating func writeBool(_ value: Bool) {
        writeSeparatorIfNeeded()
        appendStaticText(value ? "true" : "false")
        needsSeparator = true
    }

    /// Writes an integer in decimal.
    public mutating func writeInteger(_ value: Int) {
        writeSeparatorIfNeeded()
        appendInteger(value)
        needsSeparator = true
    }

    /// Writes a double: an integral value that fits in `Int` as an integer (`2.0` as `2`), NaN and
    /// infinities as `null` (JSON has no way to spell them), anything else in the shortest form
    /// that reads back as the same double.
    public mutating func writeDouble(_ value: Double) {
        writeSeparatorIfNeeded()
        appendDouble(value)
        needsSeparator = true
    }

    /// Writes a string with the escapes JSON needs: `\"`, `\\`, the short forms `\b \f \n \r \t`,
    /// and `\u00XX` for the other control characters. Everything else, including non-ASCII
    /// text, is copied as UTF-8.
    ///
    /// - Complexity: O(*n*) in the UTF-8 length of `string`.
    public mutating func writeString(_ string: String) {
        writeSeparatorIfNeeded()
        appendString(string)
        needsSeparator = true
    }

    /// Writes an array of unsigned integers, the fast path for LSP semantic tokens.
    ///
    /// - Complexity: O(*n*) in the number of digits written.
    public mutating func writeIntegerArray(_ values: [UInt32]) {
        writeSeparatorIfNeeded()
        // At most 10 digits and a comma per value, plus the brackets.
        let (perValue, overflow1) = values.count.multipliedReportingOverflow(by: 11)
        let (capacity, overflow2) = perValue.addingReportingOverflow(2)
        guard !overflow1, !overflow2 else {
            writeIntegerArray(values.lazy.map { Int($0) })
            return
        }
        // The digits go straight into uninitialised memory that is known to be large enough,
        // which avoids a capacity check per byte; one copy then appends the whole array.
        let text = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initializedCount in
            var index = 0
            buffer[index] = ASCII.openBracket
            index += 1
            for (position, value) in values.enumerated() {
                if position > 0 {
                    buffer[index] = ASCII.comma
                    index += 1
                }
                var digitCount = 1
                var limit: UInt32 = 10
                while digitCount < 10, value >= limit {
                    digitCount += 1
                    limit = limit &* 10
                }
                var remaining = value
                var digitIndex = index + digitCount - 1
                while digitIndex >= index {
                    let (quotient, digit) = remaining.quotientAndRemainder(dividingBy: 10)
                    buffer[digitIndex] = ASCII.zero &+ UInt8(truncatingIfNeeded: digit)
                    remaining = quotient
                    digitIndex -= 1
                }
                index += digitCount
            }
            buffer[index] = ASCII.closeBracket
            initializedCount = index + 1
        }
        bytes.append(contentsOf: text)
        needsSeparator = true
    }

    /// Writes an array of integers.
    ///
    /// - Complexity: O(*n*) in the number of digits written.
    public mutating func writeIntegerArray(_ values: some Sequence<Int>) {
        writeSeparatorIfNeeded()
        bytes.reserveCapacity(bytes.count + values.underestimatedCount * 4 + 2)
        bytes.append(ASCII.openBracket)
        var isFirst = true
        for value in values {
            if !isFirst { bytes.append(ASCII.comma) }
            isFirst = false
            appendInteger(value)
        }
        bytes.append(ASCII.closeBracket)
        needsSeparator = true
    }

    // MARK: Streaming containers

    /// Opens an object; follow with `writeKey(_:)` and a value per member, then `endObject()`.
    public mutating func beginObject() {
        writeSeparatorIfNeeded()
        bytes.append(ASCII.openBrace)
        openContainerCount += 1
        needsSeparator = false
    }

    /// Writes a member key and its colon; the next write is the member's value.
    public mutating func writeKey(_ key: String) {
        writeSeparatorIfNeeded()
        appendString(key)
        bytes.append(ASCII.colon)
        needsSeparator = false
    }

    /// Closes the object opened by the matching `beginObject()`.
    public mutating func endObject() {
        bytes.append(ASCII.closeBrace)
        openContainerCount = max(openContainerCount - 1, 0)
        needsSeparator = true
    }

    /// Opens an array; follow with the element writes, then `endArray()`.
    public mutating func beginArray() {
        writeSeparatorIfNeeded()
        bytes.append(ASCII.openBracket)
        openContainerCount += 1
        needsSeparator = false
    }

    /// Closes the array opened by the matching `beginArray()`.
    public mutating func endArray() {
        bytes.append(ASCII.closeBracket)
        openContainerCount = max(openContainerCount - 1, 0)
        needsSeparator = true
    }

    /// Writes the comma between two members of an open container.
    @inline(__always)
    private mutating func writeSeparatorIfNeeded() {
        if needsSeparator, openContainerCount > 0 { bytes.append(ASCII.comma) }
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

    /// Appends `utf8` between quotes, copying runs that need no escape in one go.
    private mutating func appendEscaped(utf8: UnsafeBufferPointer<UInt8>) {
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
        bytes.append(ASCII.quote)
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
