import Foundation
import JSONRPC
import JSONValue
import Seeded
import TextIndex

// The soak mode: many documents open, bursts of edits with token requests, a 5 MB paste, a
// 50 MB file and a 5 MB single-line file. Checks that every request is answered, that edited
// documents keep the highlights of a fresh copy of their text (a TextBuffer mirror of the
// edits gives the text), that a small document stays responsive during the big operations,
// and that memory stays bounded.
//
//   swift build -c release && .build/release/highlight-load --soak [--server PATH] [--documents N] [--seconds N]

/// Runs the soak; returns the exit code (1 when a check failed).
func runSoak(_ arguments: [String]) -> Int32 {
    var serverPath = ".build/release/highlight-ls"
    var documentCount = 1_000
    var seconds = 10
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "--server": serverPath = rest.popFirst() ?? serverPath
        case "--documents": documentCount = rest.popFirst().flatMap { Int($0) } ?? documentCount
        case "--seconds": seconds = rest.popFirst().flatMap { Int($0) } ?? seconds
        default:
            print("usage: highlight-load --soak [--server PATH] [--documents N] [--seconds N]")
            return 2
        }
    }
    do {
        var soak = try Soak(serverPath: serverPath, documentCount: documentCount, seconds: seconds)
        return try soak.run()
    } catch {
        print("highlight-load --soak: \(error)")
        return 1
    }
}

private struct Soak {
    let session: ServerSession
    let documentCount: Int
    let seconds: Int
    var mirrors: [String: TextBuffer] = [:]
    var versions: [String: Int] = [:]
    var random = SplitMix64(seed: 42)
    var requests = 0
    var failures: [String] = []

    init(serverPath: String, documentCount: Int, seconds: Int) throws {
        session = try ServerSession(executable: serverPath)
        self.documentCount = documentCount
        self.seconds = seconds
    }

    static func uri(_ index: Int) -> String { "file:///soak/doc\(index).swift" }
    static let smallURI = "file:///soak/small.swift"

    mutating func request(_ method: String, _ uri: String, extra: [String: JSON] = [:]) throws -> JSON {
        var params: [String: JSON] = ["textDocument": ["uri": .string(uri)]]
        for (key, value) in extra { params[key] = value }
        requests += 1
        return try session.request(method, .object(params))
    }

