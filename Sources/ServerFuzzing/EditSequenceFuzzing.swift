import JSONRPC
import JSONValue
import LanguageServer
import TextIndex

/// Random rule sets and random edit sequences, checked against a fresh copy of the document.
///
/// The input bytes choose a position encoding, a rule set (literal words and regexes, valid
/// and invalid, some matching the empty string), a text made of awkward pieces (CRLF, lone CR,
/// NUL, BOM, U+2028, emoji, combining marks) and a sequence of edits whose ranges may be
/// reversed, past the line end or past the document end. After the edits the document's
/// matches and its semantic tokens (rebuilt from the deltas the client received) must equal
/// those of a fresh document opened with the same text, which a `TextBuffer` mirror of the
/// edits provides. The result is the list of differences found (empty when all is well).
public enum EditSequenceFuzzing {
    static let textPieces = ["TODO", " ", "\n", "\r\n", "\r", "é", "É", "👍", "ab", "AB-12", "FIXME", "x", "\u{0}",
                             "\u{2028}", "日本", "\u{FEFF}", "\t", "todo", "e\u{301}", "NOTE:", "ß", "🇫🇷"]
    static let wordPieces = ["TODO", "ab", "é", "ÉA", "👍", "x", "日", "todo", "AB", "ß", "e\u{301}", "\r\n", "b a"]
    static let regexPieces = ["TODO", "[A-Z]+-[0-9]+", "a*", "é+", "\\bab\\b", "(?i)todo", "x|xy", "^ab", "ab$", "[^\\n]{3}",
                              "(", "a(?=b)", ".", "\\r\\n", "日+", "👍", "\\d+", "", "(?m)^\\s*$", "\\w+", "[[:upper:]]{2}",
                              "(ab|a)(c|bcd)?", "\\p{Greek}", "x{2,3}?", "(?s).{1,4}"]

