import UTF8Decoding
import VectorKernels

// The parsing machine behind `JSONParser`.
//
// The parser works on raw UTF-8 bytes and never recurses: open containers live on an explicit
// stack, so a deeply nested document costs heap, not call stack, and the depth limit is a
// plain comparison. Finished values of the open containers wait on a flat value stack (and
// object keys on a key stack); a closing bracket turns the top slice of that stack into one
// array or dictionary.
//
//     input:   [1, {"a": [2, 3
//     frames:  array(values from 0) | object(values from 1, keys from 0) | array(values from 2)
//     values:  1 | 2 3
//     keys:    "a"
//
// Strings take a fast path: one scan for the closing quote, a backslash or a control byte,
// then one validated `String` built from the byte slice. A string with escapes is scanned to
// its closing quote first, then unescaped straight into the `String`'s storage.

/// An open array or object while its members are being parsed.
struct JSONContainerFrame {
    /// `true` for an object, `false` for an array.
    var isObject: Bool
    /// Where the container's finished members start on the value stack.
    var firstValueIndex: Int
    /// Where the container's keys start on the key stack (objects only).
    var firstKeyIndex: Int
    /// The container's node in the source map, or -1 when locations are not recorded.
    var sourceNode: Int
}

/// A stack that hands out its elements by moving them, for the parser's value and key stacks.
///
/// Taking an element swaps a placeholder into its slot instead of copying it, which saves a
/// retain and a release per member; popping only lowers `count`, and the slots (holding
/// placeholders by then) are reused by later pushes, so the stack allocates only while it
/// grows past its largest size so far.
struct MovingStack<Element> {
    private var slots: [Element] = []
    private let placeholder: Element
    /// The number of elements on the stack.
    private(set) var count = 0

    /// An empty stack that leaves `placeholder` in the slots it hands out.
    init(placeholder: Element) {
        self.placeholder = placeholder
    }

    /// The top element, if any.
    var last: Element? { count > 0 && count <= slots.count ? slots[count - 1] : nil }

    /// Pushes `element`.
    @inline(__always)
    mutating func push(_ element: Element) {
        if count < slots.count {
            slots[count] = element
        } else {
            slots.append(element)
        }
        count += 1
    }

    /// Moves the element at `index` out, leaving the placeholder in its slot.
    @inline(__always)
    mutating func take(at index: Int) -> Element {
        var element = placeholder
        swap(&element, &slots[index])
        return element
    }

    /// Pops everything above `newCount`; the caller has taken those elements already.
    @inline(__always)
    mutating func pop(downTo newCount: Int) {
        count = min(max(newCount, 0), count)
    }

    /// Moves the elements from `start` to the top into an array and pops them.
    mutating func takeAll(from start: Int) -> [Element] {
        let start = min(max(start, 0), count)
        var elements: [Element] = []
        elements.reserveCapacity(count - start)
        for index in start..<count {
            elements.append(take(at: index))
        }
        count = start
        return elements
    }
}

