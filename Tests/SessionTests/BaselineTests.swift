import Foundation
import Testing

/// `check --baseline` and `--write-baseline` through the built executable: which edits a baseline survives, what is
/// new, stale entries and pruning, damaged files, each format's view of the baseline, and the file's own format.
@Suite struct BaselineTests {
    typealias Outcome = CommandLineTests.Outcome

    static let config = """
        { "rules": [ { "name": "blocker", "words": ["FIXME"], "blocking": true } ] }
        """

    static let original = "x = 1\n# FIXME: one\n# FIXME: two\ny = 2\n"

    /// A tree with `a.py` holding `text`, and a baseline of `original` written in it.
    static func baselinedTree(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        let root = try CommandLineTests.tree([".highlights.json": config, "a.py": original])
        let written = try CommandLineTests.run(["check", "--write-baseline", "baseline.json"], in: root, sourceLocation: sourceLocation)
        #expect(written.status == 0, "\(written.errors)", sourceLocation: sourceLocation)
        return root
    }

    static func write(_ text: String, to name: String, in root: URL) throws {
        try Data(text.utf8).write(to: root.appendingPathComponent(name))
    }

    static func check(_ arguments: [String] = [], in root: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> Outcome {
        try CommandLineTests.run(["check", "--baseline", "baseline.json"] + arguments, in: root, sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        ("a block of markers moved", "x = 1\ny = 2\n# FIXME: two\n# FIXME: one\n"),
        ("lines inserted above", "import os\n\n\nx = 1\n# FIXME: one\n# FIXME: two\ny = 2\n"),
        ("re-indented, with inner spaces changed", "x = 1\nif x:\n    #   FIXME:\tone   \n\t# FIXME: two\ny = 2\n"),
        ("CRLF line ends", "x = 1\r\n# FIXME: one\r\n# FIXME: two\r\ny = 2\r\n"),
    ])
    func editsThatKeepEveryMarkerPass(edit: String, text: String) throws {
        let root = try Self.baselinedTree()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.write(text, to: "a.py", in: root)
        let checked = try Self.check(in: root)
        #expect(checked.status == 0, "\(edit): \(checked.errors)")
        #expect(checked.output == "", "\(edit)")
        #expect(checked.errors.contains("2 blocking matches in 1 file (1 file searched), 2 in the baseline, 0 new"), "\(edit): \(checked.errors)")
        #expect(!checked.errors.contains("stale"), "\(edit): \(checked.errors)")
    }

    @Test func oneNewMarkerFailsAndIsTheOnlyOnePrinted() throws {
        let root = try Self.baselinedTree()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.write("x = 1\n# FIXME: one\n# FIXME: three\n# FIXME: two\ny = 2\n", to: "a.py", in: root)
        let checked = try Self.check(in: root)
        #expect(checked.status == 1)
        #expect(checked.output == "./a.py:3:3: blocker: FIXME\n")
        #expect(checked.errors.contains("3 blocking matches in 1 file (1 file searched), 2 in the baseline, 1 new"), "\(checked.errors)")
    }

    @Test func aSecondIdenticalMarkerInTheSameFileIsNew() throws {
        let root = try Self.baselinedTree()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.write(Self.original + "  # FIXME: one\n", to: "a.py", in: root)
        let checked = try Self.check(in: root)
        #expect(checked.status == 1)
        #expect(checked.output == "./a.py:5:5: blocker: FIXME\n")
        // The same line in another file is new too: the path is part of the key.
        try Self.write(Self.original, to: "a.py", in: root)
        try Self.write("# FIXME: one\n", to: "b.py", in: root)
        #expect(try Self.check(in: root).output == "./b.py:1:3: blocker: FIXME\n")
    }

    @Test func aDeletedMarkerIsStaleAndPruningRemovesIt() throws {
        let root = try Self.baselinedTree()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.write("x = 1\n# FIXME: two\ny = 2\n", to: "a.py", in: root)
        let checked = try Self.check(in: root)
        #expect(checked.status == 0)
        #expect(checked.errors.contains("stale baseline entry, no longer found: a.py: blocker: # FIXME: one"), "\(checked.errors)")
        #expect(checked.errors.contains("--prune-baseline removes it"))

        let pruned = try Self.check(["--prune-baseline"], in: root)
        #expect(pruned.status == 0, "\(pruned.errors)")
        #expect(pruned.errors.contains("pruned 1 stale entry from baseline.json"))
        let file = try String(contentsOf: root.appendingPathComponent("baseline.json"), encoding: .utf8)
        #expect(file == """
            {"version": 1, "entries": [
              {"path": "a.py", "rule": "blocker", "text": "# FIXME: two", "count": 1}
            ]}

            """)
        let again = try Self.check(in: root)
        #expect(!again.errors.contains("stale"))
        // Pruning never adds: a marker put back is new, not covered again.
        try Self.write(Self.original, to: "a.py", in: root)
        #expect(try Self.check(["--prune-baseline"], in: root).status == 1)
    }

    @Test func pruningLowersACountToTheMatchesFound() throws {
        let root = try CommandLineTests.tree([".highlights.json": Self.config, "a.py": "# FIXME\n# FIXME\n# FIXME\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try CommandLineTests.run(["check", "--write-baseline", "baseline.json"], in: root).status == 0)
        try Self.write("# FIXME\n", to: "a.py", in: root)
        let checked = try Self.check(["--prune-baseline"], in: root)
        #expect(checked.status == 0)
        #expect(checked.errors.contains("stale baseline entry, no longer found (recorded 3 times, found 1): a.py: blocker: # FIXME"))
        let file = try String(contentsOf: root.appendingPathComponent("baseline.json"), encoding: .utf8)
        #expect(file.contains("\"text\": \"# FIXME\", \"count\": 1}"))
    }

    @Test(arguments: [
        ("one folder", ["src"]),
        ("one rule", ["--rule", "blocker"]),
        ("globs", ["-g", "src/**"]),
    ])
    func aRunOfPartOfTheTreeJudgesOnlyItsOwnEntries(part: String, arguments: [String]) throws {
        let root = try CommandLineTests.tree([
            ".highlights.json": """
                { "rules": [
                  { "name": "blocker", "words": ["FIXME"], "blocking": true },
                  { "name": "alarm", "words": ["XXX"], "blocking": true },
                ] }
                """,
            "src/a.py": "# FIXME: a\n", "lib/b.py": "# FIXME: b\n# XXX\n", "src/c.py": "# XXX\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try CommandLineTests.run(["check", "--write-baseline", "baseline.json"], in: root).status == 0)
        let before = try Data(contentsOf: root.appendingPathComponent("baseline.json"))
        let checked = try Self.check(["--prune-baseline"] + arguments, in: root)
        #expect(checked.status == 0, "\(part): \(checked.errors)")
        #expect(!checked.errors.contains("stale"), "\(part): \(checked.errors)")
        #expect(try Data(contentsOf: root.appendingPathComponent("baseline.json")) == before, "\(part)")
    }

    @Test(arguments: [
        ("bad JSON", "{\"version\": 1, \"entries\": [\n  {\"path\": \"a.py\",}\n]}\n", "baseline.json:2:"),
        ("a wrong version", "{\"version\": 2, \"entries\": []}\n", "\"version\" is 2"),
        ("not an object", "[]\n", "expected an object"),
        ("entries not an array", "{\"version\": 1, \"entries\": {}}\n", "\"entries\" must be an array"),
        ("an entry without text", "{\"version\": 1, \"entries\": [{\"path\": \"a.py\", \"rule\": \"blocker\", \"count\": 1}]}\n",
         "entries[0].text must be a string"),
        ("a count of zero", "{\"version\": 1, \"entries\": [{\"path\": \"a.py\", \"rule\": \"blocker\", \"text\": \"x\", \"count\": 0}]}\n",
         "entries[0].count must be a whole number of 1 or more"),
        ("an empty file", "", "baseline.json:1:1:"),
    ])
    func aDamagedBaselineIsAConfigurationError(damage: String, text: String, expected: String) throws {
        let root = try Self.baselinedTree()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.write(text, to: "baseline.json", in: root)
        let checked = try Self.check(in: root)
        #expect(checked.status == 2, "\(damage)")
        #expect(checked.output == "", "\(damage)")
        #expect(checked.errors.contains("baseline.json"), "\(damage): \(checked.errors)")
        #expect(checked.errors.contains(expected), "\(damage): \(checked.errors)")
    }

    @Test func aMissingBaselineSaysHowToCreateIt() throws {
        let root = try CommandLineTests.tree([".highlights.json": Self.config, "a.py": "# FIXME\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let checked = try Self.check(in: root)
        #expect(checked.status == 2)
        #expect(checked.errors.contains("the baseline baseline.json does not exist; create it with highlight-ls check --write-baseline baseline.json"))
    }

    @Test(arguments: [
        (["--prune-baseline"], "--prune-baseline needs --baseline FILE"),
        (["--baseline", "b.json", "--write-baseline", "b.json"], "cannot be given together"),
    ])
    func baselineOptionsThatDisagreeAreRefused(arguments: [String], expected: String) throws {
        let root = try CommandLineTests.tree([".highlights.json": Self.config])
        defer { try? FileManager.default.removeItem(at: root) }
        let checked = try CommandLineTests.run(["check"] + arguments, in: root)
        #expect(checked.status == 2)
        #expect(checked.errors.contains(expected), "\(checked.errors)")
    }

    @Test func sarifGivesEachResultItsBaselineState() throws {
        let root = try Self.baselinedTree()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.write("x = 1\n# FIXME: one\n# FIXME: three\n", to: "a.py", in: root)
        let checked = try Self.check(["--format", "sarif"], in: root)
        #expect(checked.status == 1)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(checked.output.utf8)) as? [String: Any])
        let runs = try #require(log["runs"] as? [[String: Any]])
        let results = try #require(runs.first?["results"] as? [[String: Any]])
        let states = results.map { result in
            let message = (result["message"] as? [String: Any])?["text"] as? String ?? ""
            let line = (((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"]
                as? [String: Any])?["startLine"] as? Int
            return "\(result["baselineState"] as? String ?? "-") \(line.map(String.init) ?? "-") \(message)"
        }
        #expect(states == [
            "unchanged 2 blocker: FIXME",
            "new 3 blocker: FIXME",
            "absent - no longer found (1 match of the baseline): # FIXME: two",
        ])
        #expect(results.last?["kind"] as? String == "pass")
    }

    @Test(arguments: [
        ("json", ["\"baseline\":\"unchanged\"", "\"baseline\":\"new\""], [String]()),
        ("github", ["::error file=a.py,line=3,"], ["line=2,"]),
        ("junit", ["failures=\"1\"", "a.py:3:3: blocker: FIXME"], ["a.py:2:3"]),
        ("text", ["./a.py:3:3: blocker: FIXME"], ["a.py:2:"]),
    ])
    func eachFormatFailsOnlyTheNewMatch(format: String, present: [String], absent: [String]) throws {
        let root = try Self.baselinedTree()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.write("x = 1\n# FIXME: one\n# FIXME: three\n# FIXME: two\n", to: "a.py", in: root)
        let checked = try Self.check(["--format", format], in: root)
        #expect(checked.status == 1, "\(format)")
        for text in present { #expect(checked.output.contains(text), "\(format): \(checked.output)") }
        for text in absent { #expect(!checked.output.contains(text), "\(format): \(checked.output)") }
    }

    @Test func theFileIsSortedOneEntryALineAndWrittenTheSameTwice() throws {
        let root = try CommandLineTests.tree([
            ".highlights.json": """
                { "rules": [
                  { "name": "blocker", "words": ["FIXME"], "blocking": true },
                  { "name": "alarm", "words": ["XXX"], "blocking": true },
                ] }
                """,
            "z.py": "# FIXME \"quoted\" \\ back\n",
            "a/b.py": "   # XXX   and FIXME\n# FIXME\n# FIXME\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try CommandLineTests.run(["check", "--write-baseline", "baseline.json"], in: root).status == 0)
        let first = try Data(contentsOf: root.appendingPathComponent("baseline.json"))
        #expect(String(decoding: first, as: UTF8.self) == #"""
            {"version": 1, "entries": [
              {"path": "a/b.py", "rule": "alarm", "text": "# XXX and FIXME", "count": 1},
              {"path": "a/b.py", "rule": "blocker", "text": "# FIXME", "count": 2},
              {"path": "a/b.py", "rule": "blocker", "text": "# XXX and FIXME", "count": 1},
              {"path": "z.py", "rule": "blocker", "text": "# FIXME \"quoted\" \\ back", "count": 1}
            ]}

            """#)
        #expect(try CommandLineTests.run(["check", "--write-baseline", "baseline.json"], in: root).status == 0)
        #expect(try Data(contentsOf: root.appendingPathComponent("baseline.json")) == first)
        // What was written is what is read: the check passes with it.
        #expect(try Self.check(in: root).status == 0)
    }

    @Test func aBaselineIsNotWrittenThroughALink() throws {
        let root = try CommandLineTests.tree([".highlights.json": Self.config, "a.py": "# FIXME\n", "elsewhere.txt": "kept\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("baseline.json").path, withDestinationPath: "elsewhere.txt")
        let written = try CommandLineTests.run(["check", "--write-baseline", "baseline.json"], in: root)
        #expect(written.status == 2)
        #expect(written.errors.contains("cannot write the baseline baseline.json: baseline.json is a symbolic link"), "\(written.errors)")
        #expect(try String(contentsOf: root.appendingPathComponent("elsewhere.txt"), encoding: .utf8) == "kept\n")
    }

    @Test func aBaselineOfNothingIsAnEmptyList() throws {
        let root = try CommandLineTests.tree([".highlights.json": Self.config, "a.py": "clean\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try CommandLineTests.run(["check", "--write-baseline", "baseline.json"], in: root).status == 0)
        #expect(try String(contentsOf: root.appendingPathComponent("baseline.json"), encoding: .utf8) == "{\"version\": 1, \"entries\": []}\n")
        #expect(try Self.check(in: root).status == 0)
    }

    @Test func standardInputIsKeyedOnItsName() throws {
        let root = try CommandLineTests.tree([".highlights.json": Self.config])
        defer { try? FileManager.default.removeItem(at: root) }
        let written = try CommandLineTests.run(
            ["check", "--write-baseline", "baseline.json", "--stdin-filename", "src/a.py", "-"], in: root, input: "# FIXME: x\n")
        #expect(written.status == 0, "\(written.errors)")
        let file = try String(contentsOf: root.appendingPathComponent("baseline.json"), encoding: .utf8)
        #expect(file.contains("{\"path\": \"src/a.py\", \"rule\": \"blocker\", \"text\": \"# FIXME: x\", \"count\": 1}"))
        let checked = try CommandLineTests.run(
            ["check", "--baseline", "baseline.json", "--stdin-filename", "src/a.py", "-"], in: root, input: "\n  # FIXME:   x\n")
        #expect(checked.status == 0, "\(checked.errors)")
    }

    /// The commands between `<!-- baseline-recipe -->` and `<!-- /baseline-recipe -->` of README.md, fences left out.
    static func readmeRecipe() throws -> String {
        let readme = try String(contentsOf: CommandLineTests.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "<!-- baseline-recipe -->"))
        let end = try #require(lines[start...].firstIndex(of: "<!-- /baseline-recipe -->"))
        return lines[(start + 1)..<end].filter { !$0.hasPrefix("```") }.joined(separator: "\n")
    }

    @Test(.enabled(if: CommandLineTests.hasShell("/bin/bash") && FileManager.default.isExecutableFile(atPath: "/usr/bin/git"),
                   "bash or git is not installed"))
    func theReadmeRecipeAdoptsTheGate() throws {
        let root = try CommandLineTests.tree([
            ".highlights.json": Self.config, "src/a.py": "# FIXME: old\n", "src/b.py": "x = 1  # FIXME: older\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let executable = try #require(ProcessTests.executable)
        func bash(_ script: String) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-e", "-c", script]
            process.currentDirectoryURL = root
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            for name in ["GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"] { environment[name] = "Test" }
            for name in ["GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"] { environment[name] = "test@example.invalid" }
            environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(try bash("git init -q . && git add -A && git commit -qm start") == 0)
        let recipe = try Self.readmeRecipe()
        #expect(recipe.components(separatedBy: "highlight-ls check").count == 3, "\(recipe)")
        #expect(try bash(recipe) == 0, "\(recipe)")
        // The gate is on: a new marker fails it.
        try Self.write("# FIXME: new\n", to: "src/c.py", in: root)
        #expect(try bash(recipe.split(separator: "\n").last.map(String.init) ?? "") == 1)
    }
}
