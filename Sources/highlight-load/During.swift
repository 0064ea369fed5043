import Foundation
import JSONRPC
import JSONValue
import Seeded

// Keystrokes while the server does long work: the latency of an edit and its
// `semanticTokens/full/delta` answer on a small document, when the server is idle, while a
// `workspace/symbol` scans a large tree, and while another document of 50 MB is opened and
// highlighted. Edits are paced (one every two milliseconds) for as long as the long work runs,
// so they are spread over it.
//
//   .build/release/highlight-load --during [--server PATH] [--tree DIR] [--rounds N]

/// Runs the three conditions and prints their percentiles; returns the exit code.
func runDuring(_ arguments: [String], serverPath defaultServer: String) -> Int32 {
    var serverPath = defaultServer
    var tree = pythonStandardLibrary() ?? "/usr/include"
    var rounds = 5
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "--server": serverPath = rest.popFirst() ?? serverPath
        case "--tree": tree = rest.popFirst() ?? tree
        case "--rounds": rounds = rest.popFirst().flatMap { Int($0) } ?? rounds
        default:
            print("usage: highlight-load --during [--server PATH] [--tree DIR] [--rounds N]")
            return 2
        }
    }
    do {
        let treeURI = URL(fileURLWithPath: tree).absoluteString
        var idle: [Double] = []
        var duringScan: [Double] = []
        var scanTimes: [Double] = []
        for round in 0..<rounds {
            // A new server per round, so that each `workspace/symbol` scans the whole tree.
            let session = try openSession(serverPath, rootURI: treeURI)
            var typist = try Typist(session: session, seed: UInt64(round))
            for _ in 0..<100 { idle.append(try typist.type()) }
            let start = DispatchTime.now().uptimeNanoseconds
            let id = session.start("workspace/symbol", ["query": ""])
            while !session.answeredIDs.contains(id) {
                duringScan.append(try typist.type())
                usleep(2_000)
            }
            scanTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            close(session)
        }

        let session = try openSession(serverPath, rootURI: nil)
        var typist = try Typist(session: session, seed: 99)
        let big = Corpus.bytes(approximately: 50_000_000, seed: 7)
        var duringOpen: [Double] = []
        var openTimes: [Double] = []
        let before = session.memory().currentMB
        var afterClose = before
        for round in 0..<max(1, rounds / 2) {
            let uri = JSON.string("file:///bench/big\(round).txt")
            let start = DispatchTime.now().uptimeNanoseconds
            session.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "plaintext", "version": 1, "text": .string(big)]])
            let id = session.start("textDocument/semanticTokens/full", ["textDocument": ["uri": uri]])
            while !session.answeredIDs.contains(id) {
                duringOpen.append(try typist.type())
                usleep(2_000)
            }
            openTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            session.notify("textDocument/didClose", ["textDocument": ["uri": uri]])
            _ = try session.request("highlight/matches", ["textDocument": typist.document], discardResult: true)
            afterClose = session.memory().currentMB
        }
        let peak = session.memory().peakMB
        close(session)

        idle.sort()
        duringScan.sort()
        duringOpen.sort()
        print("highlight-load --during: edit + semanticTokens/full/delta on a 10-line document")
        print(row("idle", idle))
        print(row("during workspace/symbol", duringScan) + String(format: "   (%d edits; scan %.0f-%.0f ms; %@)",
              duringScan.count, scanTimes.min() ?? .nan, scanTimes.max() ?? .nan, tree as NSString))
        print(row("during a 50 MB didOpen", duringOpen) + String(format: "   (%d edits; open + first tokens %.0f-%.0f ms)",
              duringOpen.count, openTimes.min() ?? .nan, openTimes.max() ?? .nan))
        print(String(format: "ratio to idle: symbol p50 %.2f p95 %.2f; open p50 %.2f p95 %.2f",
                     percentile(duringScan, 0.5) / percentile(idle, 0.5), percentile(duringScan, 0.95) / percentile(idle, 0.95),
                     percentile(duringOpen, 0.5) / percentile(idle, 0.5), percentile(duringOpen, 0.95) / percentile(idle, 0.95)))
        print(String(format: "server RSS: %.1f MB before the 50 MB documents, %.1f MB after they closed (peak %.1f MB)", before, afterClose, peak))
        return 0
    } catch {
        print("highlight-load --during: \(error)")
        return 1
    }
}

/// A server after `initialize`, with the given workspace folder.
private func openSession(_ serverPath: String, rootURI: String?) throws -> ServerSession {
    let session = try ServerSession(executable: serverPath)
    _ = try session.request("initialize", ["processId": .null, "capabilities": [:], "rootUri": rootURI.map(JSON.string) ?? .null])
    session.notify("initialized", [:])
    return session
}

private func close(_ session: ServerSession) {
    _ = try? session.request("shutdown", nil)
    session.notify("exit", nil)
}

/// Types single characters into a small document, each followed by a token delta request.
private struct Typist {
    let session: ServerSession
    let document: JSON
    var random: SplitMix64
    var version = 1
    var previous: String

    init(session: ServerSession, seed: UInt64) throws {
        self.session = session
        let uri = "file:///bench/typed-\(seed).swift"
        document = ["uri": .string(uri)]
        session.notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "swift", "version": 1,
                                                                 "text": .string(Corpus.lines(count: 10, seed: 1))]])
        previous = try session.request("textDocument/semanticTokens/full", ["textDocument": document])["resultId"]?.stringValue ?? ""
        random = SplitMix64(seed: seed)
    }

    /// One edit and its token delta; the milliseconds it took.
    mutating func type() throws -> Double {
        version += 1
        let line = Int(random.next() % 9)
        let inserted = ["x", " ", "T", "O", "D", "é"][Int(random.next() % 6)]
        let start = DispatchTime.now().uptimeNanoseconds
        session.notify("textDocument/didChange", [
            "textDocument": ["uri": document["uri"] ?? .null, "version": .integer(version)],
            "contentChanges": [["range": ["start": ["line": .integer(line), "character": 0], "end": ["line": .integer(line), "character": 0]],
                                "text": .string(inserted)]],
        ])
        let answer = try session.request("textDocument/semanticTokens/full/delta", ["textDocument": document, "previousResultId": .string(previous)])
        previous = answer["resultId"]?.stringValue ?? previous
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }
}

/// The Python standard library's folder, as the machine's python3 reports it.
func pythonStandardLibrary() -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    let path = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return path.isEmpty ? nil : path
}
