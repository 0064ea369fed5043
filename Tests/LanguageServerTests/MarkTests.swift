import Foundation
import HighlightConfig
import JSONRPC
import JSONValue
import Testing
import TextIndex

@testable import LanguageServer

/// What the mark code actions pick up under a cursor or selection, and how a rule is written into `.highlights.json`.
@Suite struct MarkTests {
    // MARK: The word under the cursor

    /// `|` marks the cursor, or `[` and `]` a selection; nil means no mark action.
    static let targets: [(text: String, expected: String?, wholeWord: Bool)] = [
        ("dead|line today", "deadline", true),
        ("|deadline today", "deadline", true),
        ("deadline| today", "deadline", true),
        ("deadline |today", "today", true),
        ("a  |  b", nil, false),
        ("|", nil, false),
        ("   |", nil, false),
        ("x = café|;", "café", true),
        ("naïve_snake|_case()", "naïve_snake_case", true),
        ("call(|)", nil, false),
        ("see [a.b(c)] here", "a.b(c)", false),
        ("[   ]", nil, false),
        ("[ two words ]", " two words ", false),
        ("😀 [é€] x", "é€", false),
    ]

    @Test(arguments: targets.indices)
    func markTarget(_ index: Int) {
        let (marked, expected, wholeWord) = Self.targets[index]
        var text = marked
        var start = 0
        var end = 0
        if let cursor = marked.firstIndex(of: "|") {
            start = marked.utf16.distance(from: marked.startIndex, to: cursor)
            end = start
            text.remove(at: cursor)
        } else if let open = marked.firstIndex(of: "["), let close = marked.firstIndex(of: "]") {
            start = marked.utf16.distance(from: marked.startIndex, to: open)
            end = marked.utf16.distance(from: marked.startIndex, to: close) - 1
            text = marked.replacing("[", with: "").replacing("]", with: "")
        }
        let target = Server.markTarget(
            in: TextBuffer(text), from: Position(line: 0, character: start), to: Position(line: 0, character: end), encoding: .utf16)
        #expect(target?.text == expected, "\(marked)")
        if let target { #expect(target.wholeWord == wholeWord, "\(marked)") }
    }

    @Test func noMarkAcrossLinesOrBeyondTheLimit() {
        let text = TextBuffer("one\ntwo\n" + String(repeating: "x", count: SessionMarks.maximumTextUTF8Count + 1))
        #expect(Server.markTarget(in: text, from: Position(line: 0, character: 1), to: Position(line: 1, character: 1), encoding: .utf16) == nil)
        let long = Server.markTarget(
            in: text, from: Position(line: 2, character: 0), to: Position(line: 2, character: SessionMarks.maximumTextUTF8Count + 1),
            encoding: .utf16)
        #expect(long == nil)
        // The cursor in a word longer than the limit offers nothing either.
        #expect(Server.markTarget(in: text, from: Position(line: 2, character: 3), to: Position(line: 2, character: 3), encoding: .utf16) == nil)
    }

    // MARK: Session marks

    @Test func marksCycleThroughThePaletteAndNewestComeFirst() {
        var marks = SessionMarks()
        #expect(SessionMarks.palette.count >= 6)
        #expect(Set(SessionMarks.palette).count == SessionMarks.palette.count)
        for index in 0..<SessionMarks.palette.count {
            let mark = marks.add(text: "w\(index)", wholeWord: true)
            #expect(mark.slot == index + 1)
        }
        let same = marks.add(text: "w3", wholeWord: true)
        #expect(same.slot == 4, "the same text keeps its mark")
        // The next new mark takes the first colour again, and the old mark of that colour gives way.
        let again = marks.add(text: "again", wholeWord: false)
        #expect(again.slot == 1)
        #expect(marks.mark(text: "w0", wholeWord: true) == nil)
        #expect(marks.marks.first?.text == "again")
        #expect(marks.layer.rules.first?.name == "mark1")
        let removed = marks.remove(text: "again", wholeWord: false)
        let removedTwice = marks.remove(text: "again", wholeWord: false)
        #expect(removed && !removedTwice)
        marks.removeAll()
        #expect(marks.layer.rules.isEmpty)
        #expect(marks.layer.styles.count == SessionMarks.palette.count)
        let first = marks.add(text: "x", wholeWord: true)
        #expect(first.slot == 1)
    }

    @Test func aMarkWinsTiesAgainstEveryOtherLayer() {
        var marks = SessionMarks()
        _ = marks.add(text: "TODO", wholeWord: true)
        let config = HighlightConfiguration(layers: [marks.layer])
        let text = Array("x TODO y".utf8)
        let found = text.withUnsafeBufferPointer { config.ruleSet.matches(in: $0) }
        #expect(found.matches.map { config.rules[$0.ruleIndex].name } == ["mark1"])
    }

    // MARK: Writing a rule into .highlights.json

    static let rule = #"{ "name": "x", "words": ["x"] }"#

    /// The configuration text before and after the insertion of `rule`.
    static let insertions: [(name: String, before: String, after: String)] = [
        ("rules one per line, with comments and a trailing comma",
         "// team\n{\n  \"rules\": [ // ours\n    { \"name\": \"a\", \"words\": [\"a\"] },\n  ],\n}\n",
         "// team\n{\n  \"rules\": [\n    \(rule), // ours\n    { \"name\": \"a\", \"words\": [\"a\"] },\n  ],\n}\n"),
        ("rules on the bracket's line",
         "{ \"rules\": [ { \"name\": \"a\", \"words\": [\"a\"] } ] }",
         "{ \"rules\": [ \(rule), { \"name\": \"a\", \"words\": [\"a\"] } ] }"),
        ("empty rules",
         "{\n  \"rules\": []\n}\n",
         "{\n  \"rules\": [\n    \(rule)\n  ]\n}\n"),
        ("no rules, other keys on lines of their own",
         "{\n\t\"colors\": true, // yes\n}\n",
         "{\n\t\"rules\": [\n\t  \(rule)\n\t],\n\t\"colors\": true, // yes\n}\n"),
        ("no rules, keys on the brace's line",
         "{ \"colors\": true }",
         "{ \"rules\": [ \(rule) ], \"colors\": true }"),
        ("an empty object",
         "{}",
         "{\n  \"rules\": [\n    \(rule)\n  ]\n}"),
    ]

    @Test(arguments: insertions.indices)
    func insertion(_ index: Int) throws {
        let (name, before, after) = Self.insertions[index]
        let insertion = try #require(MarkRuleInsertion.insertion(ofRule: Self.rule, into: Array(before.utf8)), "\(name)")
        var bytes = Array(before.utf8)
        bytes.insert(contentsOf: Array(insertion.text.utf8), at: insertion.utf8Offset)
        let result = String(decoding: bytes, as: UTF8.self)
        #expect(result == after, "\(name)")
        // The result means the old configuration plus the new rule, first.
        let old = try JSONParser.parse(before, options: .lenient)
        let new = try JSONParser.parse(result, options: .lenient)
        var rules = new["rules"]?.arrayValue ?? []
        #expect(rules.first?["name"]?.stringValue == "x", "\(name)")
        if !rules.isEmpty { rules.removeFirst() }
        var members = new.objectValue ?? [:]
        members["rules"] = old["rules"] == nil ? nil : .array(rules)
        #expect(JSON.object(members) == old, "\(name)")
    }

    @Test func noInsertionIntoWhatIsNotAnObjectWithAnArrayOfRules() {
        for text in ["[]", "{ \"rules\": {} }", "{ \"rules\": [", "", "// only a comment"] {
            #expect(MarkRuleInsertion.insertion(ofRule: Self.rule, into: Array(text.utf8)) == nil, "\(text)")
        }
    }

    @Test func ruleNamesAreReadableAndUnused() {
        #expect(MarkRuleInsertion.ruleName(for: "Deadline", taken: []) == "deadline")
        #expect(MarkRuleInsertion.ruleName(for: "a.b(c)", taken: []) == "a-b-c")
        #expect(MarkRuleInsertion.ruleName(for: "release_date", taken: []) == "release-date")
        #expect(MarkRuleInsertion.ruleName(for: "42", taken: []) == "word-42")
        #expect(MarkRuleInsertion.ruleName(for: "日本", taken: []) == "word")
        #expect(MarkRuleInsertion.ruleName(for: "todo", taken: ["todo", "todo-2"]) == "todo-3")
        // Every name is one the configuration accepts.
        for text in ["Deadline", "a.b(c)", "42", "日本", "--x--", String(repeating: "ab ", count: 50)] {
            let name = MarkRuleInsertion.ruleName(for: text, taken: [])
            let rule = MarkRuleInsertion.ruleText(name: name, text: text, wholeWord: false, style: SessionMarks.palette[0])
            let (layer, diagnostics) = ConfigLayer.parse(fileContents: Array(MarkRuleInsertion.newFileText(rule: rule).utf8), source: "test")
            #expect(diagnostics.isEmpty, "\(text): \(diagnostics)")
            #expect(layer?.rules.first?.name == name)
            #expect(layer?.rules.first?.pattern == .words([text]))
        }
    }
}

/// The action that writes a rule into `.highlights.json` reads the file as every configuration file
/// is read: something in its place that is no regular file is refused at once, and no action is offered.
@Suite struct MarkRuleFileTests {
    @Test func aFIFOInPlaceOfTheFileIsRefusedNotWaitedOn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("highlight-ls-mark-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".git"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(mkfifo(folder.appendingPathComponent(".highlights.json").path, 0o644) == 0)
        var logged: [String] = []
        var answers: [JSON] = []
        let server = Server(send: { message in
            if case .response(_, .success(let result)) = message { answers.append(result) }
        }, log: { logged.append($0) })
        let root: JSON = .string(folder.absoluteString)
        server.handle(.request(id: RequestID(1), method: "initialize", params: [
            "processId": .null, "rootUri": root, "capabilities": ["textDocument": ["codeAction": ["codeActionLiteralSupport": [:]]],
                                                                  "workspace": ["workspaceEdit": ["documentChanges": true]]],
        ]))
        server.handle(.notification(method: "initialized", params: [:]))
        let uri: JSON = .string(folder.appendingPathComponent("a.txt").absoluteString)
        server.handle(.notification(method: "textDocument/didOpen", params: [
            "textDocument": ["uri": uri, "languageId": "plaintext", "version": 1, "text": "deadline today\n"],
        ]))
        answers.removeAll()
        server.handle(.request(id: RequestID(2), method: "textDocument/codeAction", params: [
            "textDocument": ["uri": uri], "range": ["start": ["line": 0, "character": 2], "end": ["line": 0, "character": 2]],
            "context": ["diagnostics": []],
        ]))
        let titles = (answers.last?.arrayValue ?? []).compactMap { $0["title"]?.stringValue }
        #expect(titles.contains("Highlight «deadline»"))
        #expect(!titles.contains { $0.hasSuffix("in .highlights.json") }, "\(titles)")
        #expect(logged.contains { $0.contains("no rule is written into it") })
    }

