// A reader for Emacs Lisp data as init files write settings in: lists (with dotted pairs),
// vectors, strings with their escapes, symbols, numbers, character literals (`?a`), the quote
// forms ('x, `x, ,x, ,@x, #'f) and `;` comments. Nothing is evaluated: the import looks for the
// forms that set a variable and reads their quoted values as data.

/// One form, with where it starts.
struct ElispNode {
    /// What a form is.
    indirect enum Value {
        /// A list; `tail` is what follows a `.` (`("TODO" . "#cc9393")`).
        case list([ElispNode], tail: ElispNode?)
        case vector([ElispNode])
        case string(String)
        case symbol(String)
        case number(String)
        case character
        /// `'x` (quote), `` `x `` (backquote), `,x` (unquote), `,@x` (splice) or `#'x` (function).
        case quoted(ElispQuote, ElispNode)
    }

    var value: Value
    /// The UTF-8 offset of the form's first byte in the file.
    var utf8Offset: Int

    var symbolName: String? {
        if case .symbol(let name) = value { return name }
        return nil
    }

    var stringValue: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    /// The elements of a proper list.
    var listElements: [ElispNode]? {
        if case .list(let elements, nil) = value { return elements }
        return nil
    }

    /// The form every sub-form of which is visited by `body`, this one first.
    func visit(_ body: (ElispNode) -> Void) {
        body(self)
        switch value {
        case .list(let elements, let tail):
            elements.forEach { $0.visit(body) }
            tail?.visit(body)
        case .vector(let elements): elements.forEach { $0.visit(body) }
        case .quoted(_, let inner): inner.visit(body)
        case .string, .symbol, .number, .character: break
        }
    }
}

/// The quote forms.
enum ElispQuote {
    case quote, backquote, unquote, splice, function
}

/// Why an Elisp text could not be read, and where.
struct ElispSyntaxError: Error {
    var utf8Offset: Int
    var message: String
}

/// Reads the forms of an Emacs Lisp text.
struct ElispReader {
    let bytes: [UInt8]
    var index = 0
    /// How deep the form being read is nested; reading and visiting recurse, so nesting is bounded.
    var depth = 0
    static let maximumDepth = 256

    /// Every top-level form.
    static func forms(of bytes: [UInt8]) throws(ElispSyntaxError) -> [ElispNode] {
        var reader = ElispReader(bytes: bytes)
        var forms: [ElispNode] = []
        while true {
            reader.skipTrivia()
            guard reader.index < bytes.count else { return forms }
            forms.append(try reader.readForm())
        }
    }

    /// Skips spaces and `;` comments.
    mutating func skipTrivia() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C {
                index += 1
            } else if byte == UInt8(ascii: ";") {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            } else {
                return
            }
        }
    }

    static let delimiters: Set<UInt8> = Set("()[]\";'`, \t\r\n\u{0C}".utf8)

    /// The form at `index` (after trivia).
    mutating func readForm() throws(ElispSyntaxError) -> ElispNode {
        skipTrivia()
        let start = index
        guard depth < Self.maximumDepth else {
            throw ElispSyntaxError(utf8Offset: start, message: "forms are nested more than \(Self.maximumDepth) deep")
        }
        depth += 1
        defer { depth -= 1 }
        guard index < bytes.count else { throw ElispSyntaxError(utf8Offset: index, message: "a form is not finished at the end of the file") }
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "("):
            index += 1
            var elements: [ElispNode] = []
            var tail: ElispNode?
            while true {
                skipTrivia()
                guard index < bytes.count else { throw ElispSyntaxError(utf8Offset: start, message: "this list is not closed") }
                if bytes[index] == UInt8(ascii: ")") {
                    index += 1
                    return ElispNode(value: .list(elements, tail: tail), utf8Offset: start)
                }
                if bytes[index] == UInt8(ascii: "."), index + 1 < bytes.count, Self.delimiters.contains(bytes[index + 1]) {
                    index += 1
                    tail = try readForm()
                    continue
                }
                elements.append(try readForm())
            }
        case UInt8(ascii: "["):
            index += 1
            var elements: [ElispNode] = []
            while true {
                skipTrivia()
                guard index < bytes.count else { throw ElispSyntaxError(utf8Offset: start, message: "this vector is not closed") }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return ElispNode(value: .vector(elements), utf8Offset: start)
                }
                elements.append(try readForm())
            }
        case UInt8(ascii: ")"), UInt8(ascii: "]"):
            throw ElispSyntaxError(utf8Offset: start, message: "a closing \(Character(Unicode.Scalar(byte))) with nothing open")
        case UInt8(ascii: "\""):
            return ElispNode(value: .string(try readString()), utf8Offset: start)
        case UInt8(ascii: "'"):
            index += 1
            return ElispNode(value: .quoted(.quote, try readForm()), utf8Offset: start)
        case UInt8(ascii: "`"):
            index += 1
            return ElispNode(value: .quoted(.backquote, try readForm()), utf8Offset: start)
        case UInt8(ascii: ","):
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "@") {
                index += 1
                return ElispNode(value: .quoted(.splice, try readForm()), utf8Offset: start)
            }
            return ElispNode(value: .quoted(.unquote, try readForm()), utf8Offset: start)
        case UInt8(ascii: "?"):
            // A character: `?a`, `?\n`, `?\C-a`, `?\(`; its value does not matter to a setting's data.
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "\\") {
                index += 2
            } else {
                index += 1
                while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
            }
            while index < bytes.count, !Self.delimiters.contains(bytes[index]) { index += 1 }
            return ElispNode(value: .character, utf8Offset: start)
        default:
            if byte == UInt8(ascii: "#"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "'") {
                index += 2
                return ElispNode(value: .quoted(.function, try readForm()), utf8Offset: start)
            }
            var token: [UInt8] = []
            while index < bytes.count, !Self.delimiters.contains(bytes[index]) {
                if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
                token.append(bytes[index])
                index += 1
            }
            let text = String(decoding: token, as: UTF8.self)
            let isNumber = Double(text) != nil || Int(text) != nil
            return ElispNode(value: isNumber ? .number(text) : .symbol(text), utf8Offset: start)
        }
    }

    /// A string at `index`, with its escapes decoded (`\\` is one backslash, as the Lisp reader has it).
    mutating func readString() throws(ElispSyntaxError) -> String {
        let start = index
        index += 1
        var out: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
            guard byte == UInt8(ascii: "\\"), index < bytes.count else {
                out.append(byte)
                continue
            }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "e"): out.append(0x1B)
            case UInt8(ascii: "f"): out.append(0x0C)
            case 0x0A, UInt8(ascii: " "): break  // A line continued, and an escaped space: nothing.
            default: out.append(escaped)
            }
        }
        throw ElispSyntaxError(utf8Offset: start, message: "the string is not closed")
    }
}
