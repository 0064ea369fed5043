#if canImport(Glibc)
import Glibc
#endif
import Foundation
import JSONValue
import Synchronization
import Testing

/// Configuration files under stress, through the real binary: a file flipped between valid and
/// invalid while requests run, a 10 MB file, 10,000 rules, and a FIFO in place of the file.
@Suite struct ConfigFaultTests {
    typealias ServerProcess = ProcessFaultTests.ServerProcess

    /// A folder with a `.highlights.json`, removed at the end.
    final class Workspace {
        let root: URL
        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("highlight-ls-config-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: root) }
        var configURL: URL { root.appendingPathComponent(".highlights.json") }
        var uri: String { root.absoluteString.hasSuffix("/") ? String(root.absoluteString.dropLast()) : root.absoluteString }
    }

    /// Starts a server on `workspace` and opens one document; returns the server and the document URI.
    private func start(_ workspace: Workspace, text: String) throws -> (ServerProcess, String) {
        let server = try ServerProcess()
        server.send(ProcessFaultTests.initialize(rootURI: .string(workspace.uri)))
        server.send(ProcessFaultTests.notification("initialized", [:]))
        let document = workspace.uri + "/doc.txt"
        server.send(ProcessFaultTests.didOpen(document, text))
        return (server, document)
    }

    private func finish(_ server: ServerProcess, id: Int) {
        server.send(ProcessFaultTests.request(id, "shutdown", nil))
        _ = server.response(.integer(id))
        server.send(ProcessFaultTests.notification("exit", [:]))
        #expect(server.waitForExit().status == 0)
    }

    private static func ruleNames(_ response: JSON?) -> [String] {
        response?["result"]?.arrayValue?.compactMap { $0["rule"]?.stringValue } ?? []
    }

    /// The file flips between two valid configurations, a broken one and an empty one (written in
    /// place, so the server may read a half-written file) while highlight requests run: every
    /// answer comes entirely from one configuration, and every request is answered.
    @Test func flippingTheFileNeverMixesTwoConfigurations() throws {
        let workspace = try Workspace()
        let configA = #"{ "defaults": false, "rules": [ { "name": "a1", "words": ["ONE"] }, { "name": "a2", "words": ["TWO"] } ] }"#
        let configB = #"{ "defaults": false, "rules": [ { "name": "b1", "words": ["ONE"] }, { "name": "b2", "words": ["TWO"] } ] }"#
        let broken = #"{ "defaults": false, "rules": [ { "name": "c1", "words": ["ONE"] } "#
        try Data(configA.utf8).write(to: workspace.configURL)
        let (server, document) = try start(workspace, text: "ONE TWO ONE TWO")

        let stop = Mutex(false)
        let path = workspace.configURL.path
        let flipper = Thread {
            var round = 0
            while !stop.withLock({ $0 }) {
                let text = [configA, broken, configB, ""][round % 4]
                // In place, not atomically: the server can see a truncated or half-written file.
                _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
                round += 1
            }
        }
        flipper.start()
        var seen: Set<String> = []
        for id in 2..<302 {
            server.send(ProcessFaultTests.notification("workspace/didChangeWatchedFiles",
                                                       ["changes": [["uri": .string(workspace.uri + "/.highlights.json"), "type": 2]]]))
            server.send(ProcessFaultTests.request(id, "highlight/matches", ["textDocument": ["uri": .string(document)]]))
            let names = Self.ruleNames(server.response(.integer(id)))
            // An empty file (the flipper truncating it) is a valid, empty configuration: no matches.
            #expect(names == ["a1", "a2", "a1", "a2"] || names == ["b1", "b2", "b1", "b2"] || names.isEmpty, "request \(id): \(names)")
            seen.insert(names.first ?? "none")
        }
        stop.withLock { $0 = true }
        finish(server, id: 400)
        let log = server.errorOutput()
        #expect(!log.contains("Fatal error") && !log.contains("Crash"), "\(log.suffix(3000))")
        #expect(!seen.isEmpty)
    }