    public static func run(_ bytes: [UInt8]) -> [String] {
        var input = FuzzInput(bytes)
        var session = FuzzSession()
        let encoding = input.pick(["utf-16", "utf-8", "utf-32"]) ?? "utf-16"
        session.encoding = PositionEncoding(rawValue: encoding) ?? .utf16
        _ = session.request("initialize", [
            "processId": .null,
            "capabilities": ["general": ["positionEncodings": [.string(encoding)]]],
            "initializationOptions": ruleSettings(&input, decorations: true),
        ])
        session.notify("initialized", [:])

        let uri = "file:///fuzz/document.txt"
        var mirror = TextBuffer(utf8: Array(text(&input, pieces: 1 + input.choose(12)).utf8))
        var version = 1
        session.notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "plaintext",
                                                                 "version": .integer(version), "text": .string(mirror.text)]])
        var tokens = TokenState()
        var freshCount = 0
        for _ in 0..<(1 + input.choose(24)) where !input.isExhausted {
            version += input.choose(5) - 1  // Out of order now and then.
            switch input.choose(10) {
            case 0:
                // Replace the whole text.
                let replacement = text(&input, pieces: input.choose(10))
                mirror = TextBuffer(utf8: Array(replacement.utf8))
                session.notify("textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": .integer(version)],
                                                          "contentChanges": [["text": .string(replacement)]]])
            case 1:
                session.notify("workspace/didChangeConfiguration", ["settings": ["highlight": ruleSettings(&input, decorations: false)]])
                tokens = TokenState()
            case 2:
                // Opening again replaces the text.
                mirror = TextBuffer(utf8: Array(text(&input, pieces: input.choose(8)).utf8))
                session.notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "plaintext",
                                                                         "version": .integer(version), "text": .string(mirror.text)]])
                tokens = TokenState()
            default:
                var changes: [JSON] = []
                for _ in 0..<(1 + input.choose(3)) {
                    let start = Position(line: input.choose(mirror.lineIndex.lineCount + 2), character: input.choose(24))
                    let end = input.bool() ? start : Position(line: input.choose(mirror.lineIndex.lineCount + 2), character: input.choose(24))
                    let inserted = text(&input, pieces: input.choose(4))
                    changes.append(["range": ["start": start.json, "end": end.json], "text": .string(inserted)])
                    var startOffset = mirror.lineIndex.utf8Offset(of: start, encoding: session.encoding)
                    var endOffset = mirror.lineIndex.utf8Offset(of: end, encoding: session.encoding)
                    if startOffset > endOffset { swap(&startOffset, &endOffset) }
                    mirror.replace(utf8Range: startOffset..<endOffset, with: Array(inserted.utf8))
                }
                session.notify("textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": .integer(version)],
                                                          "contentChanges": .array(changes)])
            }
            if input.bool() { session.flush() }
            switch input.choose(4) {
            case 0: tokens.update(session.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(uri)]]), previous: nil)
            case 1:
                let previous = tokens.resultID
                tokens.update(session.request("textDocument/semanticTokens/full/delta", [
                    "textDocument": ["uri": .string(uri)], "previousResultId": .string(previous ?? "none"),
                ]), previous: previous)
            case 2:
                let end = Position(line: input.choose(mirror.lineIndex.lineCount + 1), character: input.choose(30))
                _ = session.request("textDocument/semanticTokens/range", ["textDocument": ["uri": .string(uri)],
                                                                          "range": ["start": Position(line: 0, character: 0).json, "end": end.json]])
            default:
                _ = session.request("highlight/decorations", ["textDocument": ["uri": .string(uri)]])
            }
            if input.choose(4) == 0 {
                freshCount += 1
                session.compare(uri, withFreshCopyOf: mirror, name: "file:///fuzz/fresh-\(freshCount).txt", tokens: tokens)
            }
        }
        freshCount += 1
        session.compare(uri, withFreshCopyOf: mirror, name: "file:///fuzz/fresh-\(freshCount).txt", tokens: tokens)
        _ = session.request("shutdown", nil)
        session.notify("exit", nil)
        return session.failures
    }

    static func text(_ input: inout FuzzInput, pieces count: Int) -> String {
        var text = ""
        for _ in 0..<count { text += input.pick(textPieces) ?? "" }
        return text
    }

    static func ruleSettings(_ input: inout FuzzInput, decorations: Bool) -> JSON {
        var rules: [JSON] = []
        for index in 0..<(1 + input.choose(5)) {
            var rule: [String: JSON] = ["name": .string("r\(index)")]
            if input.bool() {
                var words: [JSON] = []
                for _ in 0..<(1 + input.choose(3)) { words.append(.string(input.pick(wordPieces) ?? "x")) }
                rule["words"] = .array(words)
            } else {
                rule["regex"] = .string(input.pick(regexPieces) ?? "x")
            }
            if input.bool() { rule["caseSensitive"] = false }
            if input.bool() { rule["wholeWord"] = true }
            rules.append(.object(rule))
        }
        var settings: [String: JSON] = ["defaults": .bool(input.bool()), "rules": .array(rules)]
        if decorations { settings["decorations"] = true }
        return .object(settings)
    }
}

/// The semantic tokens the client holds, rebuilt from full answers and deltas.
struct TokenState {
    var resultID: String?
    var data: [Int]?

    mutating func update(_ answer: Result<JSON, ResponseError>?, previous: String?) {
        guard case .success(let result)? = answer else { return }
        if let full = result["data"]?.arrayValue {
            data = full.compactMap(\.integerValue)
        } else if let edits = result["edits"]?.arrayValue, var current = data, previous == resultID {
            for edit in edits.reversed() {
                let start = edit["start"]?.integerValue ?? -1
                let deleteCount = edit["deleteCount"]?.integerValue ?? -1
                guard start >= 0, deleteCount >= 0, start <= current.count, deleteCount <= current.count - start else {
                    data = nil
                    resultID = nil
                    return
                }
                current.replaceSubrange(start..<(start + deleteCount), with: edit["data"]?.arrayValue?.compactMap(\.integerValue) ?? [])
            }
            data = current
        } else {
            data = nil
        }
        resultID = result["resultId"]?.stringValue
    }
}

/// A server in process, driven synchronously: every request is answered before the next is sent.
struct FuzzSession {
    final class Outbox { var messages: [Message] = [] }
    let outbox = Outbox()
    let server: Server
    var encoding = PositionEncoding.utf16
    var nextID = 1
    var failures: [String] = []

    init() {
        let outbox = self.outbox
        server = Server(send: { message in
            _ = message.framedBytes
            outbox.messages.append(message)
        }, log: { _ in })
    }

    func notify(_ method: String, _ params: JSON?) {
        server.handle(.notification(method: method, params: params))
    }

    func flush() { server.flush() }

