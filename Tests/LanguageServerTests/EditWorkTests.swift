import JSONRPC
import JSONValue
import Testing

@testable import LanguageServer

/// A keystroke costs what it changes: the same edit in the middle of a 100,000-line document does
/// the same work as in a 10-line one, for every request an editor sends after it. The work is
/// counted (bytes searched, matches found, segments converted, token integers and decoration
/// ranges encoded), not timed, so the test is exact on any machine.
@Suite struct EditWorkTests {
    /// The configurations an edit is tried under: `initializationOptions` and the language.
    static let configurations: [(name: String, options: JSON, languageID: String)] = [
        ("built-in rules, Swift (scoped to comments)", [:], "swift"),
        ("built-in rules, plain text (no syntax: scopes match anywhere)", [:], "plaintext"),
        ("a single-line rule", ["rules": [["name": "ticket", "regex": #"\b[A-Z]{2,}-[0-9]+\b"#, "severity": "warning"]]], "swift"),
        ("a rule spanning one line break", ["rules": [["name": "next", "regex": #"TODO[^\n]*\n[ \t]*//[^\n]*"#]]], "swift"),
        ("a scoped rule (comments only)", ["rules": [["name": "fix", "words": ["fix"], "scope": "comments"]]], "swift"),
    ]

    /// Line `i` of a test document: a comment with a TODO and a ticket on every third line, code
    /// with a comment on the others. Lines `i` and `i + 3k` have the same shape.
    static func line(_ index: Int) -> String {
        index % 3 == 0 ? "    // TODO: fix AB-\(index % 97) here\n" : "    let value = compute(\(index % 97)) // ok\n"
    }

    /// A test client: drives a server in process and keeps what it sends.
    final class Client {
        private(set) var server: Server!
        private(set) var received: [Message] = []
        private var nextID = 1

        /// A server with `options` as its `highlight` initialization options, over the folder `rootURI` (none for null).
        init(options: JSON, rootURI: JSON = .null) {
            server = Server(send: { [unowned self] in received.append($0) }, log: { _ in })
            _ = request("initialize", [
                "processId": .null, "rootUri": rootURI, "initializationOptions": ["highlight": options, "decorations": ["delta": true]],
                "capabilities": ["textDocument": ["diagnostic": [:], "documentSymbol": ["hierarchicalDocumentSymbolSupport": true]]],
            ])
            notify("initialized", [:])
        }

        func notify(_ method: String, _ params: JSON) {
            server.handle(.notification(method: method, params: params))
        }

        /// The result of a request; nil for an error.
        func request(_ method: String, _ params: JSON) -> JSON? {
            let id = RequestID(nextID)
            nextID += 1
            received.removeAll()
            server.handle(.request(id: id, method: method, params: params))
            for case .response(id, .success(let result)) in received { return result }
            return nil
        }

        /// The decorations notifications the next flush sends.
        func flush() -> [JSON] {
            received.removeAll()
            server.flush()
            return received.compactMap { message in
                guard case .notification("highlight/publishDecorations", let params) = message else { return nil }
                return params
            }
        }
    }

    /// What one request after an edit costs.
    struct Cost: Equatable, CustomStringConvertible {
        var searchedUTF8Count: Int
        var matchesFound: Int
        var segmentsConverted: Int
        var encoded: Int

        var description: String {
            "searched \(searchedUTF8Count) B, found \(matchesFound), converted \(segmentsConverted), encoded \(encoded)"
        }
    }

    /// The cost of each request kind after typing (or deleting) a character on line `line` of a
    /// document of `lineCount` lines, averaged over four edits, and the work of the edits themselves.
    static func costs(of configuration: (name: String, options: JSON, languageID: String), lineCount: Int, line: Int) -> [String: Cost] {
        let client = Client(options: configuration.options)
        let uri: JSON = .string("file:///highlight-ls-edit-work/document")
        let text = (0..<lineCount).map(Self.line).joined()
        client.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": .string(configuration.languageID), "version": 1, "text": .string(text)]])
        var resultID = client.request("textDocument/semanticTokens/full", ["textDocument": ["uri": uri]])?["resultId"] ?? .null
        _ = client.flush()
        var costs: [String: Cost] = [:]
        func measure(_ name: String, encoded: KeyPath<WorkCounts, Int>?, _ body: () -> Void) {
            let before = client.server.work
            body()
            let after = client.server.work
            var cost = costs[name] ?? Cost(searchedUTF8Count: 0, matchesFound: 0, segmentsConverted: 0, encoded: 0)
            cost.searchedUTF8Count += after.searchedUTF8Count - before.searchedUTF8Count
            cost.matchesFound += after.matchesFound - before.matchesFound
            cost.segmentsConverted += after.segmentsConverted - before.segmentsConverted
            if let encoded { cost.encoded += after[keyPath: encoded] - before[keyPath: encoded] }
            #expect(after.fullRecomputations == before.fullRecomputations, "\(configuration.name): \(name) recomputed the document")
            costs[name] = cost
        }
        let textDocument: JSON = ["uri": uri]
        for version in 2...5 {
            let typing = version % 2 == 0
            let range: JSON = ["start": ["line": .integer(line), "character": 8], "end": ["line": .integer(line), "character": typing ? 8 : 9]]
            measure("edit", encoded: nil) {
                client.notify("textDocument/didChange", [
                    "textDocument": ["uri": uri, "version": .integer(version)], "contentChanges": [["range": range, "text": typing ? "x" : ""]],
                ])
            }
            measure("semanticTokens/full/delta", encoded: \.tokenIntegersEncoded) {
                let delta = client.request("textDocument/semanticTokens/full/delta", ["textDocument": textDocument, "previousResultId": resultID])
                #expect(delta?["edits"] != nil, "\(configuration.name): a delta, not the full result")
                resultID = delta?["resultId"] ?? .null
            }
            measure("decorations", encoded: \.decorationRangesEncoded) {
                let published = client.flush()
                #expect(published.count == 1 && published.first?["edit"] != nil, "\(configuration.name): decorations of the changed lines")
            }
            let window: JSON = ["start": ["line": .integer(line - 2), "character": 0], "end": ["line": .integer(line + 3), "character": 0]]
            measure("semanticTokens/range", encoded: \.tokenIntegersEncoded) {
                _ = client.request("textDocument/semanticTokens/range", ["textDocument": textDocument, "range": window])
            }
            // These answer for the whole document, so their output grows with it; what they must
            // not do is search or convert it again.
            for method in ["textDocument/diagnostic", "textDocument/documentSymbol", "highlight/matches", "highlight/decorations"] {
                measure(method, encoded: nil) { _ = client.request(method, ["textDocument": textDocument]) }
            }
            measure("semanticTokens/full", encoded: nil) {
                resultID = client.request("textDocument/semanticTokens/full", ["textDocument": textDocument])?["resultId"] ?? .null
            }
        }
        return costs
    }

    @Test(arguments: configurations.indices)
    func anEditInALargeDocumentCostsWhatItDoesInASmallOne(_ index: Int) {
        let configuration = Self.configurations[index]
        // The same line shapes in both: code (line ≡ 2 mod 3) and a comment with a TODO (≡ 0).
        for (smallLine, largeLine) in [(5, 50_000), (3, 50_001)] {
            let small = Self.costs(of: configuration, lineCount: 10, line: smallLine)
            let large = Self.costs(of: configuration, lineCount: 100_000, line: largeLine)
            #expect(small.keys == large.keys)
            for (name, smallCost) in small.sorted(by: { $0.key < $1.key }) {
                guard let largeCost = large[name] else { continue }
                let context = Comment(rawValue: "\(configuration.name), line \(largeLine), \(name): 10 lines \(smallCost); 100,000 lines \(largeCost)")
                // Within a small constant: the lines around the edit have the same shape, and
                // numbers of a few more digits.
                #expect(largeCost.searchedUTF8Count <= 2 * smallCost.searchedUTF8Count + 256, context)
                #expect(largeCost.matchesFound <= 2 * smallCost.matchesFound + 8, context)
                #expect(largeCost.segmentsConverted <= 2 * smallCost.segmentsConverted + 8, context)
                #expect(largeCost.encoded <= 2 * smallCost.encoded + 64, context)
            }
            // The edit itself searched something: the counters are live.
            #expect((large["edit"]?.searchedUTF8Count ?? 0) > 0, "\(configuration.name)")
        }
    }

    /// An edit that cannot be followed recomputes in full and says why at debug level, to a
    /// client that asked for a verbose trace only.
    @Test(arguments: [true, false])
    func aRecomputationIsLoggedAtDebugLevel(verbose: Bool) {
        var logged: [String] = []
        let server = Server(send: { _ in }, log: { logged.append($0) })
        server.handle(.request(id: RequestID(1), method: "initialize", params: [
            "processId": .null, "rootUri": .null, "capabilities": [:], "trace": verbose ? "verbose" : "off",
            "initializationOptions": ["highlight": ["rules": [["name": "block", "regex": "(?s)BEGIN.*END"]]]],
        ]))
        server.handle(.notification(method: "initialized", params: [:]))
        let uri: JSON = "file:///highlight-ls-edit-work/document"
        server.handle(.notification(method: "textDocument/didOpen", params: [
            "textDocument": ["uri": uri, "languageId": "plaintext", "version": 1, "text": "BEGIN\nx\nEND\n"],
        ]))
        server.handle(.request(id: RequestID(2), method: "textDocument/semanticTokens/full", params: ["textDocument": ["uri": uri]]))
        server.handle(.notification(method: "textDocument/didChange", params: [
            "textDocument": ["uri": uri, "version": 2],
            "contentChanges": [["range": ["start": ["line": 1, "character": 0], "end": ["line": 1, "character": 0]], "text": "y"]],
        ]))
        let lines = logged.filter { $0.hasPrefix("[debug]") && $0.contains("recomputed in full") }
        #expect(lines.count == (verbose ? 1 : 0), "\(logged)")
        #expect(lines.allSatisfy { $0.contains("span any number of lines") })
    }

    /// The counters see a whole-document recomputation: a change of the whole text searches it all.
    @Test func aFullRecomputationIsCounted() {
        let client = Client(options: [:])
        let uri: JSON = "file:///highlight-ls-edit-work/document"
        let text = (0..<1_000).map(Self.line).joined()
        client.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "plaintext", "version": 1, "text": .string(text)]])
        _ = client.request("textDocument/semanticTokens/full", ["textDocument": ["uri": uri]])
        let before = client.server.work
        client.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [["text": .string(text)]]])
        _ = client.request("textDocument/semanticTokens/full", ["textDocument": ["uri": uri]])
        let after = client.server.work
        #expect(after.fullRecomputations == before.fullRecomputations + 1)
        #expect(after.searchedUTF8Count - before.searchedUTF8Count >= text.utf8.count)
        #expect(after.segmentsConverted - before.segmentsConverted >= 1_000 / 3)
    }
}

extension EditWorkTests {
    /// Deadlines in diagnostics cost what the markers with a group of fields are, not every match: with the built-in
    /// rules (no severity), a keystroke's diagnostics look at the one dated marker, in a 30,000-line document full of
    /// TODOs as in a 10-line one, and a marker given a deadline by an edit is found by that edit.
    @Test func deadlineDiagnosticsLookOnlyAtMarkersWithAGroup() {
        for lineCount in [10, 30_000] {
            let client = Client(options: [:])
            let uri: JSON = .string("file:///highlight-ls-edit-work/deadlines.py")
            let text = (0..<lineCount).map { $0 == 5 ? "# FIXME(alice, 2020-01-01): overdue\n" : "# TODO: line \($0)\n" }.joined()
            client.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "python", "version": 1, "text": .string(text)]])
            let first = client.request("textDocument/diagnostic", ["textDocument": ["uri": uri]])
            #expect(first?["items"]?.arrayValue?.count == 1, "\(lineCount) lines")
            for version in 2...4 {
                let before = client.server.work.diagnosticCandidates
                // Give the TODO of line 7 a deadline, then take it away, then give it again.
                let dated = version % 2 == 0
                client.notify("textDocument/didChange", [
                    "textDocument": ["uri": uri, "version": .integer(version)],
                    "contentChanges": [["range": ["start": ["line": 7, "character": 6], "end": ["line": 7, "character": dated ? 6 : 18]],
                                        "text": dated ? "(2020-02-02)" : ""]],
                ])
                let items = client.request("textDocument/diagnostic", ["textDocument": ["uri": uri]])?["items"]?.arrayValue ?? []
                #expect(items.count == (dated ? 2 : 1), "\(lineCount) lines, version \(version)")
                #expect(client.server.work.diagnosticCandidates - before == (dated ? 2 : 1), "\(lineCount) lines, version \(version)")
            }
        }
    }
}
