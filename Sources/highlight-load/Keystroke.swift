import Foundation
import JSONRPC
import JSONValue

// The keystroke round trip, as an editor makes it: one character typed and deleted alternately
// on a middle line, each edit followed by `semanticTokens/full/delta`, in a 10-line and a
// 100,000-line document open in one session. Cases: the built-in rules on Swift (scoped to
// comments) and on plain text (no syntax), a single-line rule, a rule that spans one line break,
// and the Python standard library's own files (the first 100,000 lines of them, in file-name
// order). With `--baseline PATH`, a second server runs every case too, in turns with the first,
// so both are measured under the same load.
//
//   swift build -c release && .build/release/highlight-load --keystroke [--server PATH] [--baseline PATH] [--edits N] [--rounds N]

/// One case: a configuration, a language and the text of the large document.
private struct KeystrokeCase {
    var name: String
    var options: JSON
    var languageID: String
    var largeText: String
    var smallText: String
}

/// Line `index` of the generated Swift document: a TODO with a ticket on every third line.
private func keystrokeLine(_ index: Int) -> String {
    index % 3 == 0 ? "    // TODO: fix item \(index) here (AB-\(index % 997))\n" : "    let value\(index) = compute(\(index)) // ok\n"
}

/// Runs the keystroke cases and prints a table; returns the exit code.
func runKeystroke(_ arguments: [String], serverPath defaultServer: String) -> Int32 {
    var servers = [defaultServer]
    var edits = 400
    var rounds = 3
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "--server": servers[0] = rest.popFirst() ?? servers[0]
        case "--baseline": if let path = rest.popFirst() { servers.append(path) }
        case "--edits": edits = rest.popFirst().flatMap { Int($0) } ?? edits
        case "--rounds": rounds = rest.popFirst().flatMap { Int($0) } ?? rounds
        default:
            print("usage: highlight-load --keystroke [--server PATH] [--baseline PATH] [--edits N] [--rounds N]")
            return 2
        }
    }
    let generated = (0..<100_000).map(keystrokeLine).joined()
    let small = (0..<10).map(keystrokeLine).joined()
    var cases = [
        KeystrokeCase(name: "no configuration, Swift", options: [:], languageID: "swift", largeText: generated, smallText: small),
        KeystrokeCase(name: "no configuration, plain text", options: [:], languageID: "plaintext", largeText: generated, smallText: small),
        KeystrokeCase(
            name: "single-line rule", options: ["rules": [["name": "ticket", "regex": #"\b[A-Z]{2,}-[0-9]+\b"#]]],
            languageID: "swift", largeText: generated, smallText: small),
        KeystrokeCase(
            name: "rule spanning one line break", options: ["rules": [["name": "next", "regex": #"TODO[^\n]*\n[ \t]*//[^\n]*"#]]],
            languageID: "swift", largeText: generated, smallText: small),
    ]
    if let standardLibrary = pythonStandardLibraryLines(100_000) {
        let lines = standardLibrary.split(separator: "\n", omittingEmptySubsequences: false)
        cases.append(KeystrokeCase(
            name: "Python standard library, no configuration", options: [:], languageID: "python",
            largeText: standardLibrary, smallText: lines.prefix(10).joined(separator: "\n") + "\n"))
    }
    print("highlight-load --keystroke: \(edits) edits per document and round, \(rounds) rounds; p50 / p95 in ms; ratio = 100,000 lines / 10 lines")
    print("case                                        server      10 lines p50/p95   100,000 lines p50/p95   ratio p50/p95")
    for keystrokeCase in cases {
        var latencies = Array(repeating: (small: [Double](), large: [Double]()), count: servers.count)
        for round in 0..<rounds {
            // In turns, each server first in alternate rounds.
            let order = round % 2 == 0 ? Array(servers.indices) : Array(servers.indices.reversed())
            for serverIndex in order {
                do {
                    let (small, large) = try measureKeystrokes(servers[serverIndex], keystrokeCase, edits: edits)
                    latencies[serverIndex].small += small
                    latencies[serverIndex].large += large
                } catch {
                    print("\(servers[serverIndex]): \(error)")
                    return 1
                }
            }
        }
        for (serverIndex, measured) in latencies.enumerated() {
            let small = measured.small.sorted()
            let large = measured.large.sorted()
            let label = serverIndex == 0 ? "this" : "baseline"
            func padded(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
            print(padded(keystrokeCase.name, 44) + padded(label, 10) + String(
                format: "%7.3f / %6.3f     %7.3f / %6.3f        %5.2f / %5.2f",
                percentile(small, 0.5), percentile(small, 0.95), percentile(large, 0.5), percentile(large, 0.95),
                percentile(large, 0.5) / percentile(small, 0.5), percentile(large, 0.95) / percentile(small, 0.95)))
        }
    }
    return 0
}

/// The latencies of typing in the small and the large document of a case, in one session.
private func measureKeystrokes(_ server: String, _ keystrokeCase: KeystrokeCase, edits: Int) throws -> (small: [Double], large: [Double]) {
    let session = try ServerSession(executable: server)
    _ = try session.request("initialize", [
        "processId": .null, "capabilities": [:], "rootUri": .null, "initializationOptions": keystrokeCase.options,
    ])
    session.notify("initialized", [:])
    let extensionName = ["swift": "swift", "python": "py"][keystrokeCase.languageID] ?? "txt"
    func type(in text: String, name: String) throws -> [Double] {
        let uri: JSON = .string("file:///highlight-load/\(name).\(extensionName)")
        session.notify("textDocument/didOpen", ["textDocument": [
            "uri": uri, "languageId": .string(keystrokeCase.languageID), "version": 1, "text": .string(text),
        ]])
        var previous = try session.request("textDocument/semanticTokens/full", ["textDocument": ["uri": uri]])["resultId"] ?? .null
        let line = text.utf8.count { $0 == 0x0A } / 2
        var latencies: [Double] = []
        for version in 2..<(edits + 2) {
            let typing = version % 2 == 0
            let start = DispatchTime.now().uptimeNanoseconds
            session.notify("textDocument/didChange", [
                "textDocument": ["uri": uri, "version": .integer(version)],
                "contentChanges": [[
                    "range": ["start": ["line": .integer(line), "character": 0], "end": ["line": .integer(line), "character": typing ? 0 : 1]],
                    "text": typing ? "x" : "",
                ]],
            ])
            let answer = try session.request("textDocument/semanticTokens/full/delta", ["textDocument": ["uri": uri], "previousResultId": previous])
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            previous = answer["resultId"] ?? previous
        }
        session.notify("textDocument/didClose", ["textDocument": ["uri": uri]])
        return latencies
    }
    let small = try type(in: keystrokeCase.smallText, name: "small")
    let large = try type(in: keystrokeCase.largeText, name: "large")
    _ = try session.request("shutdown", nil)
    session.notify("exit", nil)
    return (small, large)
}

/// The first `count` lines of the Python standard library's top-level modules, in file-name order; nil without Python.
private func pythonStandardLibraryLines(_ count: Int) -> String? {
    guard let folder = pythonStandardLibrary(),
          let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
    var lines: [Substring] = []
    for name in names.sorted() where name.hasSuffix(".py") {
        guard let text = try? String(contentsOfFile: folder + "/" + name, encoding: .utf8) else { continue }
        lines += text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        if lines.count >= count { break }
    }
    return lines.count >= count ? lines.prefix(count).joined(separator: "\n") + "\n" : nil
}
