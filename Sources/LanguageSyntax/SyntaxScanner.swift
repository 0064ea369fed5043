#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UTF8Decoding

// The line scanner: one line of bytes and the state at its start in, the
// comment and string regions of the line and the state at its end out.
//
//     line 0  state .code            `let s = "a" /* TODO`     -> regions [string, comment]
//     line 1  state .blockComment    `   still */ x // NOTE`   -> regions [comment, comment]
//     line 2  state .code            ...
//
// Because a line depends only on its bytes and its start state, a cache of the
// start state of every line can be re-scanned from an edited line until the
// states converge with the cached ones again (see SyntaxIndex).

/// Where the scanner is at a line boundary: in code, or inside a comment or string that continues.
public enum LexState: Sendable, Hashable {
    /// In code.
    case code
    /// Inside a block comment opened by `openers[opener]`, `depth` levels deep.
    case blockComment(opener: Int, depth: Int)
    /// Inside a string opened by `openers[opener]`.
    case string(opener: Int)
    /// Inside a raw string or long-bracket comment that ends at `closing`, with no escapes.
    case rawText(scope: Scope, closing: [UInt8])
}

extension LanguageSyntax {
    /// The scope of text in `state`: the language's text scope in code, else that of the opener
    /// that opened the comment or string (documentation written as a string is a comment).
    public func scope(of state: LexState) -> Scope {
        switch state {
        case .code: return textScope
        case .blockComment: return .comment
        case .string(let opener): return openers.indices.contains(opener) ? openers[opener].scope : .string
        case .rawText(let scope, _): return scope
        }
    }

    /// The comment and string regions of one line and the state after it.
    ///
    /// `line` is one line of text, with or without its terminator (`\n`, `\r\n` or `\r`);
    /// region offsets are relative to its first byte and never cover the terminator.
    ///
    /// - Complexity: O(n · k) for a line of n bytes and k openers sharing a first byte; O(n) in practice.
    func scan(line: UnsafeBufferPointer<UInt8>, from state: LexState) -> (regions: [ScopeRegion], endState: LexState) {
        var regions: [ScopeRegion] = []
        let endState = scan(line: line, from: state, into: &regions)
        return (regions, endState)
    }

    /// The comment and string regions of one line, appended to `regions` (which a caller can reuse
    /// from line to line, so that scanning allocates nothing), and the state after the line.
    func scan(line: UnsafeBufferPointer<UInt8>, from state: LexState, into regions: inout [ScopeRegion]) -> LexState {
        var end = line.count
        if end > 0, line[end - 1] == 0x0A { end -= 1 }
        if end > 0, line[end - 1] == 0x0D { end -= 1 }

        var state = state
        var regionStart = 0
        var position = 0
        while position < end {
            switch state {
            case .code:
                // Skip the ordinary bytes of code, sixteen at a time.
                position = codeSearch.firstIndex(in: line, from: position, to: end)
                guard position < end else { continue }
                let byte = line[position]
                if let codeEscape, byte == codeEscape {
                    position += 2
                    continue
                }
                guard let (openerIndex, length, newState) = matchOpener(in: line, at: position, end: end) else {
                    position += 1
                    continue
                }
                let opener = openers[openerIndex]
                switch opener.kind {
                case .lineComment, .lineString:
                    regions.append(ScopeRegion(utf8Range: position..<end, scope: opener.scope))
                    position = end
                case .characterLiteral:
                    // The literal was checked to close on this line: `length` covers all of it.
                    regions.append(ScopeRegion(utf8Range: position..<(position + length), scope: opener.scope))
                    position += length
                default:
                    regionStart = position
                    position += length
                    state = newState
                }
            case .blockComment(let openerIndex, let depth):
                guard case .blockComment(_, let nests) = openers[openerIndex].kind else {
                    state = .code
                    continue
                }
                let close = openers[openerIndex].closing
                let open = openers[openerIndex].text
                // Skip the ordinary bytes of the comment in one tight loop.
                if let closeFirst = close.first, let openFirst = open.first {
                    if nests {
                        while position < end, line[position] != closeFirst, line[position] != openFirst { position += 1 }
                    } else {
                        position = Self.firstIndex(of: closeFirst, in: line, from: position, to: end)
                    }
                    if position >= end { continue }
                }
                if Self.hasPrefix(line, at: position, end: end, close) {
                    position += close.count
                    if depth <= 1 {
                        regions.append(ScopeRegion(utf8Range: regionStart..<position, scope: .comment))
                        state = .code
                    } else {
                        state = .blockComment(opener: openerIndex, depth: depth - 1)
                    }
                } else if nests, Self.hasPrefix(line, at: position, end: end, open) {
                    position += open.count
                    state = .blockComment(opener: openerIndex, depth: depth + 1)
                } else {
                    position += 1
                }
            case .string(let openerIndex):
                guard case .string(_, let escape, _) = openers[openerIndex].kind else {
                    state = .code
                    continue
                }
                let close = openers[openerIndex].closing
                if let closeFirst = close.first {
                    while position < end, line[position] != closeFirst, line[position] != escape { position += 1 }
                    if position >= end { continue }
                }
                if let escape, line[position] == escape {
                    position += 2
                    continue
                }
                if Self.hasPrefix(line, at: position, end: end, close) {
                    position += close.count
                    regions.append(ScopeRegion(utf8Range: regionStart..<position, scope: openers[openerIndex].scope))
                    state = .code
                } else {
                    position += 1
                }
            case .rawText(let scope, let closing):
                if let closeFirst = closing.first {
                    position = Self.firstIndex(of: closeFirst, in: line, from: position, to: end)
                    if position >= end { continue }
                }
                if Self.hasPrefix(line, at: position, end: end, closing) {
                    position += closing.count
                    regions.append(ScopeRegion(utf8Range: regionStart..<position, scope: scope))
                    state = .code
                } else {
                    position += 1
                }
            }
        }

        if state != .code {
            if regionStart < end { regions.append(ScopeRegion(utf8Range: regionStart..<end, scope: scope(of: state))) }
            // A one-line string ends with its line, unless the line ends with the escape byte.
            if case .string(let openerIndex) = state,
               case .string(_, let escape, let multiline) = openers[openerIndex].kind, !multiline {
                let continued = escape.map { position > end && end > 0 && line[end - 1] == $0 } ?? false
                if !continued { state = .code }
            }
        }
        return state
    }