    /// A workspace with `.highlights.json` made by `make`, a document, and a server whose client
    /// announced `capabilities`; returns the answers and requests the server sent.
    final class Session {
        /// What the server sent and logged.
        final class Recorder {
            var answers: [JSON] = []
            var requests: [(method: String, params: JSON?)] = []
            var logged: [String] = []
        }

        let folder: URL
        let server: Server
        let recorder = Recorder()
        let documentURI: JSON

        init(capabilities: JSON) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("highlight-ls-mark-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("ws/.git"), withIntermediateDirectories: true)
            documentURI = .string(folder.appendingPathComponent("ws/a.txt").absoluteString)
            let recorder = recorder
            server = Server(send: { message in
                switch message {
                case .response(_, .success(let result)): recorder.answers.append(result)
                case .request(_, let method, let params): recorder.requests.append((method, params))
                default: break
                }
            }, log: { recorder.logged.append($0) })
            server.handle(.request(id: RequestID(1), method: "initialize", params: [
                "processId": .null, "rootUri": .string(folder.appendingPathComponent("ws").absoluteString), "capabilities": capabilities,
            ]))
            server.handle(.notification(method: "initialized", params: [:]))
            server.handle(.notification(method: "textDocument/didOpen", params: [
                "textDocument": ["uri": documentURI, "languageId": "plaintext", "version": 1, "text": "deadline today\n"],
            ]))
        }

