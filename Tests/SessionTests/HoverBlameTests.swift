import Foundation
import JSONRPC
import JSONValue
import Testing

@testable import LanguageServer

/// Hover's blame runs beside the loop: with the job held back, keystrokes and their tokens are answered at once, and
/// the hover is answered when git is; a second hover on the same version asks git nothing.
@Suite struct HoverBlameTests {
    /// A repository holding `a.py` (`text`), committed by Alice Doe on 2026-01-10.
    static func committedTree(_ text: String) throws -> URL {
        let root = try CommandLineTests.tree(["a.py": text])
        let environment = TestProcess.gitEnvironment(name: "Alice Doe", email: "alice@example.invalid", date: "2026-01-10T12:00:00Z")
        for arguments in [["init", "-q", "-b", "main"], ["add", "a.py"], ["commit", "-qm", "one"]] {
            #expect(try TestProcess.run("/usr/bin/git", arguments, in: root, environment: environment).status == 0)
        }
        return root
    }

    /// A server whose jobs run when the test says, initialized on `root` (today 2026-05-20, plain-text hovers).
    static func initializedServer(root: URL, jobs: ManualJobs, outbox: Outbox) -> Server {
        let server = jobs.server(sendingTo: outbox)
        server.handle(.request(id: RequestID(1), method: "initialize", params: [
            "rootUri": .string(root.absoluteString), "initializationOptions": ["today": "2026-05-20"],
            "capabilities": ["textDocument": ["hover": ["contentFormat": ["plaintext"]]]],
        ]))
        server.handle(.notification(method: "initialized", params: [:]))
        jobs.runAll(on: server)
        return server
    }

    /// The result of the request `id`, once answered.
    static func answer(to id: Int, in outbox: Outbox) -> JSON? {
        for message in outbox.messages {
            if case .response(let answered, let result) = message, answered == RequestID(id), case .success(let json) = result { return json }
        }
        return nil
    }

    @Test func aKeystrokeIsAnsweredWhileHoverWaitsForGit() throws {
        let root = try Self.committedTree("x = 1\ny = 2  # TODO: committed\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let jobs = ManualJobs()
        let outbox = Outbox()
        let server = Self.initializedServer(root: root, jobs: jobs, outbox: outbox)
        let uri = root.appendingPathComponent("a.py").absoluteString
        func answer(to id: Int) -> JSON? { Self.answer(to: id, in: outbox) }
        server.handle(.notification(method: "textDocument/didOpen", params: [
            "textDocument": ["uri": .string(uri), "languageId": "python", "version": 1, "text": "x = 1\ny = 2  # TODO: committed\n"],
        ]))
        jobs.runAll(on: server)
        let hover = ["textDocument": ["uri": .string(uri)], "position": ["line": 1, "character": 10]] as JSON
        server.handle(.request(id: RequestID(2), method: "textDocument/hover", params: hover))
        #expect(answer(to: 2) == nil, "the hover waits for git")
        #expect(jobs.count == 1)

        // A keystroke, and the tokens it asks for, while git has not answered.
        server.handle(.notification(method: "textDocument/didChange", params: [
            "textDocument": ["uri": .string(uri), "version": 2],
            "contentChanges": [["range": ["start": ["line": 0, "character": 5], "end": ["line": 0, "character": 5]], "text": "0"]],
        ]))
        server.handle(.request(id: RequestID(3), method: "textDocument/semanticTokens/full", params: ["textDocument": ["uri": .string(uri)]]))
        #expect(answer(to: 3) != nil, "the keystroke's tokens do not wait for blame")
        #expect(answer(to: 2) == nil)

        // git answers: the hover is answered with who wrote the line.
        #expect(jobs.runAll(on: server) == 1)
        let value = try #require(answer(to: 2)?["contents"]?["value"]?.stringValue)
        #expect(value.hasPrefix("todo\n\nAdded by Alice Doe, 4 months ago ("), "\(value)")

        // The document changed since: its version asks git again, once; then a hover of that version asks nothing.
        server.handle(.request(id: RequestID(4), method: "textDocument/hover", params: hover))
        #expect(jobs.runAll(on: server) == 1)
        #expect(answer(to: 4)?["contents"]?["value"]?.stringValue == value)
        server.handle(.request(id: RequestID(5), method: "textDocument/hover", params: hover))
        #expect(jobs.count == 0)
        #expect(answer(to: 5)?["contents"]?["value"]?.stringValue == value)
    }

    /// A file in no repository stops hover asking git about that file only: a file of a repository opened after it
    /// still shows who wrote its line.
    @Test func aFileOutsideARepositoryLeavesTheOthersBlamed() throws {
        let root = try Self.committedTree("y = 2  # TODO: committed\n")
        let outside = try CommandLineTests.tree(["b.py": "y = 2  # TODO: nowhere\n"])
        defer {
            try? FileManager.default.removeItem(at: root)
            try? FileManager.default.removeItem(at: outside)
        }
        let jobs = ManualJobs()
        let outbox = Outbox()
        let server = Self.initializedServer(root: root, jobs: jobs, outbox: outbox)
        func open(_ uri: String, text: String) {
            server.handle(.notification(method: "textDocument/didOpen", params: [
                "textDocument": ["uri": .string(uri), "languageId": "python", "version": 1, "text": .string(text)],
            ]))
            jobs.runAll(on: server)
        }
        var id = 2
        func hover(_ uri: String) -> (asksGit: Bool, value: String?) {
            id += 1
            server.handle(.request(id: RequestID(id), method: "textDocument/hover", params: [
                "textDocument": ["uri": .string(uri)], "position": ["line": 0, "character": 10],
            ]))
            let asksGit = jobs.runAll(on: server) == 1
            return (asksGit, Self.answer(to: id, in: outbox)?["contents"]?["value"]?.stringValue)
        }
        let nowhere = outside.appendingPathComponent("b.py").absoluteString
        open(nowhere, text: "y = 2  # TODO: nowhere\n")
        let unblamed = hover(nowhere)
        #expect(unblamed.asksGit)
        #expect(unblamed.value == "todo")
        // Asked again, that file costs git nothing.
        #expect(hover(nowhere) == (false, "todo"))
        let committed = root.appendingPathComponent("a.py").absoluteString
        open(committed, text: "y = 2  # TODO: committed\n")
        let blamed = hover(committed)
        #expect(blamed.asksGit)
        #expect(blamed.value?.hasPrefix("todo\n\nAdded by Alice Doe, 4 months ago (") == true, "\(blamed.value ?? "no answer")")
    }
}
