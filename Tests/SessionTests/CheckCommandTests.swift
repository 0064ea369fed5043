import Foundation
import Testing

/// `highlight-ls check` and `list` through the built executable: exit codes, output, ignore files and scopes.
@Suite struct CheckCommandTests {
    /// Runs the executable in `directory` and returns its exit code, stdout and stderr.
    private func run(_ arguments: [String], in directory: URL) throws -> (status: Int32, output: String, errors: String) {
        let executable = try #require(ProcessTests.executable, "build the highlight-ls product first (swift build)")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("check-out-\(UUID().uuidString)")
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("check-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: output, encoding: .utf8), try String(contentsOf: errors, encoding: .utf8))
    }

    private func tree(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID().uuidString)")
        for (path, contents) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        return root
    }

    private let config = """
        { "rules": [
          { "name": "nomerge", "words": ["DO NOT MERGE"], "blocking": true, "files": ["!vendor/**"] },
          { "name": "todo", "words": ["TODO"], "scope": "comments" },
        ] }
        """

    @Test func checkFailsOnBlockingMatchesOnly() throws {
        let root = try tree([
            ".highlights.json": config,
            ".gitignore": "ignored/\n",
            "src/a.swift": "let s = \"TODO\" // TODO\n// DO NOT MERGE\n",
            "ignored/b.swift": "// DO NOT MERGE\n",
            "vendor/c.swift": "// DO NOT MERGE\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let failing = try run(["check", "src", "vendor"], in: root)
        #expect(failing.status == 1)
        #expect(failing.output == "src/a.swift:2:4: nomerge: DO NOT MERGE\n")
        // Walking the root, the .gitignore keeps `ignored/` out.
        #expect(try run(["check", "."], in: root).output == "./src/a.swift:2:4: nomerge: DO NOT MERGE\n")

        let listed = try run(["list", "."], in: root)
        #expect(listed.status == 0)
        // The string's TODO is code for a comments-only rule; the ignored folder is not walked.
        #expect(listed.output == "./src/a.swift:1:19: todo: TODO\n./src/a.swift:2:4: nomerge: DO NOT MERGE\n")

        try Data("// fine\n".utf8).write(to: root.appendingPathComponent("src/a.swift"))
        let passing = try run(["check", "."], in: root)
        #expect(passing.status == 0)
        #expect(passing.output.isEmpty)
    }

    @Test func checkExitCodesForBadInput() throws {
        let root = try tree([".highlights.json": config, "a.txt": "x"])
        defer { try? FileManager.default.removeItem(at: root) }
        // Without a path, check searches the current directory.
        #expect(try run(["check"], in: root).status == 0)
        #expect(try run(["check", "--config"], in: root).status == 2)
        #expect(try run(["check", "missing-file"], in: root).status == 2)
        #expect(try run(["check", "--config", "a.txt", "."], in: root).status == 2)
        // Without a blocking rule the check cannot check anything: that is an error, not a pass.
        let builtIns = try tree([".highlights.json": "{}", "a.txt": "TODO"])
        defer { try? FileManager.default.removeItem(at: builtIns) }
        let result = try run(["check", "."], in: builtIns)
        #expect(result.status == 2)
        #expect(result.errors.contains("no rule is marked"))
    }
}