        var lastAnswer: JSON? { recorder.answers.last }
        var sentRequests: [(method: String, params: JSON?)] { recorder.requests }
        var logLines: [String] { recorder.logged }

        var configPath: String { folder.appendingPathComponent("ws/.highlights.json").path }

        /// The code actions offered on "deadline".
        func codeActions() -> [JSON] {
            server.handle(.request(id: RequestID(2), method: "textDocument/codeAction", params: [
                "textDocument": ["uri": documentURI], "range": ["start": ["line": 0, "character": 2], "end": ["line": 0, "character": 2]],
                "context": ["diagnostics": []],
            ]))
            return lastAnswer?.arrayValue ?? []
        }

        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    static let literalClient: JSON = ["textDocument": ["codeAction": ["codeActionLiteralSupport": [:]]],
                                      "workspace": ["workspaceEdit": ["documentChanges": true]]]

    /// Applies the one text edit of a `WorkspaceEdit` to `text` as a client sees it: with the byte
    /// order mark kept as the first character of the first line, or stripped.
    static func apply(_ edit: JSON, to bytes: [UInt8], keepingByteOrderMark: Bool) -> [UInt8] {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let text = keepingByteOrderMark || !bytes.starts(with: mark) ? bytes : Array(bytes.dropFirst(3))
        let change = edit["documentChanges"]?.arrayValue?.first?["edits"]?.arrayValue?.first
        guard let change, let range = change["range"], let newText = change["newText"]?.stringValue else { return text }
        func offset(_ position: JSON?) -> Int {
            LineIndex(utf8: text).utf8Offset(
                of: Position(line: position?["line"]?.integerValue ?? 0, character: position?["character"]?.integerValue ?? 0), encoding: .utf16)
        }
        let start = offset(range["start"])
        let end = offset(range["end"])
        return Array(text[0..<start]) + Array(newText.utf8) + Array(text[end..<text.count])
    }