    /// Sends a request and returns its response; records a failure when there is not exactly one.
    mutating func request(_ method: String, _ params: JSON?) -> Result<JSON, ResponseError>? {
        let id = RequestID(nextID)
        nextID += 1
        outbox.messages.removeAll(keepingCapacity: true)
        server.handle(.request(id: id, method: method, params: params))
        var answers: [Result<JSON, ResponseError>] = []
        for case .response(id, let result) in outbox.messages { answers.append(result) }
        outbox.messages.removeAll(keepingCapacity: true)
        guard answers.count == 1 else {
            failures.append("\(method): \(answers.count) responses instead of one")
            return nil
        }
        if case .failure(let error) = answers[0], error.code == ResponseError.internalErrorCode {
            failures.append("\(method): internal error: \(error.message)")
        }
        return answers[0]
    }

    /// Opens `text` as a new document and checks that `uri` has the same matches and tokens.
    mutating func compare(_ uri: String, withFreshCopyOf text: TextBuffer, name: String, tokens: TokenState) {
        notify("textDocument/didOpen", ["textDocument": ["uri": .string(name), "languageId": "plaintext", "version": 1,
                                                         "text": .string(text.text)]])
        let edited = request("highlight/matches", ["textDocument": ["uri": .string(uri)]])
        let fresh = request("highlight/matches", ["textDocument": ["uri": .string(name)]])
        if case .success(let a)? = edited, case .success(let b)? = fresh, a != b {
            failures.append("matches after edits differ from a fresh copy of the text \(text.text.debugDescription):\n  edited: \(a.jsonText)\n  fresh:  \(b.jsonText)")
        }
        if case .success(let matches)? = fresh { checkMatches(matches, in: text) }
        let freshTokens = request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(name)]])
        if case .success(let result)? = freshTokens, let data = result["data"]?.arrayValue?.compactMap(\.integerValue) {
            checkTokens(data, in: text)
            if let held = tokens.data, tokens.resultID != nil {
                // The held tokens describe the text at the last token request; compare only when
                // that is the current text, i.e. ask for a delta now.
                let delta = request("textDocument/semanticTokens/full/delta", [
                    "textDocument": ["uri": .string(uri)], "previousResultId": .string(tokens.resultID ?? ""),
                ])
                var rebuilt = TokenState(resultID: tokens.resultID, data: held)
                rebuilt.update(delta, previous: tokens.resultID)
                if let rebuiltData = rebuilt.data, rebuiltData != data {
                    failures.append("tokens rebuilt from deltas differ from a fresh copy of \(text.text.debugDescription):\n  rebuilt: \(rebuiltData)\n  fresh:   \(data)")
                }
            }
        }
        notify("textDocument/didClose", ["textDocument": ["uri": .string(name)]])
    }

    /// Matches are sorted, do not overlap, lie inside the text and do not split a character.
    mutating func checkMatches(_ matches: JSON, in text: TextBuffer) {
        var previousEnd = 0
        for match in matches.arrayValue ?? [] {
            guard let range = match["utf8Range"]?.arrayValue, range.count == 2,
                  let start = range[0].integerValue, let end = range[1].integerValue else {
                failures.append("malformed match \(match.jsonText)")
                return
            }
            if start < previousEnd || end < start || end > text.utf8Count {
                failures.append("match \(start)..<\(end) out of order or out of bounds (text of \(text.utf8Count) bytes)")
            }
            for offset in [start, end] where offset < text.utf8Count && text.utf8[offset] & 0xC0 == 0x80 {
                failures.append("match \(start)..<\(end) splits a UTF-8 sequence")
            }
            previousEnd = end
        }
    }

    /// Tokens are five integers each, in order, non-empty and inside their line.
    mutating func checkTokens(_ data: [Int], in text: TextBuffer) {
        guard data.count % 5 == 0 else {
            failures.append("token data of \(data.count) integers")
            return
        }
        var line = 0
        var character = 0
        for token in stride(from: 0, to: data.count, by: 5) {
            if data[token] > 0 { character = 0 }
            line += data[token]
            character += data[token + 1]
            let length = data[token + 2]
            let lineLength = line < text.lineIndex.lineCount ? text.lineIndex.characterCount(ofLine: line, encoding: encoding) : -1
            if data[token] < 0 || data[token + 1] < 0 || length <= 0 || character + length > lineLength {
                failures.append("token \(line):\(character)+\(length) outside its line (\(lineLength) characters) in \(text.text.debugDescription)")
                return
            }
        }
    }
}

extension Position {
    var json: JSON { ["line": .integer(line), "character": .integer(character)] }
}