    /// The first opener that matches at `position`: its index, the bytes it opens with, and the state after them.
    private func matchOpener(
        in line: UnsafeBufferPointer<UInt8>, at position: Int, end: Int
    ) -> (Int, Int, LexState)? {
        for (index, opener) in openers.enumerated() {
            guard Self.hasPrefix(line, at: position, end: end, opener.text),
                  conditionHolds(opener, in: line, at: position, end: end) else { continue }
            let after = position + opener.text.count
            switch opener.kind {
            case .lineComment, .lineString:
                return (index, end - position, .code)
            case .blockComment:
                return (index, opener.text.count, .blockComment(opener: index, depth: 1))
            case .string:
                return (index, opener.text.count, .string(opener: index))
            case .characterLiteral(let escape):
                guard after < end else { continue }
                var cursor = after
                if line[after] == escape {
                    cursor = after + 2
                    while cursor < end, cursor - after <= 10, line[cursor] != opener.text[0] { cursor += 1 }
                } else {
                    cursor = after + UTF8Decoding.sequenceLength(announcedBy: line[after])
                }
                guard cursor > after, Self.hasPrefix(line, at: cursor, end: end, opener.text) else { continue }
                return (index, cursor + opener.text.count - position, .code)
            case .hashedRawString:
                var cursor = after
                while cursor < end, line[cursor] == UInt8(ascii: "#") { cursor += 1 }
                guard cursor < end, line[cursor] == UInt8(ascii: "\"") else { continue }
                let hashes = cursor - after
                let closing = [UInt8(ascii: "\"")] + [UInt8](repeating: UInt8(ascii: "#"), count: hashes)
                return (index, cursor + 1 - position, .rawText(scope: .string, closing: closing))
            case .swiftRawString:
                var cursor = position
                while cursor < end, line[cursor] == UInt8(ascii: "#") { cursor += 1 }
                let hashes = cursor - position
                guard hashes > 0, cursor < end, line[cursor] == UInt8(ascii: "\"") else { continue }
                let quotes: [UInt8] = Self.hasPrefix(line, at: cursor, end: end, Array("\"\"\"".utf8))
                    ? Array("\"\"\"".utf8) : [UInt8(ascii: "\"")]
                let closing = quotes + [UInt8](repeating: UInt8(ascii: "#"), count: hashes)
                return (index, cursor + quotes.count - position, .rawText(scope: .string, closing: closing))
            case .cppRawString:
                var cursor = after
                while cursor < end, cursor - after <= 16, Self.isRawDelimiterByte(line[cursor]) { cursor += 1 }
                guard cursor < end, cursor - after <= 16, line[cursor] == UInt8(ascii: "(") else { continue }
                let delimiter = Array(line[after..<cursor])
                let closing = [UInt8(ascii: ")")] + delimiter + [UInt8(ascii: "\"")]
                return (index, cursor + 1 - position, .rawText(scope: .string, closing: closing))
            case .longBracket(let scope):
                // `[` opens a string's bracket itself; `--` is followed by it.
                let bracket = opener.text.last == UInt8(ascii: "[") ? after - 1 : after
                guard bracket < end, line[bracket] == UInt8(ascii: "[") else { continue }
                var cursor = bracket + 1
                while cursor < end, line[cursor] == UInt8(ascii: "=") { cursor += 1 }
                guard cursor < end, line[cursor] == UInt8(ascii: "[") else { continue }
                let level = cursor - bracket - 1
                let closing = [UInt8(ascii: "]")] + [UInt8](repeating: UInt8(ascii: "="), count: level) + [UInt8(ascii: "]")]
                return (index, cursor + 1 - position, .rawText(scope: scope, closing: closing))
            }
        }
        return nil
    }