/// The byte-level JSON parser: a cursor over the input plus the stacks of open containers.
struct JSONByteParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let options: JSONParseOptions
    private var offset = 0
    private var values = MovingStack<JSON>(placeholder: .null)
    private var keys = MovingStack<String>(placeholder: "")
    private var frames: [JSONContainerFrame] = []
    /// The UTF-8 offset of the key that introduced the value about to be parsed.
    private var pendingKeyUTF8Offset: Int?
    /// The source map under construction, or `nil` when locations are not recorded.
    private(set) var sourceNodes: [JSONSourceMap.Node]?

    /// A parser over `bytes`; `recordsLocations` turns on the source map.
    init(bytes: UnsafeBufferPointer<UInt8>, options: JSONParseOptions, recordsLocations: Bool) {
        self.bytes = bytes
        self.options = options
        self.sourceNodes = recordsLocations ? [] : nil
    }

    /// Parses the whole input as one JSON text.
    ///
    /// - Complexity: O(*n*) in the length of the input.
    mutating func parseDocument() throws(JSONSyntaxError) -> JSON {
        skipByteOrderMark()
        try skipWhitespace()
        let value = try parseValueTree()
        try skipWhitespace()
        guard offset >= bytes.count else {
            throw unexpectedByte(expecting: "end of input after the JSON value")
        }
        return value
    }

    /// The string at `path` (object keys from the root), read without building the values around
    /// it: every other value is skipped, a string a word at a time. Nil when the path names no
    /// string, or the text is not JSON as far as the search reads it. Of a repeated key, the first.
    ///
    /// - Complexity: O(*n*) in the bytes before the string, with no allocation but the string's.
    mutating func string(atPath path: ArraySlice<String>) -> String? {
        do {
            skipByteOrderMark()
            guard try findString(atPath: path) else { return nil }
            return try parseString()
        } catch {
            return nil
        }
    }

    /// Where the string at `path` starts (its opening quote), as `string(atPath:)` finds it; nil when there is none.
    mutating func stringStart(atPath path: ArraySlice<String>) -> Int? {
        skipByteOrderMark()
        guard (try? findString(atPath: path)) == true else { return nil }
        return offset
    }

    /// Decodes the string at `path` in `input`'s own storage (an escape never decodes to more bytes than it takes, and
    /// the bytes before the string are kept aside first): see `JSONParser.takeString(atPath:from:)`.
    static func takeString(atPath path: ArraySlice<String>, from input: consuming [UInt8], usesAVX2: Bool) -> TakenString {
        var input = input
        guard let openingQuote = input.withUnsafeBufferPointer({ buffer in
            var parser = JSONByteParser(bytes: buffer, options: .strict, recordsLocations: false)
            return parser.stringStart(atPath: path)
        }) else { return .notTaken(input) }
        let prefix = Array(input[..<openingQuote])
        // The input decoded so far (up to `read`) is in the first `written` bytes; from `read` on it is as it came.
        var read = openingQuote + 1
        var written = 0
        var unionOfBytes: UInt8 = 0
        let close: Int? = input.withUnsafeMutableBufferPointer { buffer in
            // The vectorized copy stores sixty-four bytes at a time, which stay behind the bytes still to read only
            // when it starts that far behind.
            try? unescape(
                UnsafeBufferPointer(buffer), from: openingQuote + 1, openingQuote: openingQuote,
                usesAVX2: usesAVX2 && openingQuote + 1 >= 64, unionOfBytes: &unionOfBytes, into: buffer, read: &read,
                written: &written)
        }
        // The output is valid UTF-8 exactly when the raw runs were: an escape decodes to a whole character.
        let valid = close != nil
            && (unionOfBytes < 0x80 || input.withUnsafeBufferPointer { UTF8Decoding.isValid(UnsafeBufferPointer(rebasing: $0[..<written])) })
        guard let close, valid else {
            // Not a whole valid string: the text again, the part decoded written back as a string's start, so that a
            // parse stops where and as it would have.
            var restored = prefix
            restored += JSONWriter.escaped(Array(input[..<written]), closed: false)
            restored += input[read...]
            return .notTaken(restored)
        }
        let rest = prefix + Array("null".utf8) + input[(close + 1)...]
        input.removeLast(input.count - written)
        return .taken(bytes: input, rest: rest, literal: openingQuote..<(close + 1))
    }

    /// Moves to the string at `path`; false when there is none.
    private mutating func findString(atPath path: ArraySlice<String>) throws(JSONSyntaxError) -> Bool {
        try skipWhitespace()
        guard let key = path.first else { return peek == ASCII.quote && offset < bytes.count }
        guard peek == ASCII.openBrace, offset < bytes.count else { return false }
        offset += 1
        try skipWhitespace()
        while peek == ASCII.quote, offset < bytes.count {
            let name = try parseString()
            try skipWhitespace()
            guard peek == ASCII.colon, offset < bytes.count else { return false }
            offset += 1
            if name == key { return try findString(atPath: path.dropFirst()) }
            try skipValue()
            try skipWhitespace()
            guard peek == ASCII.comma, offset < bytes.count else { return false }
            offset += 1
            try skipWhitespace()
        }
        return false
    }

    /// Skips the value at `offset` (after whitespace) and everything nested in it, without checking
    /// more than where it ends.
    private mutating func skipValue() throws(JSONSyntaxError) {
        try skipWhitespace()
        var depth = 0
        repeat {
            guard offset < bytes.count else { throw error("unexpected end of input", at: offset) }
            switch bytes[offset] {
            case ASCII.quote: try skipString()
            case ASCII.openBrace, ASCII.openBracket:
                depth += 1
                offset += 1
            case ASCII.closeBrace, ASCII.closeBracket:
                depth -= 1
                offset += 1
            default: offset += 1
            }
            // A scalar outside any container ends before the next separator.
            if depth == 0, offset < bytes.count,
               [ASCII.comma, ASCII.closeBrace, ASCII.closeBracket, ASCII.space, ASCII.tab, ASCII.lineFeed, ASCII.carriageReturn]
                .contains(bytes[offset]) { return }
        } while depth > 0 || offset < bytes.count
    }

    /// Skips the string whose opening quote is at `offset`.
    private mutating func skipString() throws(JSONSyntaxError) {
        var unionOfBytes: UInt8 = 0
        offset = try closingQuote(from: offset + 1, openingQuote: offset, unionOfBytes: &unionOfBytes) + 1
    }

    // MARK: Structure

    /// Parses one value, including everything nested in it, starting at `offset`.
    private mutating func parseValueTree() throws(JSONSyntaxError) -> JSON {
        // At the top of this loop `offset` is at the first byte of a value.
        while true {
            var value: JSON
            recordValueStart()
            switch peek {
            case ASCII.openBrace:
                try openContainer(isObject: true)
                try skipWhitespace()
                if peek == ASCII.closeBrace {
                    offset += 1
                    value = closeContainer()
                } else {
                    try parseKeyAndColon()
                    continue
                }
            case ASCII.openBracket:
                try openContainer(isObject: false)
                try skipWhitespace()
                if peek == ASCII.closeBracket {
                    offset += 1
                    value = closeContainer()
                } else {
                    continue
                }
            case ASCII.quote:
                value = .string(try parseString())
            case ASCII.minus, ASCII.zero...ASCII.nine:
                value = try parseNumber()
            case ASCII.lowercaseT:
                try expectLiteral("true")
                value = .bool(true)
            case ASCII.lowercaseF:
                try expectLiteral("false")
                value = .bool(false)
            case ASCII.lowercaseN:
                try expectLiteral("null")
                value = .null
            default:
                throw unexpectedByte(expecting: "a value")
            }

            // Hand the finished value to its container; a closing bracket finishes that
            // container in turn, so this loop climbs until a ',' asks for the next value.
            while true {
                guard let frame = frames.last else { return value }
                values.push(value)
                try skipWhitespace()
                let closer = frame.isObject ? ASCII.closeBrace : ASCII.closeBracket
                let next = peek
                if next == ASCII.comma {
                    offset += 1
                    try skipWhitespace()
                    if offset < bytes.count, bytes[offset] == closer {
                        guard options.allowsTrailingCommas else {
                            throw error("a trailing comma is not allowed in strict JSON", at: offset)
                        }
                        offset += 1
                        value = closeContainer()
                        continue
                    }
                    if frame.isObject { try parseKeyAndColon() }
                    break
                } else if offset < bytes.count, next == closer {
                    offset += 1
                    value = closeContainer()
                } else {
                    throw unexpectedByte(
                        expecting: frame.isObject
                            ? "',' or '}' after an object member" : "',' or ']' after an array element")
                }
            }
        }
    }

    /// Pushes a container, enforcing the depth limit.
    private mutating func openContainer(isObject: Bool) throws(JSONSyntaxError) {
        guard frames.count < options.maximumDepth else {
            throw error("nesting is deeper than the limit of \(options.maximumDepth) levels", at: offset)
        }
        let node = (sourceNodes?.count ?? 0) - 1
        frames.append(
            JSONContainerFrame(
                isObject: isObject, firstValueIndex: values.count, firstKeyIndex: keys.count,
                sourceNode: sourceNodes == nil ? -1 : node))
        offset += 1
    }

    /// Pops the innermost container and builds its value from the top of the stacks.
    private mutating func closeContainer() -> JSON {
        guard let frame = frames.popLast() else { return .null }
        if frame.isObject {
            var members: [String: JSON] = Dictionary(minimumCapacity: values.count - frame.firstValueIndex)
            var keyIndex = frame.firstKeyIndex
            for valueIndex in frame.firstValueIndex..<values.count where keyIndex < keys.count {
                // Duplicate keys: the last one wins, as the assignment overwrites.
                members[keys.take(at: keyIndex)] = values.take(at: valueIndex)
                keyIndex += 1
            }
            values.pop(downTo: frame.firstValueIndex)
            keys.pop(downTo: frame.firstKeyIndex)
            return .object(members)
        }
        return .array(values.takeAll(from: frame.firstValueIndex))
    }

    /// Parses `"key"` and `:` inside an object and leaves `offset` at the member's value.
    private mutating func parseKeyAndColon() throws(JSONSyntaxError) {
        guard peek == ASCII.quote, offset < bytes.count else {
            throw unexpectedByte(expecting: "a string as an object key")
        }
        pendingKeyUTF8Offset = offset
        keys.push(try parseString())
        try skipWhitespace()
        guard peek == ASCII.colon, offset < bytes.count else {
            throw unexpectedByte(expecting: "':' after an object key")
        }
        offset += 1
        try skipWhitespace()
    }

    /// Adds a source-map node for the value starting at `offset` and links it to its container.
    @inline(__always)
    private mutating func recordValueStart() {
        guard let index = sourceNodes?.count else { return }
        // Optional chaining mutates the array in place, without copying it.
        sourceNodes?.append(JSONSourceMap.Node(valueUTF8Offset: offset, keyUTF8Offset: pendingKeyUTF8Offset))
        pendingKeyUTF8Offset = nil
        guard let frame = frames.last, frame.sourceNode >= 0, frame.sourceNode < index else { return }
        if frame.isObject {
            // A duplicate key replaces the earlier member's node, matching "last one wins".
            if let key = keys.last { sourceNodes?[frame.sourceNode].members[key] = index }
        } else {
            sourceNodes?[frame.sourceNode].elements.append(index)
        }
    }

    // MARK: Whitespace and comments

    /// Skips a UTF-8 byte order mark at the very start, which RFC 8259 allows a parser to ignore.
    private mutating func skipByteOrderMark() {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            offset = 3
        }
    }

    /// Skips spaces, tabs, line breaks and (when allowed) comments.
    @inline(__always)
    private mutating func skipWhitespace() throws(JSONSyntaxError) {
        while offset < bytes.count {
            switch bytes[offset] {
            case ASCII.space, ASCII.tab, ASCII.lineFeed, ASCII.carriageReturn:
                offset += 1
            case ASCII.slash where options.allowsComments:
                try skipComment()
            default:
                return
            }
        }
    }

    /// Skips one `//` or `/* */` comment starting at `offset`.
    private mutating func skipComment() throws(JSONSyntaxError) {
        let commentStart = offset
        let kind: UInt8 = offset + 1 < bytes.count ? bytes[offset + 1] : 0
        guard kind == ASCII.slash || kind == ASCII.asterisk else {
            throw error("expected '//' or '/*' to start a comment", at: commentStart)
        }
        offset += 2
        while offset < bytes.count {
            let byte = bytes[offset]
            if kind == ASCII.slash, byte == ASCII.lineFeed || byte == ASCII.carriageReturn {
                return
            }
            if kind == ASCII.asterisk, byte == ASCII.asterisk, offset + 1 < bytes.count,
                bytes[offset + 1] == ASCII.slash
            {
                offset += 2
                return
            }
            if byte < 0x80 {
                offset += 1
            } else {
                let length = (UTF8Decoding.scalar(at: offset, in: bytes)?.length ?? 0)
                guard length > 0 else { throw error("invalid UTF-8", at: offset) }
                offset += length
            }
        }
        if kind == ASCII.asterisk {
            throw error("unterminated comment", at: commentStart)
        }
    }

    // MARK: Scalars

    /// Consumes `literal` (`true`, `false` or `null`) at `offset`.
    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let matches = literal.withUTF8Buffer { expected -> Bool in
            guard bytes.count - offset >= expected.count else { return false }
            for index in 0..<expected.count where bytes[offset + index] != expected[index] {
                return false
            }
            return true
        }
        guard matches else {
            throw error("invalid literal, expected '\(literal)'", at: offset)
        }
        offset += literal.utf8CodeUnitCount
    }

    /// Parses a number at `offset` following the RFC 8259 grammar.
    ///
    /// Integral literals (no fraction, no exponent) that fit in `Int` become `.integer`; every
    /// other number becomes `.number` with its exact text.
    private mutating func parseNumber() throws(JSONSyntaxError) -> JSON {
        let start = offset
        var index = offset
        let end = bytes.count
        let isNegative = bytes[index] == ASCII.minus
        if isNegative { index += 1 }

        guard index < end, isDigit(bytes[index]) else {
            offset = index
            throw unexpectedByte(expecting: "a digit")
        }
        // The integer part is accumulated as a negative number so that `Int.min` fits.
        var accumulator = 0
        var overflowed = false
        if bytes[index] == ASCII.zero {
            index += 1
            if index < end, isDigit(bytes[index]) {
                throw error("leading zeros are not allowed in numbers", at: start)
            }
        } else {
            while index < end, isDigit(bytes[index]) {
                let digit = Int(bytes[index] &- ASCII.zero)
                if !overflowed {
                    let (times10, overflow1) = accumulator.multipliedReportingOverflow(by: 10)
                    let (next, overflow2) = times10.subtractingReportingOverflow(digit)
                    overflowed = overflow1 || overflow2
                    accumulator = next
                }
                index += 1
            }
        }

        var isIntegral = true
        if index < end, bytes[index] == ASCII.period {
            isIntegral = false
            index += 1
            guard index < end, isDigit(bytes[index]) else {
                offset = index
                throw unexpectedByte(expecting: "a digit after the decimal point")
            }
            while index < end, isDigit(bytes[index]) { index += 1 }
        }
        if index < end, bytes[index] == ASCII.lowercaseE || bytes[index] == ASCII.uppercaseE {
            isIntegral = false
            index += 1
            if index < end, bytes[index] == ASCII.plus || bytes[index] == ASCII.minus { index += 1 }
            guard index < end, isDigit(bytes[index]) else {
                offset = index
                throw unexpectedByte(expecting: "a digit in the exponent")
            }
            while index < end, isDigit(bytes[index]) { index += 1 }
        }
        offset = index

        if isIntegral, !overflowed {
            // `-0` is kept as text (below): as an integer it would come back as `0`.
            if isNegative, accumulator != 0 { return .integer(accumulator) }
            if isNegative { return .number("-0") }
            let (positive, overflow) = (0).subtractingReportingOverflow(accumulator)
            if !overflow { return .integer(positive) }
        }
        // Kept as written, so that a request id beyond `Int` or `Double` is echoed exactly.
        return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte &- ASCII.zero < 10 }

    // MARK: Strings

    /// Parses a string at `offset` (which is at its opening quote).
    @inline(__always)
    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let openingQuote = offset
        let start = offset + 1
        // The OR of all bytes: its top bit says whether the string needs UTF-8 validation.
        var unionOfBytes: UInt8 = 0
        let index = Self.plainStringBytesEnd(in: bytes, from: start, usesAVX2: options.usesAVX2, unionOfBytes: &unionOfBytes)
        guard index < bytes.count else { throw error("unterminated string", at: openingQuote) }
        switch bytes[index] {
        case ASCII.quote:
            offset = index + 1
            return try makeString(utf8Range: start..<index, unionOfBytes: unionOfBytes)
        case ASCII.backslash:
            return try parseEscapedString(start: start, openingQuote: openingQuote)
        default:
            throw controlCharacterInString(at: index)
        }
    }

    /// The index of the first quote, backslash or control byte from `index` on (or of the end of
    /// the input), checking thirty-two bytes at a time where the CPU has AVX2 and eight at a time
    /// after that; the OR of the bytes before it is merged into `unionOfBytes` (its top bit, at
    /// least, which is what the UTF-8 check asks).
    ///
    /// Each test of eight is the classic "does this word have a byte below n" bit trick,
    /// `(word - n * 0x01...) & ~word & 0x80...`. A borrow only runs towards higher bytes, so the
    /// lowest byte it flags is exact: with the word read little-endian, that is the first one.
    @inline(__always)
    private static func plainStringBytesEnd(
        in bytes: UnsafeBufferPointer<UInt8>, from index: Int, usesAVX2: Bool, unionOfBytes: inout UInt8
    ) -> Int {
        let raw = UnsafeRawBufferPointer(bytes)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var index = max(index, 0)
        if usesAVX2, let base = raw.baseAddress {
            let found = AVX2.jsonStringSpecial(text: base, from: index, end: raw.count)
            if found.sawNonASCII { unionOfBytes |= 0x80 }
            index = found.position
            // The steps stop early only at the byte looked for.
            if raw.count - index >= 32 { return index }
        }
        var unionOfWords: UInt64 = 0
        defer { if unionOfWords & highBits != 0 { unionOfBytes |= 0x80 } }
        while raw.count - index >= 8 {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let quotes = word ^ (ones &* UInt64(ASCII.quote))
            let backslashes = word ^ (ones &* UInt64(ASCII.backslash))
            let special = ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes | (word &- ones &* 0x20) & ~word)
                & highBits
            if special != 0 {
                let plainBytes = special.trailingZeroBitCount / 8
                unionOfWords |= word & ((1 &<< UInt64(plainBytes * 8)) &- 1)
                return index + plainBytes
            }
            unionOfWords |= word
            index += 8
        }
        while index < raw.count {
            let byte = raw[index]
            if byte == ASCII.quote || byte == ASCII.backslash || byte < 0x20 { break }
            unionOfBytes |= byte
            index += 1
        }
        return index
    }

    /// The index of the quote that closes a string whose bytes go on at `index`: escapes are
    /// stepped over (what they hold is checked when they are decoded), and a control byte is an
    /// error. The OR of the bytes is merged into `unionOfBytes`.
    private func closingQuote(from index: Int, openingQuote: Int, unionOfBytes: inout UInt8) throws(JSONSyntaxError) -> Int {
        var index = index
        while true {
            index = Self.plainStringBytesEnd(in: bytes, from: index, usesAVX2: options.usesAVX2, unionOfBytes: &unionOfBytes)
            guard index < bytes.count else { throw error("unterminated string", at: openingQuote) }
            switch bytes[index] {
            case ASCII.quote: return index
            case ASCII.backslash:
                // The byte after a backslash is raw too: one at or above 0x80 is reported as bad UTF-8, as anywhere.
                if index + 1 < bytes.count { unionOfBytes |= bytes[index + 1] }
                index += 2
            default: throw controlCharacterInString(at: index)
            }
        }
    }

    /// A `String` from a run of input bytes that holds no escapes, after checking that the
    /// bytes are valid UTF-8.
    ///
    /// `String(decoding:as:)` would silently repair invalid bytes, so they are checked first;
    /// `String(validating:as:)` would do both at once but is not specialized for buffers and
    /// costs a generic metadata lookup per string.
    @inline(__always)
    private func makeString(utf8Range: Range<Int>, unionOfBytes: UInt8) throws(JSONSyntaxError) -> String {
        if utf8Range.isEmpty { return "" }
        try checkUTF8(utf8Range, unionOfBytes: unionOfBytes)
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[utf8Range]), as: UTF8.self)
    }

    /// The path of `parseString` for strings with escapes: the closing quote is found and the raw
    /// bytes checked first, then the string is written once, straight into its own storage (an
    /// escape never decodes to more bytes than it takes, so the input's length bounds it).
    private mutating func parseEscapedString(start: Int, openingQuote: Int) throws(JSONSyntaxError) -> String {
        var unionOfBytes: UInt8 = 0
        let close = try closingQuote(from: start, openingQuote: openingQuote, unionOfBytes: &unionOfBytes)
        try checkUTF8(start..<close, unionOfBytes: unionOfBytes)
        var failure: JSONSyntaxError?
        // The closure takes the bytes alone: capturing `self` would copy the parser and its stacks.
        let bytes = self.bytes
        let usesAVX2 = options.usesAVX2
        let string = String(unsafeUninitializedCapacity: close - start) { output in
            do throws(JSONSyntaxError) {
                var ignored: UInt8 = 0
                return try Self.unescape(bytes, from: start, openingQuote: openingQuote, usesAVX2: usesAVX2, unionOfBytes: &ignored, into: output).count
            } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        offset = close + 1
        return string
    }

    /// Throws at the first byte of `range` that is not UTF-8, when `unionOfBytes` (the OR of its
    /// bytes) says any is not ASCII. Escapes always decode to valid UTF-8, so only raw bytes need it.
    private func checkUTF8(_ range: Range<Int>, unionOfBytes: UInt8) throws(JSONSyntaxError) {
        if unionOfBytes >= 0x80, let invalid = UTF8Decoding.firstInvalidOffset(in: bytes, range: range) {
            throw error("invalid UTF-8", at: invalid)
        }
    }

    /// Writes the string whose bytes start at `start`, its escapes decoded, into `output` (room
    /// enough; it may be the input's own memory, from before `start`), up to its closing quote;
    /// returns how many bytes it wrote and where the quote is.
    /// A control byte, or no closing quote, is an error; the OR of the raw bytes goes into
    /// `unionOfBytes`.
    private static func unescape(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, openingQuote: Int, usesAVX2: Bool, unionOfBytes: inout UInt8,
        into output: UnsafeMutableBufferPointer<UInt8>
    ) throws(JSONSyntaxError) -> (count: Int, close: Int) {
        var read = start
        var written = 0
        let close = try unescape(
            bytes, from: start, openingQuote: openingQuote, usesAVX2: usesAVX2, unionOfBytes: &unionOfBytes, into: output,
            read: &read, written: &written)
        return (written, close)
    }

    /// `unescape(_:from:openingQuote:usesAVX2:unionOfBytes:into:)`, keeping in `read` and `written` how far it got: the
    /// input up to `read` is decoded in `output`'s first `written` bytes (also when it throws), and returning where the
    /// closing quote is.
    private static func unescape(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, openingQuote: Int, usesAVX2: Bool, unionOfBytes: inout UInt8,
        into output: UnsafeMutableBufferPointer<UInt8>, read: inout Int, written: inout Int
    ) throws(JSONSyntaxError) -> Int {
        var runStart = start
        var index = start
        defer { read = runStart }
        while true {
            // Long runs and the one-letter escapes between them, in one vectorized copy; what stops it (the quote, a
            // `\u`, the last bytes) goes the way below.
            if usesAVX2, let input = bytes.baseAddress, let base = output.baseAddress {
                let run = AVX2.jsonUnescape(
                    text: input, from: index, end: bytes.count, output: base, written: written, outputEnd: output.count)
                if run.sawNonASCII { unionOfBytes |= 0x80 }
                index = run.position
                written = run.written
                runStart = index
            }
            index = plainStringBytesEnd(in: bytes, from: index, usesAVX2: usesAVX2, unionOfBytes: &unionOfBytes)
            // A move: decoding in place, the output may overlap the run.
            let runCount = min(index, bytes.count) - runStart
            if runCount > 0, let from = bytes.baseAddress, let to = output.baseAddress {
                UnsafeMutableRawPointer(to + written).copyMemory(from: from + runStart, byteCount: runCount)
            }
            written += runCount
            runStart = min(index, bytes.count)
            guard index < bytes.count else {
                throw JSONSyntaxError(message: "unterminated string", utf8Offset: openingQuote, in: bytes)
            }
            switch bytes[index] {
            case ASCII.quote:
                return index
            case ASCII.backslash:
                index = try decodeEscape(in: bytes, at: index, openingQuote: openingQuote, into: output, at: &written)
                runStart = index
            default:
                throw controlCharacterInString(in: bytes, at: index)
            }
        }
    }

    /// Decodes the escape sequence at `index` (a backslash) into `output` at `written`, which it
    /// advances, and returns the index after it.
    ///
    /// A `\u` escape of a lone UTF-16 surrogate decodes to U+FFFD; a high surrogate escape
    /// followed by a low surrogate escape decodes to the scalar they encode.
    private static func decodeEscape(
        in bytes: UnsafeBufferPointer<UInt8>, at index: Int, openingQuote: Int, into output: UnsafeMutableBufferPointer<UInt8>, at written: inout Int
    ) throws(JSONSyntaxError) -> Int {
        guard index + 1 < bytes.count else {
            throw JSONSyntaxError(message: "unterminated string", utf8Offset: openingQuote, in: bytes)
        }
        let replacement: UInt8
        switch bytes[index + 1] {
        case ASCII.quote: replacement = ASCII.quote
        case ASCII.backslash: replacement = ASCII.backslash
        case ASCII.slash: replacement = ASCII.slash
        case ASCII.lowercaseB: replacement = 0x08
        case ASCII.lowercaseF: replacement = 0x0C
        case ASCII.lowercaseN: replacement = ASCII.lineFeed
        case ASCII.lowercaseR: replacement = ASCII.carriageReturn
        case ASCII.lowercaseT: replacement = ASCII.tab
        case ASCII.lowercaseU:
            guard let unit = hexQuad(in: bytes, at: index + 2) else {
                throw JSONSyntaxError(message: "expected four hexadecimal digits after '\\u'", utf8Offset: index, in: bytes)
            }
            switch unit {
            case 0xD800...0xDBFF:
                if index + 7 < bytes.count, bytes[index + 6] == ASCII.backslash,
                    bytes[index + 7] == ASCII.lowercaseU, let low = hexQuad(in: bytes, at: index + 8),
                    (0xDC00...0xDFFF).contains(low)
                {
                    let scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    Self.appendUTF8(scalar: scalar, to: output, at: &written)
                    return index + 12
                }
                Self.appendUTF8(scalar: 0xFFFD, to: output, at: &written)
            case 0xDC00...0xDFFF:
                Self.appendUTF8(scalar: 0xFFFD, to: output, at: &written)
            default:
                Self.appendUTF8(scalar: unit, to: output, at: &written)
            }
            return index + 6
        default:
            throw JSONSyntaxError(message: "invalid escape sequence in a string", utf8Offset: index, in: bytes)
        }
        output[written] = replacement
        written += 1
        return index + 2
    }

    /// The value of four hexadecimal digits at `index`, or `nil` if there are not four.
    private static func hexQuad(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        guard index >= 0, bytes.count - index >= 4 else { return nil }
        var value = 0
        for position in index..<(index + 4) {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case ASCII.zero...ASCII.nine: digit = byte &- ASCII.zero
            case 0x61...0x66: digit = byte &- 0x61 &+ 10
            case 0x41...0x46: digit = byte &- 0x41 &+ 10
            default: return nil
            }
            value = value << 4 | Int(digit)
        }
        return value
    }

    /// Writes the UTF-8 encoding of `scalar` (at most U+10FFFF, not a surrogate) into `output` at
    /// `written`, which it advances.
    private static func appendUTF8(scalar: Int, to output: UnsafeMutableBufferPointer<UInt8>, at written: inout Int) {
        func put(_ value: Int) {
            output[written] = UInt8(truncatingIfNeeded: value)
            written += 1
        }
        if scalar < 0x80 {
            put(scalar)
        } else if scalar < 0x800 {
            put(0xC0 | scalar >> 6)
            put(0x80 | scalar & 0x3F)
        } else if scalar < 0x10000 {
            put(0xE0 | scalar >> 12)
            put(0x80 | scalar >> 6 & 0x3F)
            put(0x80 | scalar & 0x3F)
        } else {
            put(0xF0 | scalar >> 18)
            put(0x80 | scalar >> 12 & 0x3F)
            put(0x80 | scalar >> 6 & 0x3F)
            put(0x80 | scalar & 0x3F)
        }
    }

    // MARK: Errors

    @inline(__always)
    private var peek: UInt8 { offset < bytes.count ? bytes[offset] : 0 }

    private func error(_ message: String, at utf8Offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(message: message, utf8Offset: utf8Offset, in: bytes)
    }

    private func controlCharacterInString(at index: Int) -> JSONSyntaxError {
        Self.controlCharacterInString(in: bytes, at: index)
    }

    private static func controlCharacterInString(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> JSONSyntaxError {
        let byte = bytes[index]
        if byte == ASCII.lineFeed || byte == ASCII.carriageReturn {
            return JSONSyntaxError(message: "line break in a string (a missing closing quote?)", utf8Offset: index, in: bytes)
        }
        return JSONSyntaxError(message: "control character \(unicodeName(of: byte)) in a string must be escaped", utf8Offset: index, in: bytes)
    }

    /// An error for the byte at `offset`, which is not what the grammar allows there.
    private func unexpectedByte(expecting expected: String) -> JSONSyntaxError {
        guard offset < bytes.count else {
            return error("expected \(expected), found the end of the input", at: offset)
        }
        let byte = bytes[offset]
        let found: String
        switch byte {
        case ASCII.slash where !options.allowsComments:
            return error("comments are not allowed in strict JSON", at: offset)
        case 0x80...:
            let length = (UTF8Decoding.scalar(at: offset, in: bytes)?.length ?? 0)
            guard length > 0 else { return error("invalid UTF-8", at: offset) }
            let scalarBytes = UnsafeBufferPointer(rebasing: bytes[offset..<(offset + length)])
            let scalar = String(decoding: scalarBytes, as: UTF8.self)
            found = "'\(scalar)'"
        case 0x21...0x7E:
            found = "'\(Character(Unicode.Scalar(byte)))'"
        default:
            found = Self.unicodeName(of: byte)
        }
        return error("expected \(expected), found \(found)", at: offset)
    }

    /// `U+000A` style name of an ASCII byte.
    private static func unicodeName(of byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        let high = digits[Int(byte >> 4)]
        let low = digits[Int(byte & 0x0F)]
        return "U+00" + String(decoding: [high, low], as: UTF8.self)
    }
}

/// The ASCII bytes the JSON grammar is made of.
enum ASCII {
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let period: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let colon: UInt8 = 0x3A
    static let asterisk: UInt8 = 0x2A
    static let uppercaseE: UInt8 = 0x45
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let lowercaseB: UInt8 = 0x62
    static let lowercaseE: UInt8 = 0x65
    static let lowercaseF: UInt8 = 0x66
    static let lowercaseN: UInt8 = 0x6E
    static let lowercaseR: UInt8 = 0x72
    static let lowercaseT: UInt8 = 0x74
    static let lowercaseU: UInt8 = 0x75
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D
}