    static let rules = #"{"name": "first", "words": ["a"]}, {"name": "second", "words": ["b"]}"#
    /// Files that can take a rule, and how each is written on disk.
    static let editable: [(name: String, bytes: [UInt8])] = [
        ("lines", Array("{\n  \"rules\": [\n    \(rules)\n  ]\n}\n".utf8)),
        ("lines after a byte order mark", [0xEF, 0xBB, 0xBF] + Array("{\n  \"rules\": [\n    \(rules)\n  ]\n}\n".utf8)),
        ("one line", Array("{\"rules\": [\(rules)]}".utf8)),
        ("one line after a byte order mark", [0xEF, 0xBB, 0xBF] + Array("{\"rules\": [\(rules)]}".utf8)),
        ("one line of CJK after a byte order mark", [0xEF, 0xBB, 0xBF] + Array("{\"rules\": [{\"name\": \"first\", \"words\": [\"日本😀\"]}, {\"name\": \"second\", \"words\": [\"b\"]}]}".utf8)),
    ]

    /// Every variant gives valid JSON with every rule kept, for clients that keep the mark and clients that strip it.
    @Test(arguments: editable.indices)
    func theRuleEditKeepsTheFileValid(_ index: Int) throws {
        let (name, bytes) = Self.editable[index]
        let session = try Session(capabilities: Self.literalClient)
        try Data(bytes).write(to: URL(fileURLWithPath: session.configPath))
        let action = session.codeActions().first { $0["title"]?.stringValue?.hasSuffix("in .highlights.json") == true }
        let edit = try #require(action?["edit"], "\(name): no action")
        for keep in [true, false] {
            var result = Self.apply(edit, to: bytes, keepingByteOrderMark: keep)
            if result.starts(with: [0xEF, 0xBB, 0xBF]) { result.removeFirst(3) }
            let names = MarkRuleInsertion.ruleNames(in: result)
            #expect(names == ["first", "second", "deadline"], "\(name), keeping the mark: \(keep): \(String(decoding: result, as: UTF8.self))")
        }
    }

