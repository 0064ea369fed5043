import Foundation
import JSONRPC
import JSONValue
import Seeded
import Synchronization
import Testing

@testable import LanguageServer

/// Edits, workspace searches, cancellations, configuration changes and large documents,
/// interleaved in a seeded order with jobs that finish in any order: every request is answered
/// exactly once, no answer mixes two configurations, and every document ends equal to a fresh copy.
@Suite struct BackgroundJobsTests {
    /// Two configurations: one lists `alpha` (AAA), the other `beta` (BBB).
    static func settings(_ name: String) -> JSON {
        let word = name == "alpha" ? "AAA" : "BBB"
        return ["settings": ["highlight": ["defaults": false, "rules": [["name": .string(name), "words": [.string(word)], "list": true]]]]]
    }

    @Test(arguments: UInt64(1)...12)
    func interleavedWorkKeepsEveryPromise(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("highlight-ls-jobs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for index in 0..<30 { try Data("x AAA y BBB \(index)\n".utf8).write(to: root.appendingPathComponent("f\(index).txt")) }

        let jobs = ManualJobs()
        let outbox = Outbox()
        let server = jobs.server(sendingTo: outbox)
        server.backgroundOpenUTF8Count = 4_096
        var nextID = 1
        func request(_ method: String, _ params: JSON) -> RequestID {
            let id = RequestID(nextID)
            nextID += 1
            server.handle(.request(id: id, method: method, params: params))
            return id
        }
        _ = request("initialize", ["rootUri": .string(root.absoluteString), "capabilities": [:]])
        server.handle(.notification(method: "initialized", params: [:]))
        server.handle(.notification(method: "workspace/didChangeConfiguration", params: Self.settings("alpha")))

        var activeRule = "alpha"
        var ruleAtRequest: [RequestID: String] = [:]
        var requested: [RequestID] = []
        var texts: [String: String] = [:]
        var versions: [String: Int] = [:]
        let pieces = ["AAA", "BBB", " ", "x", "\n", "é", "👍"]

        for _ in 0..<120 {
            switch random.next(below: 10) {
            case 0, 1, 2:
                // Type into a small document, or open one.
                let uri = root.appendingPathComponent("f\(random.next(below: 4)).txt").absoluteString
                if let text = texts[uri] {
                    let inserted = pieces[random.next(below: pieces.count)]
                    versions[uri, default: 1] += 1
                    server.handle(.notification(method: "textDocument/didChange", params: [
                        "textDocument": ["uri": .string(uri), "version": .integer(versions[uri] ?? 1)],
                        "contentChanges": [["range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]],
                                            "text": .string(inserted)]],
                    ]))
                    texts[uri] = inserted + text
                } else {
                    texts[uri] = "AAA open BBB\n"
                    server.handle(.notification(method: "textDocument/didOpen", params: [
                        "textDocument": ["uri": .string(uri), "languageId": "plaintext", "version": 1, "text": "AAA open BBB\n"]]))
                }
            case 3:
                // A document large enough to be opened by a job, then asked for its matches.
                let uri = "file:///large-\(random.next(below: 2)).txt"
                let text = String(repeating: "AAA BBB\n", count: server.backgroundOpenUTF8Count / 8 + 1)
                texts[uri] = text
                server.handle(.notification(method: "textDocument/didOpen", params: [
                    "textDocument": ["uri": .string(uri), "languageId": "plaintext", "version": 1, "text": .string(text)]]))
                let id = request("highlight/matches", ["textDocument": ["uri": .string(uri)]])
                requested.append(id)
            case 4, 5:
                let id = request("workspace/symbol", ["query": ""])
                ruleAtRequest[id] = activeRule
                requested.append(id)
            case 6:
                if let id = requested.randomElement(using: &random) {
                    server.handle(.notification(method: "$/cancelRequest", params: ["id": id.json]))
                }
            case 7:
                activeRule = activeRule == "alpha" ? "beta" : "alpha"
                server.handle(.notification(method: "workspace/didChangeConfiguration", params: Self.settings(activeRule)))
            default:
                // Finish a pending job, not necessarily the oldest.
                let job = jobs.pending.withLock { pending -> ManualJobs.Job? in
                    pending.isEmpty ? nil : pending.remove(at: random.next(below: pending.count))
                }
                if let job { server.finishJob(job.id, result: job.work()) }
            }
        }
        jobs.runAll(on: server)
        server.flush()

        var answers: [RequestID: [Result<JSON, ResponseError>]] = [:]
        for message in outbox.messages {
            if case .response(let id, let result) = message { answers[id, default: []].append(result) }
        }
        for id in requested {
            #expect(answers[id]?.count == 1, "seed \(seed): request \(id) answered \(answers[id]?.count ?? 0) times")
        }
        for (id, rule) in ruleAtRequest {
            guard case .success(let symbols)? = answers[id]?.first else { continue }
            let rules = Set((symbols.arrayValue ?? []).compactMap { $0["containerName"]?.stringValue })
            #expect(rules.isSubset(of: [rule]), "seed \(seed): request \(id) under \(rule) listed \(rules.sorted())")
        }

        // Every open document equals a fresh copy of its expected text: same matches from a new server.
        for (uri, text) in texts {
            let freshOutbox = Outbox()
            let check = Server(send: { freshOutbox.messages.append($0) }, log: { _ in })
            check.handle(.request(id: RequestID(1), method: "initialize", params: ["rootUri": .string(root.absoluteString), "capabilities": [:]]))
            check.handle(.notification(method: "workspace/didChangeConfiguration", params: Self.settings(activeRule)))
            check.handle(.notification(method: "textDocument/didOpen", params: [
                "textDocument": ["uri": .string(uri), "languageId": "plaintext", "version": 1, "text": .string(text)]]))
            check.handle(.request(id: RequestID(2), method: "highlight/matches", params: ["textDocument": ["uri": .string(uri)]]))
            let id = request("highlight/matches", ["textDocument": ["uri": .string(uri)]])
            let expected = freshOutbox.messages.compactMap { message -> JSON? in
                if case .response(RequestID(2), .success(let result)) = message { result } else { nil }
            }.first
            let actual = outbox.messages.compactMap { message -> JSON? in
                if case .response(id, .success(let result)) = message { result } else { nil }
            }.first
            #expect(actual != nil && actual == expected, "seed \(seed): \(uri) differs from a fresh copy")
        }
    }
}