    /// A 10 MB file is refused with a message; the built-in rules stay in force.
    @Test func aTenMegabyteFileIsRefused() throws {
        let workspace = try Workspace()
        let padding = String(repeating: " ", count: 10_000_000)
        try Data(("{ \"rules\": [ { \"name\": \"big\", \"words\": [\"BIG\"] } ]" + padding + "}").utf8).write(to: workspace.configURL)
        let (server, document) = try start(workspace, text: "BIG TODO")
        server.send(ProcessFaultTests.request(2, "highlight/matches", ["textDocument": ["uri": .string(document)]]))
        let messages = server.messages(untilResponse: 2)
        #expect(messages.contains { $0["method"] == "window/showMessage" && ($0["params"]?["message"]?.stringValue ?? "").contains("larger than the limit") })
        #expect(Self.ruleNames(messages.last) == ["todo"])
        finish(server, id: 3)
    }

    /// 10,000 rules load; a bad one among them is reported with its line and the others work.
    @Test func tenThousandRulesLoadAndABadOneIsLocated() throws {
        let workspace = try Workspace()
        var lines = ["{", "  \"rules\": ["]
        for index in 0..<10_000 {
            lines.append(index == 5_000 ? #"    { "name": "bad", "regex": "(?<=x)y" },"# : "    { \"name\": \"w\(index)\", \"words\": [\"WORD\(index)X\"] },")
        }
        lines += ["  ]", "}"]
        try Data(lines.joined(separator: "\n").utf8).write(to: workspace.configURL)
        let (server, document) = try start(workspace, text: "WORD0X WORD9999X TODO WORD5000X")
        server.send(ProcessFaultTests.request(2, "highlight/matches", ["textDocument": ["uri": .string(document)]]))
        let messages = server.messages(untilResponse: 2)
        // Rule 5,000 is on line 5,003 (1-based).
        #expect(messages.contains { ($0["params"]?["message"]?.stringValue ?? "").contains(".highlights.json:5003:") })
        #expect(Self.ruleNames(messages.last) == ["w0", "w9999", "todo"])
        finish(server, id: 3)
    }

    /// A FIFO named .highlights.json would block a reader forever: it is reported and skipped.
    @Test func aFIFOInPlaceOfTheFileIsSkipped() throws {
        let workspace = try Workspace()
        try #require(mkfifo(workspace.configURL.path, 0o644) == 0)
        let (server, document) = try start(workspace, text: "TODO")
        server.send(ProcessFaultTests.request(2, "highlight/matches", ["textDocument": ["uri": .string(document)]]))
        let messages = server.messages(untilResponse: 2)
        #expect(messages.contains { ($0["params"]?["message"]?.stringValue ?? "").contains("not a regular file") })
        #expect(Self.ruleNames(messages.last) == ["todo"])
        finish(server, id: 3)
    }

    /// A link loop or a dangling link named .highlights.json is reported to the user (a message
    /// naming what is wrong), never taken for a missing file; the built-in rules stay in force.
    @Test(arguments: [
        ("loop", ".highlights.json", "that loops"),
        ("dangling", "gone.json", "is a dangling symbolic link to gone.json"),
    ])
    func aLinkThatLeadsNowhereIsReported(name: String, destination: String, expected: String) throws {
        let workspace = try Workspace()
        try FileManager.default.createSymbolicLink(atPath: workspace.configURL.path, withDestinationPath: destination)
        let (server, document) = try start(workspace, text: "TODO")
        server.send(ProcessFaultTests.request(2, "highlight/matches", ["textDocument": ["uri": .string(document)]]))
        let messages = server.messages(untilResponse: 2)
        let shown = messages.filter { $0["method"]?.stringValue == "window/showMessage" }.compactMap { $0["params"]?["message"]?.stringValue }
        #expect(shown.contains { $0.contains(expected) }, "\(name): \(shown)")
        #expect(Self.ruleNames(messages.last) == ["todo"])
        finish(server, id: 3)
    }
}