    /// The file is read when the action is asked for: a change on disk since an earlier request is built on.
    @Test func theEditFollowsTheFileOnDisk() throws {
        let session = try Session(capabilities: Self.literalClient)
        try Data("{\"rules\": []}".utf8).write(to: URL(fileURLWithPath: session.configPath))
        _ = session.codeActions()
        let changed = Array("// changed\n{\n  \"rules\": [\n    \(Self.rules)\n  ]\n}\n".utf8)
        try Data(changed).write(to: URL(fileURLWithPath: session.configPath))
        let edit = try #require(session.codeActions().first { $0["edit"] != nil }?["edit"])
        #expect(MarkRuleInsertion.ruleNames(in: Self.apply(edit, to: changed, keepingByteOrderMark: false)) == ["first", "second", "deadline"])
    }

    /// What cannot be edited safely in place of the file: no action, and the log says why.
    static let refused: [(name: String, make: @Sendable (String, URL) throws -> Void, logged: String)] = [
        ("too large", { path, _ in try Data(("{\"rules\": []}" + String(repeating: " ", count: 5 << 20)).utf8).write(to: URL(fileURLWithPath: path)) },
         "larger than"),
        ("a directory", { path, _ in try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) }, "directory"),
        ("a dangling link", { path, _ in _ = symlink("missing.json", path) }, "dangling"),
        ("a link out of the folder", { path, root in
            let outside = root.appendingPathComponent("outside.json")
            try Data("{\"rules\": []}".utf8).write(to: outside)
            _ = symlink(outside.path, path)
        }, "outside"),
    ]

    @Test(arguments: refused.indices)
    func noActionWhereTheFileCannotBeEditedSafely(_ index: Int) throws {
        let (name, make, logged) = Self.refused[index]
        let session = try Session(capabilities: Self.literalClient)
        try make(session.configPath, session.folder)
        let titles = session.codeActions().compactMap { $0["title"]?.stringValue }
        #expect(titles.contains("Highlight «deadline»"), "\(name)")
        #expect(!titles.contains { $0.hasSuffix("in .highlights.json") }, "\(name): \(titles)")
        #expect(session.logLines.contains { $0.contains(logged) }, "\(name): \(session.logLines)")
    }

    /// A client without code action literals gets a command that makes the same edit when it runs,
    /// through `workspace/applyEdit`; one that cannot apply edits gets no such action.
    @Test func aClientWithoutLiteralsGetsACommand() throws {
        let commandClient: JSON = ["workspace": ["applyEdit": true, "workspaceEdit": ["documentChanges": true]]]
        let session = try Session(capabilities: commandClient)
        let bytes = Array("{\"rules\": [\(Self.rules)]}".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: session.configPath))
        let action = try #require(session.codeActions().first { $0["title"]?.stringValue?.hasSuffix("in .highlights.json") == true })
        #expect(action["command"]?.stringValue == MarkCommand.addRule)
        #expect(action["edit"] == nil && action["kind"] == nil)
        session.server.handle(.request(id: RequestID(3), method: "workspace/executeCommand", params: [
            "command": .string(MarkCommand.addRule), "arguments": action["arguments"] ?? [],
        ]))
        let applied = try #require(session.sentRequests.last { $0.method == "workspace/applyEdit" }?.params?["edit"])
        #expect(MarkRuleInsertion.ruleNames(in: Self.apply(applied, to: bytes, keepingByteOrderMark: false)) == ["first", "second", "deadline"])

        let plain = try Session(capabilities: [:])
        try Data(bytes).write(to: URL(fileURLWithPath: plain.configPath))
        #expect(!plain.codeActions().contains { $0["title"]?.stringValue?.hasSuffix("in .highlights.json") == true })
    }
}
