import HighlightConfig
import JSONRPC
import JSONValue
import PatternEngine
import TextIndex

/// The commands the server runs through `workspace/executeCommand`.
enum MarkCommand {
    /// Marks a text for the session: arguments `[{"text": String, "wholeWord": Bool}]`.
    static let mark = "highlight.mark"
    /// Removes the session mark of a text: arguments as for `mark`.
    static let unmark = "highlight.unmark"
    /// Removes every session mark; no arguments.
    static let clearMarks = "highlight.clearMarks"
    /// Writes a rule for a text into `.highlights.json` through `workspace/applyEdit`, for a client
    /// that takes commands but not code action literals: arguments `[{"uri": String, "text":
    /// String, "wholeWord": Bool}]`, the document the rule is for and the text.
    static let addRule = "highlight.addRule"

    static let all = [mark, unmark, clearMarks, addRule]
}

/// What a code action would mark: the word under the cursor or a one-line selection.
struct MarkTarget: Equatable {
    /// The text to mark.
    var text: String
    /// True for the word under the cursor (whole word, its case); false for a literal selection.
    var wholeWord: Bool
    /// Where the text lies in the document, in UTF-8 bytes.
    var utf8Range: Range<Int>
}

extension Server {
    /// The code action kind of every mark action.
    static let markActionKind = "refactor.highlight"

    /// `textDocument/codeAction`: mark the word or selection for the session or in `.highlights.json`,
    /// remove a mark under the cursor, or remove them all. Nothing on blank text or across lines.
    func codeActionRequest(_ params: DocumentRangeParams) throws(ResponseError) -> JSON {
        let uri = try openDocument(params.uri)
        let range = params.range
        if let only = params.only,
           !only.contains(where: { Self.markActionKind == $0 || Self.markActionKind.hasPrefix($0 + ".") }) {
            return []
        }
        guard let document = documents[uri],
              let target = Self.markTarget(in: document.text, from: min(range.start, range.end), to: max(range.start, range.end), encoding: positionEncoding)
        else { return [] }

        var actions: [JSON] = []
        let argument: JSON = ["text": .string(target.text), "wholeWord": .bool(target.wholeWord)]
        let shown = Self.shortened(target.text)
        // A text marked in either way (word or literal) is not offered again; its removal is.
        if !configuration.sessionMarks.marks.contains(where: { $0.text == target.text }) {
            actions.append(markAction(title: "Highlight «\(shown)»", command: MarkCommand.mark, arguments: [argument]))
        }
        // A client that takes literals gets the edit itself; one that takes only commands gets a
        // command that makes the same edit when it runs, offered only when the edit can be made now.
        let ruleTitle = "Highlight «\(shown)» in \(ConfigFile.name)"
        if client.codeActionLiterals, let edit = markRuleFileEdit(forDocument: uri, target: target) {
            actions.append(["title": .string(ruleTitle), "kind": .string(Self.markActionKind), "edit": edit])
        } else if !client.codeActionLiterals, client.applyEdit, markRuleFileEdit(forDocument: uri, target: target) != nil {
            let ruleArgument: JSON = ["uri": .string(uri), "text": .string(target.text), "wholeWord": .bool(target.wholeWord)]
            actions.append(markAction(title: ruleTitle, command: MarkCommand.addRule, arguments: [ruleArgument]))
        }
        for mark in marks(at: target, inDocument: uri) {
            let markArgument: JSON = ["text": .string(mark.text), "wholeWord": .bool(mark.wholeWord)]
            actions.append(markAction(
                title: "Remove highlight «\(Self.shortened(mark.text))»", command: MarkCommand.unmark, arguments: [markArgument]))
        }
        if !configuration.sessionMarks.marks.isEmpty {
            actions.append(markAction(title: "Remove all highlights", command: MarkCommand.clearMarks, arguments: []))
        }
        return .array(actions)
    }

    /// `workspace/executeCommand` for the mark commands; every open and later-opened document follows.
    func executeCommandRequest(_ params: ExecuteCommandParams) throws(ResponseError) -> JSON {
        let command = params.command
        let argument = params.argument
        switch command {
        case MarkCommand.mark, MarkCommand.unmark:
            guard let text = argument.value(at: "text")?.stringValue else {
                throw .invalidParams("\(command): arguments[0].text must be a string")
            }
            let wholeWord = argument.value(at: "wholeWord")?.boolValue ?? false
            if command == MarkCommand.mark {
                guard Self.isMarkable(text) else {
                    throw .invalidParams("\(command): the text must be one line of at most \(SessionMarks.maximumTextUTF8Count) bytes, not blank")
                }
                let before = configuration.sessionMarks.marks
                _ = configuration.sessionMarks.add(text: text, wholeWord: wholeWord)
                if configuration.sessionMarks.marks == before { return .null }
            } else {
                guard configuration.sessionMarks.remove(text: text, wholeWord: wholeWord) else { return .null }
            }
        case MarkCommand.clearMarks:
            guard !configuration.sessionMarks.marks.isEmpty else { return .null }
            configuration.sessionMarks.removeAll()
        case MarkCommand.addRule:
            guard let uri = argument.value(at: "uri")?.stringValue, let text = argument.value(at: "text")?.stringValue,
                  Self.isMarkable(text) else {
                throw .invalidParams("\(command): arguments[0] must have a string uri and a markable text")
            }
            let target = MarkTarget(text: text, wholeWord: argument.value(at: "wholeWord")?.boolValue ?? false, utf8Range: 0..<0)
            // The edit is made against the file as it is now, when the command runs.
            guard let edit = markRuleFileEdit(forDocument: try openDocument(uri), target: target) else {
                throw .invalidParams("\(command): no rule can be written for \(uri) now; the server log says why")
            }
            sendRequest("workspace/applyEdit", params: ["label": .string("Highlight «\(Self.shortened(text))» in \(ConfigFile.name)"), "edit": edit])
            return .null
        default:
            throw .invalidParams("unknown command \"\(command)\"; the commands are \(MarkCommand.all.joined(separator: ", "))")
        }
        configurationChanged()
        return .null
    }

