import Foundation
import JSONRPC
import JSONValue
import LanguageServer
import Seeded
import Testing

/// The server and the command line agree on which `.highlights.json` governs each file and what
/// its `files` globs see: on seeded trees of nested configuration files, every file's matches as
/// `highlight-ls list --format json` prints them (from the root, and from a subfolder with an
/// absolute path) equal the server's for the same file opened as a document, and the listed ones
/// equal the server's `workspace/symbol` answer, which reads the files on disk.
@Suite struct ConfigurationLookupDifferentialTests {
    static let folders = ["", "a", "a/b", "a/b/c", "a/d", "e", "e/f", "e/f/g"]
    static let files = ["one.txt", "src/two.swift", "deep/three.swift", "src/deep/four.txt", "b/five.txt"]
    static let globs = ["*.txt", "src/**", "**/deep/*.swift", "b/**", "!*.swift", "f/g/*", "**/*.txt", "c/**", "deep/**", "{src,b}/*"]

    /// A tree: each folder holds a configuration file or not, each with its own words and one
    /// rule limited by a `files` glob; every file holds every word.
    static func makeTree(seed: UInt64) throws -> (root: URL, files: [String]) {
        var random = SplitMix64(seed: seed)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("highlight-ls-lookup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".git"), withIntermediateDirectories: true)
        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        for (index, folder) in folders.enumerated() where random.next(below: 3) > 0 {
            let glob = globs[random.next(below: globs.count)]
            let scope = random.next(below: 2) == 0 ? #", "scope": "comments""# : ""
            let defaults = random.next(below: 3) == 0 ? #""defaults": false, "# : ""
            try write(
                folder.isEmpty ? ".highlights.json" : folder + "/.highlights.json",
                """
                { \(defaults)"rules": [
                  { "name": "r\(index)", "words": ["W\(index)"], "list": true\(scope) },
                  { "name": "g\(index)", "words": ["GLOB\(index)"], "files": ["\(glob)"], "list": true },
                ] }
                """)
        }
        let words = folders.indices.map { "W\($0) GLOB\($0)" }.joined(separator: " ")
        var paths: [String] = []
        for folder in folders {
            for file in files {
                let path = folder.isEmpty ? file : folder + "/" + file
                try write(path, "// \(words) TODO\nlet s = \"\(words) FIXME\"\n")
                paths.append(path)
            }
        }
        return (root, paths.sorted())
    }

    /// Runs the built executable in `directory`; its exit code and standard output.
    static func run(_ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
        let executable = try #require(ProcessTests.executable, "build the highlight-ls product first (swift build)")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("lookup-out-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: output, encoding: .utf8))
    }

    /// `list --format json` lines as `path rule start-end` (UTF-8 offsets), paths relative to `root`.
    static func commandLineMatches(_ output: String, root: URL) throws -> [String] {
        try output.split(separator: "\n").map { line in
            let match = try JSONParser.parse(Array(line.utf8))
            var path = match["path"]?.stringValue ?? "?"
            for prefix in [root.path + "/", "./"] where path.hasPrefix(prefix) { path = String(path.dropFirst(prefix.count)) }
            let range = match["utf8"]?.arrayValue?.compactMap(\.integerValue) ?? []
            return "\(path) \(match["rule"]?.stringValue ?? "?") \(range.map(String.init).joined(separator: "-"))"
        }.sorted()
    }

    @Test(arguments: UInt64(1)...6)
    func serverAndCommandLineAgree(seed: UInt64) throws {
        let (root, paths) = try Self.makeTree(seed: seed)
        defer { try? FileManager.default.removeItem(at: root) }
        print("seed \(seed): \(root.path)")

        let fromRoot = try Self.run(["list", "--format", "json", "."], in: root)
        #expect(fromRoot.status == 0)
        let expected = try Self.commandLineMatches(fromRoot.output, root: root)
        #expect(expected.count > paths.count)
        // The same from a subfolder, the tree named by its absolute path.
        let fromElsewhere = try Self.run(["list", "--format", "json", root.path], in: root.appendingPathComponent("e/f"))
        #expect(try Self.commandLineMatches(fromElsewhere.output, root: root) == expected)

        // The server, each file opened as a document.
        var messages: [Message] = []
        let server = Server(send: { messages.append($0) }, log: { _ in })
        server.handle(.request(id: RequestID(0), method: "initialize", params: ["rootUri": .string(root.absoluteString), "capabilities": [:]]))
        server.handle(.notification(method: "initialized", params: [:]))
        var served: [String] = []
        for (index, path) in paths.enumerated() {
            let uri = root.appendingPathComponent(path).absoluteString
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            let language = path.hasSuffix(".swift") ? "swift" : "plaintext"
            server.handle(.notification(method: "textDocument/didOpen", params: ["textDocument": [
                "uri": .string(uri), "languageId": .string(language), "version": 1, "text": .string(text),
            ]]))
            let id = RequestID(index + 1)
            server.handle(.request(id: id, method: "highlight/matches", params: ["textDocument": ["uri": .string(uri)]]))
            for case .response(id, .success(let result)) in messages {
                for match in result.arrayValue ?? [] {
                    let range = match["utf8Range"]?.arrayValue?.compactMap(\.integerValue) ?? []
                    served.append("\(path) \(match["rule"]?.stringValue ?? "?") \(range.map(String.init).joined(separator: "-"))")
                }
            }
            messages.removeAll()
        }
        #expect(served.sorted() == expected)

        // workspace/symbol reads the files on disk (open documents are closed first) with each
        // file's configuration; its symbols are the command line's matches of listed rules.
        for path in paths {
            server.handle(.notification(method: "textDocument/didClose", params: ["textDocument": ["uri": .string(root.appendingPathComponent(path).absoluteString)]]))
        }
        messages.removeAll()
        server.handle(.request(id: RequestID(10_000), method: "workspace/symbol", params: ["query": ""]))
        var symbols: [String] = []
        for case .response(RequestID(10_000), .success(let result)) in messages {
            for symbol in result.arrayValue ?? [] {
                let uri = symbol["location"]?["uri"]?.stringValue ?? "?"
                let path = URL(string: uri)?.path ?? uri
                let relative = path.hasPrefix(root.path + "/") ? String(path.dropFirst(root.path.count + 1)) : path
                let start = symbol["location"]?["range"]?["start"]
                symbols.append("\(relative) \(symbol["containerName"]?.stringValue ?? "?") \(start?["line"]?.integerValue ?? -1):\(start?["character"]?.integerValue ?? -1)")
            }
        }
        let listed = try fromRoot.output.split(separator: "\n").compactMap { line -> String? in
            let match = try JSONParser.parse(Array(line.utf8))
            // The rules of the tree are all listed, and so are the built-in todo and fixme.
            guard let rule = match["rule"]?.stringValue, rule == "todo" || rule == "fixme" || rule.wholeMatch(of: /[rg][0-9]/) != nil
            else { return nil }
            var path = match["path"]?.stringValue ?? "?"
            if path.hasPrefix("./") { path = String(path.dropFirst(2)) }
            return "\(path) \(rule) \((match["line"]?.integerValue ?? 0) - 1):\((match["column"]?.integerValue ?? 0) - 1)"
        }.sorted()
        #expect(symbols.sorted() == listed)
    }
}
