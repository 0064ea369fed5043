import Foundation
import JSONRPC
import JSONValue
import Testing

@testable import LanguageServer

/// Reading `.highlights.json` files is a job (BackgroundJobs.swift): the loop answers while a
/// reload runs, a burst of watched-file events starts one reload, and a document whose
/// configuration file was never read waits for it, as a large document waits for its first scan.
@Suite struct ConfigurationLoadTests {
    /// A server over a repository whose files are `files`, with jobs run by the test.
    final class Session {
        let root: URL
        let jobs = ManualJobs()
        let outbox = Outbox()
        let server: Server

        init(files: [String: String]) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("highlight-ls-load-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root.appendingPathComponent(".git"), withIntermediateDirectories: true)
            for (path, contents) in files { try Self.write(path, contents, under: root) }
            server = jobs.server(sendingTo: outbox)
            server.handle(.request(id: RequestID(0), method: "initialize", params: ["rootUri": .string(root.absoluteString), "capabilities": [:]]))
            server.handle(.notification(method: "initialized", params: [:]))
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        func write(_ path: String, _ contents: String) throws {
            try Self.write(path, contents, under: root)
        }

        static func write(_ path: String, _ contents: String, under root: URL) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }

        func uri(_ path: String) -> String { root.appendingPathComponent(path).absoluteString }

        func open(_ path: String, _ text: String) {
            server.handle(.notification(method: "textDocument/didOpen", params: ["textDocument": [
                "uri": .string(uri(path)), "languageId": "plaintext", "version": 1, "text": .string(text),
            ]]))
        }

        func fileChanged(_ paths: [String]) {
            server.handle(.notification(method: "workspace/didChangeWatchedFiles", params: [
                "changes": .array(paths.map { ["uri": .string(uri($0)), "type": 2] }),
            ]))
        }

        func requestMatches(id: Int, _ path: String) {
            server.handle(.request(id: RequestID(id), method: "highlight/matches", params: ["textDocument": ["uri": .string(uri(path))]]))
        }

        /// The answer to request `id` as `rule@start-end` (UTF-8 offsets), or nil when it has not come.
        func matches(answering id: Int) -> [String]? {
            for case .response(let responseID, .success(let result)) in outbox.messages where responseID == RequestID(id) {
                return (result.arrayValue ?? []).map { match in
                    let range = match["utf8Range"]?.arrayValue?.compactMap(\.integerValue) ?? []
                    return "\(match["rule"]?.stringValue ?? "?")@\(range.map(String.init).joined(separator: "-"))"
                }
            }
            return nil
        }

        var pendingJobCount: Int { jobs.count }

        /// Runs every pending job, in order, and hands each result back to the loop.
        func runJobs() {
            jobs.runAll(on: server)
        }
    }

    @Test func aBurstOfEventsIsOneReloadBesideTheLoop() throws {
        let session = try Session(files: [".highlights.json": #"{ "defaults": false, "rules": [ { "name": "word", "words": ["ONE"] } ] }"#])
        session.open("a.txt", "ONE TWO")
        // The workspace folder's own file was read at initialize: nothing waits.
        #expect(session.pendingJobCount == 0)
        session.requestMatches(id: 1, "a.txt")
        #expect(session.matches(answering: 1) == ["word@0-3"])

        try session.write(".highlights.json", #"{ "defaults": false, "rules": [ { "name": "word", "words": ["TWO"] } ] }"#)
        session.fileChanged([".highlights.json", ".highlights.json", ".highlights.json"])
        session.fileChanged([".highlights.json"])
        // Nothing is read for events alone; the request after them starts one reload, as a job,
        // and is answered at once with the configuration in force.
        #expect(session.pendingJobCount == 0)
        session.requestMatches(id: 2, "a.txt")
        #expect(session.pendingJobCount == 1)
        #expect(session.matches(answering: 2) == ["word@0-3"])
        session.runJobs()
        session.requestMatches(id: 3, "a.txt")
        #expect(session.matches(answering: 3) == ["word@4-7"])
        #expect(session.pendingJobCount == 0)
    }

    @Test func aDocumentWaitsForTheFirstReadOfItsConfiguration() throws {
        let session = try Session(files: [
            "sub/.highlights.json": #"{ "defaults": false, "rules": [ { "name": "inner", "words": ["INNER"] } ] }"#,
        ])
        session.open("sub/a.txt", "INNER")
        session.open("sub/b.txt", "x INNER")
        // One job reads sub/.highlights.json for both documents; requests about them wait.
        #expect(session.pendingJobCount == 1)
        session.requestMatches(id: 1, "sub/a.txt")
        session.requestMatches(id: 2, "sub/b.txt")
        #expect(session.matches(answering: 1) == nil)
        session.runJobs()
        #expect(session.matches(answering: 1) == ["inner@0-5"])
        #expect(session.matches(answering: 2) == ["inner@2-7"])
        #expect(session.pendingJobCount == 0)
    }
}