    /// A code action that runs a command, or the bare command for a client without code action literals.
    private func markAction(title: String, command: String, arguments: [JSON]) -> JSON {
        let command: JSON = ["title": .string(title), "command": .string(command), "arguments": .array(arguments)]
        guard client.codeActionLiterals else { return command }
        return ["title": .string(title), "kind": .string(Self.markActionKind), "command": command]
    }

    /// The session marks whose matches touch the target, or whose text is the target's.
    private func marks(at target: MarkTarget, inDocument uri: String) -> [SessionMarks.Mark] {
        let marks = configuration.sessionMarks
        guard !marks.marks.isEmpty else { return [] }
        var found: [SessionMarks.Mark] = []
        found += marks.marks.filter { $0.text == target.text }
        if let (_, config, list) = matches(ofDocument: uri) {
            let first = list.matches.partitionPoint { $0.utf8Range.upperBound >= target.utf8Range.lowerBound }
            for match in list.matches[first...] {
                if match.utf8Range.lowerBound > target.utf8Range.upperBound { break }
                guard config.rules.indices.contains(match.ruleIndex),
                      let mark = marks.mark(ruleName: config.rules[match.ruleIndex].name),
                      !found.contains(mark) else { continue }
                found.append(mark)
            }
        }
        return found
    }

    /// The word under a cursor (`start == end`) or the text of a one-line selection; nil on
    /// whitespace, a blank line, several lines, or a selection longer than a mark may be.
    static func markTarget(in text: TextBuffer, from start: Position, to end: Position, encoding: PositionEncoding) -> MarkTarget? {
        let index = text.lineIndex
        let startOffset = index.utf8Offset(of: start, encoding: encoding)
        let endOffset = index.utf8Offset(of: end, encoding: encoding)
        let line = index.line(containingUTF8Offset: startOffset)
        let lineRange = index.utf8ContentRange(ofLine: line)
        if startOffset < endOffset {
            guard endOffset <= lineRange.upperBound else { return nil }
            let selected = String(decoding: text.utf8[startOffset..<endOffset], as: UTF8.self)
            guard isMarkable(selected) else { return nil }
            return MarkTarget(text: selected, wholeWord: false, utf8Range: startOffset..<endOffset)
        }
        // The word is the run of word characters that holds the cursor or ends at it.
        let lineText = String(decoding: text.utf8[lineRange], as: UTF8.self)
        var runStart: Int?
        var offset = lineRange.lowerBound
        for scalar in lineText.unicodeScalars {
            let width = UTF8.width(scalar)
            if WordBoundary.isWordCharacter(scalar) {
                if runStart == nil { runStart = offset }
            } else {
                if let begin = runStart, begin <= startOffset, startOffset <= offset {
                    return wordTarget(in: text, begin..<offset)
                }
                runStart = nil
                if offset > startOffset { return nil }
            }
            offset += width
        }
        if let begin = runStart, begin <= startOffset, startOffset <= offset {
            return wordTarget(in: text, begin..<offset)
        }
        return nil
    }

    private static func wordTarget(in text: TextBuffer, _ range: Range<Int>) -> MarkTarget? {
        let word = String(decoding: text.utf8[range], as: UTF8.self)
        guard isMarkable(word) else { return nil }
        return MarkTarget(text: word, wholeWord: true, utf8Range: range)
    }

    /// Whether a text may be marked: not blank, one line, and not longer than the limit.
    static func isMarkable(_ text: String) -> Bool {
        text.utf8.count <= SessionMarks.maximumTextUTF8Count
            && !text.unicodeScalars.contains { $0 == "\n" || $0 == "\r" }
            && text.unicodeScalars.contains { !$0.properties.isWhitespace }
    }

    /// A text cut to 40 characters for a title.
    static func shortened(_ text: String) -> String {
        text.count <= 40 ? text : String(text.prefix(39)) + "…"
    }
}