    private func conditionHolds(_ opener: Opener, in line: UnsafeBufferPointer<UInt8>, at position: Int, end: Int) -> Bool {
        switch opener.condition {
        case .anywhere:
            return true
        case .notAfterWordCharacter:
            guard position > 0 else { return true }
            let before = line[position - 1]
            return !(Self.isASCIIWordByte(before) || before >= 0x80)
        case .afterSpace:
            guard position > 0 else { return true }
            let before = line[position - 1]
            return before == 0x20 || before == 0x09
        case .lineStart:
            return line[0..<position].allSatisfy { $0 == 0x20 || $0 == 0x09 }
        case .standaloneString(let prefixLetters):
            var start = position
            while start > 0, position - start < 2, prefixLetters.contains(line[start - 1]) { start -= 1 }
            // Backwards, so that a quote after code costs one byte, not the line so far.
            while start > 0, line[start - 1] == 0x20 || line[start - 1] == 0x09 { start -= 1 }
            guard start == 0 else { return false }
            return nothingButCommentAfterString(opener, in: line, at: position, end: end)
        }
    }

    /// Whether the string `opener` opens at `position` runs past the line, or closes on it with
    /// only spaces, tabs and a line comment after it (`"doc"  # note`, not `"key": value`).
    private func nothingButCommentAfterString(_ opener: Opener, in line: UnsafeBufferPointer<UInt8>, at position: Int, end: Int) -> Bool {
        guard case .string(_, let escape, _) = opener.kind else { return true }
        var cursor = position + opener.text.count
        while cursor < end, !Self.hasPrefix(line, at: cursor, end: end, opener.closing) {
            cursor += line[cursor] == escape ? 2 : 1
        }
        guard cursor < end else { return true }
        cursor += opener.closing.count
        while cursor < end, line[cursor] == 0x20 || line[cursor] == 0x09 { cursor += 1 }
        guard cursor < end else { return true }
        return openers.contains { candidate in
            if case .lineComment = candidate.kind { return Self.hasPrefix(line, at: cursor, end: end, candidate.text) }
            return false
        }
    }

    /// The offset of the first `byte` in `line[start..<end]` (`memchr`), or `end`.
    @inline(__always)
    static func firstIndex(of byte: UInt8, in line: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        guard start < end, let base = line.baseAddress, let found = memchr(base + start, Int32(byte), end - start) else { return max(start, end) }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    static func isASCIIWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }

    /// Bytes allowed in a C++ raw string delimiter: anything but space, parentheses, backslash and control bytes.
    private static func isRawDelimiterByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "(") && byte != UInt8(ascii: ")") && byte != UInt8(ascii: "\\")
    }

    @inline(__always)
    static func hasPrefix(_ line: UnsafeBufferPointer<UInt8>, at position: Int, end: Int, _ prefix: [UInt8]) -> Bool {
        guard !prefix.isEmpty, end - position >= prefix.count else { return false }
        for (offset, byte) in prefix.enumerated() where line[position + offset] != byte { return false }
        return true
    }
}