    mutating func open(_ uri: String, _ text: String) {
        mirrors[uri] = TextBuffer(utf8: Array(text.utf8))
        versions[uri] = 1
        session.notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "swift", "version": 1, "text": .string(text)]])
    }

    mutating func change(_ uri: String, at position: Position, insert text: String) {
        guard var mirror = mirrors[uri] else { return }
        let offset = mirror.lineIndex.utf8Offset(of: position, encoding: .utf16)
        mirror.replace(utf8Range: offset..<offset, with: Array(text.utf8))
        mirrors[uri] = mirror
        let version = (versions[uri] ?? 1) + 1
        versions[uri] = version
        session.notify("textDocument/didChange", [
            "textDocument": ["uri": .string(uri), "version": .integer(version)],
            "contentChanges": [["range": ["start": position.json, "end": position.json], "text": .string(text)]],
        ])
    }

    /// The time of a request on the small document, in milliseconds.
    mutating func smallDocumentLatency() throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try request("textDocument/semanticTokens/full", Self.smallURI)
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// Compares a document's matches with those of a fresh copy of its mirrored text.
    mutating func checkAgainstFreshCopy(_ uri: String) throws {
        guard let mirror = mirrors[uri] else { return }
        let copy = uri + ".copy"
        session.notify("textDocument/didOpen", ["textDocument": ["uri": .string(copy), "languageId": "swift", "version": 1, "text": .string(mirror.text)]])
        let edited = try request("highlight/matches", uri)
        let fresh = try request("highlight/matches", copy)
        session.notify("textDocument/didClose", ["textDocument": ["uri": .string(copy)]])
        if edited != fresh { failures.append("\(uri): matches differ from a fresh copy of its text") }
    }

    mutating func run() throws -> Int32 {
        _ = try session.request("initialize", ["processId": .null, "capabilities": [:], "rootUri": .null])
        session.notify("initialized", [:])
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

        // 1,000 documents of 10-200 KB.
        var totalBytes = 0
        for index in 0..<documentCount {
            let size = 10_000 + Int(random.next() % 190_001)
            let text = Corpus.bytes(approximately: size, seed: UInt64(index))
            totalBytes += text.utf8.count
            open(Self.uri(index), text)
        }
        open(Self.smallURI, Corpus.lines(count: 20, seed: 7))
        _ = try request("highlight/matches", Self.uri(documentCount - 1))
        let openTime = elapsed()
        let memoryOpen = session.memory()
        print(String(format: "opened %d documents (%.1f MB of text) in %.1f s; RSS %.0f MB", documentCount, Double(totalBytes) / 1e6, openTime, memoryOpen.currentMB))

        // Bursts: 200 single-character edits per second over random documents, a token
        // request after every 10th.
        var burstLatencies: [Double] = []
        var edits = 0
        var previousResult: [String: String] = [:]
        for second in 0..<seconds {
            let secondStart = DispatchTime.now().uptimeNanoseconds
            for edit in 0..<200 {
                let uri = Self.uri(Int(random.next() % UInt64(documentCount)))
                let lines = mirrors[uri]?.lineIndex.lineCount ?? 1
                let position = Position(line: Int(random.next() % UInt64(lines)), character: Int(random.next() % 30))
                change(uri, at: position, insert: ["x", " ", "TODO ", "é", "\n", "👍", "FIXME"][Int(random.next() % 7)])
                edits += 1
                if edit % 10 == 9 {
                    let requestStart = DispatchTime.now().uptimeNanoseconds
                    let answer: JSON
                    if let previous = previousResult[uri] {
                        answer = try request("textDocument/semanticTokens/full/delta", uri, extra: ["previousResultId": .string(previous)])
                    } else {
                        answer = try request("textDocument/semanticTokens/full", uri)
                    }
                    burstLatencies.append(Double(DispatchTime.now().uptimeNanoseconds - requestStart) / 1e6)
                    previousResult[uri] = answer["resultId"]?.stringValue
                }
            }
            let spent = DispatchTime.now().uptimeNanoseconds - secondStart
            if spent < 1_000_000_000 { usleep(UInt32((1_000_000_000 - spent) / 1000)) }
            if second == seconds - 1 { break }
        }
        burstLatencies.sort()
        let memoryBursts = session.memory()
        print(String(format: "bursts: %d edits in %d s, %d token requests: p50 %.2f ms, p99 %.2f ms, max %.2f ms; RSS %.0f MB",
                     edits, seconds, burstLatencies.count, percentile(burstLatencies, 0.5), percentile(burstLatencies, 0.99),
                     burstLatencies.last ?? .nan, memoryBursts.currentMB))

        // Correctness after the bursts: 50 edited documents against fresh copies.
        for index in 0..<min(50, documentCount) { try checkAgainstFreshCopy(Self.uri(index * max(1, documentCount / 50))) }

        // A 5 MB paste, then the small document.
        let paste = Corpus.bytes(approximately: 5_000_000, seed: 99)
        let pasteStart = DispatchTime.now().uptimeNanoseconds
        change(Self.uri(0), at: Position(line: 3, character: 0), insert: paste)
        let pasteSmall = try smallDocumentLatency()
        _ = try request("textDocument/semanticTokens/full", Self.uri(0))
        let pasteTotal = Double(DispatchTime.now().uptimeNanoseconds - pasteStart) / 1e6
        try checkAgainstFreshCopy(Self.uri(0))
        print(String(format: "5 MB paste: small-document request answered after %.1f ms; paste + full tokens %.1f ms", pasteSmall, pasteTotal))

        // A 50 MB file.
        let memoryBeforeBig = session.memory()
        let huge = Corpus.bytes(approximately: 50_000_000, seed: 100)
        let hugeStart = DispatchTime.now().uptimeNanoseconds
        open("file:///soak/huge.swift", huge)
        let hugeSmall = try smallDocumentLatency()
        let hugeTokens = try request("textDocument/semanticTokens/full", "file:///soak/huge.swift")
        let hugeTotal = Double(DispatchTime.now().uptimeNanoseconds - hugeStart) / 1e6
        let memoryHuge = session.memory()
        print(String(format: "50 MB file (%.1f MB): small-document request after %.1f ms; open + full tokens %.0f ms (%d tokens); RSS %.0f MB",
                     Double(huge.utf8.count) / 1e6, hugeSmall, hugeTotal, (hugeTokens["data"]?.arrayValue?.count ?? 0) / 5, memoryHuge.currentMB))

        // A 5 MB single-line file.
        let line = String(repeating: "word TODO café ABC-12 ", count: 5_000_000 / 24)
        let lineStart = DispatchTime.now().uptimeNanoseconds
        open("file:///soak/line.txt", line)
        let lineSmall = try smallDocumentLatency()
        let lineTokens = try request("textDocument/semanticTokens/full", "file:///soak/line.txt")
        let lineTotal = Double(DispatchTime.now().uptimeNanoseconds - lineStart) / 1e6
        // An edit at the end of the long line.
        change("file:///soak/line.txt", at: Position(line: 0, character: 4_000_000), insert: " FIXME")
        try checkAgainstFreshCopy("file:///soak/line.txt")
        print(String(format: "5 MB single line: small-document request after %.1f ms; open + full tokens %.0f ms (%d tokens)",
                     lineSmall, lineTotal, (lineTokens["data"]?.arrayValue?.count ?? 0) / 5))

        // Closing the big documents gives their memory back to the system.
        for uri in ["file:///soak/huge.swift", "file:///soak/line.txt"] {
            session.notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
            mirrors[uri] = nil
        }
        _ = try smallDocumentLatency()
        let memoryEnd = session.memory()
        print(String(format: "after closing the big files: RSS %.0f MB (%.0f MB before they opened: %.2f x), peak %.0f MB",
                     memoryEnd.currentMB, memoryBeforeBig.currentMB, memoryEnd.currentMB / memoryBeforeBig.currentMB, memoryEnd.peakMB))
        _ = try session.request("shutdown", nil)
        session.notify("exit", nil)
        print(String(format: "%d requests, all answered; %d correctness checks failed; %.0f s in all", requests, failures.count, elapsed()))
        for failure in failures { print("FAILED: \(failure)") }
        return failures.isEmpty ? 0 : 1
    }
}

extension Position {
    var json: JSON { ["line": .integer(line), "character": .integer(character)] }
}
