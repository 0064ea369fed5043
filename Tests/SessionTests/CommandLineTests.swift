import Foundation
import HighlightConfig
import Testing

/// The command line through the built executable: which configuration governs a file, failing on
/// configuration problems, formats, help, size limits, `print`'s styles, `init`, the man page and
/// the completions.
@Suite struct CommandLineTests {
    struct Outcome {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs the executable in `directory` with `environment` added and `input` on its standard input (else none), and
    /// returns what it did; with `answersWithin`, a run that has not ended after that many seconds is an issue, and is
    /// stopped (a deadline, not a measurement: it catches a command that waits forever, such as an open of a FIFO).
    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:], input: String? = nil,
        answersWithin seconds: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Outcome {
        let executable = try #require(ProcessTests.executable, "build the highlight-ls product first (swift build)", sourceLocation: sourceLocation)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var merged = ProcessInfo.processInfo.environment
        merged["NO_COLOR"] = nil
        merged.merge(environment) { $1 }
        process.environment = merged
        let scratch = FileManager.default.temporaryDirectory
        let output = scratch.appendingPathComponent("cli-out-\(UUID().uuidString)")
        let errors = scratch.appendingPathComponent("cli-err-\(UUID().uuidString)")
        let given = scratch.appendingPathComponent("cli-in-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        _ = FileManager.default.createFile(atPath: given.path, contents: Data((input ?? "").utf8))
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
            try? FileManager.default.removeItem(at: given)
        }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = input == nil ? FileHandle.nullDevice : try FileHandle(forReadingFrom: given)
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        if let seconds, ended.wait(timeout: .now() + .seconds(seconds)) == .timedOut {
            Issue.record("highlight-ls \(arguments.joined(separator: " ")) did not answer within \(seconds) s", sourceLocation: sourceLocation)
            process.terminate()
        }
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, output: try String(contentsOf: output, encoding: .utf8),
            errors: try String(contentsOf: errors, encoding: .utf8))
    }

    /// A temporary tree of files; a key ending in `/` makes an empty folder.
    static func tree(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (path, contents) in files {
            let url = root.appendingPathComponent(path)
            if path.hasSuffix("/") {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                continue
            }
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        return root.resolvingSymlinksInPath()
    }

    /// `(absolute path, line, column, rule)` of each match in `list --format json` output run from `directory`.
    static func matches(_ output: String, from directory: URL) -> [String] {
        output.split(separator: "\n").compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let path = object["path"] as? String, let lineNumber = object["line"] as? Int,
                let column = object["column"] as? Int, let rule = object["rule"] as? String
            else { return nil }
            let absolute = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
            return "\(absolute.standardized.path):\(lineNumber):\(column): \(rule)"
        }
    }

    static let projectConfig = """
        { "rules": [
          { "name": "nomerge", "words": ["DO NOT MERGE"], "blocking": true, "files": ["!vendor/**"] },
          { "name": "docsonly", "words": ["DRAFT"], "files": ["docs/**"] },
        ] }
        """

    // MARK: Which configuration governs a file

    @Test func theSameConfigurationFromEveryStartingPoint() throws {
        let root = try Self.tree([
            "proj/.git/": "",
            "proj/.highlights.json": Self.projectConfig,
            "proj/src/a.swift": "// DO NOT MERGE DRAFT\n",
            "proj/docs/b.md": "DRAFT\n",
            "proj/vendor/c.swift": "// DO NOT MERGE\n",
            "elsewhere/": "",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let project = root.appendingPathComponent("proj")
        let expected = [
            "\(project.path)/docs/b.md:1:1: docsonly",
            "\(project.path)/src/a.swift:1:4: nomerge",
        ]
        let starts: [(arguments: [String], directory: URL)] = [
            (["list", "--format", "json", "proj"], root),  // the parent directory
            (["list", "--format", "json", project.path], root.appendingPathComponent("elsewhere")),  // an absolute path
            (["list", "--format", "json"], project),  // the project itself, by default
            (["list", "--format", "json", "../docs", "."], project.appendingPathComponent("src")),  // a subdirectory and its sibling
            (["list", "--format", "json", "../proj"], root.appendingPathComponent("elsewhere")),  // another working directory
        ]
        for start in starts {
            let result = try Self.run(start.arguments, in: start.directory)
            #expect(result.status == 0, "\(start.arguments) in \(start.directory.path): \(result.errors)")
            #expect(Self.matches(result.output, from: start.directory).sorted() == expected, "\(start.arguments) in \(start.directory.path)")
        }
        // check agrees from everywhere: the vendor folder is excluded relative to the config's folder.
        for directory in [root, project, project.appendingPathComponent("vendor")] {
            let result = try Self.run(["check", project.path], in: directory)
            #expect(result.status == 1)
            #expect(result.output == "\(project.path)/src/a.swift:1:4: nomerge: DO NOT MERGE\n")
            #expect(result.errors.contains("1 blocking match in 1 file (3 files searched)"))
        }
    }

    @Test func theNearestConfigurationWinsAndStopsAtTheRepositoryRoot() throws {
        let root = try Self.tree([
            ".highlights.json": #"{ "rules": [ { "name": "outer", "words": ["OUTER"] } ] }"#,
            "repo/.git/": "",
            "repo/a.txt": "OUTER TODO\n",
            "repo/sub/.highlights.json": #"{ "defaults": false, "rules": [ { "name": "inner", "words": ["INNER"], "files": ["x/*.txt"] } ] }"#,
            "repo/sub/x/b.txt": "INNER OUTER TODO\n",
            "repo/sub/c.txt": "INNER\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try Self.run(["list", "repo"], in: root)
        #expect(result.status == 0)
        // repo/a.txt: the file above the repository root is not used (built-ins only); sub/: its own file,
        // whose glob x/*.txt is relative to sub/.
        #expect(result.output == "repo/a.txt:1:7: todo: TODO\nrepo/sub/x/b.txt:1:1: inner: INNER\n")
        // --config overrides for every file, its globs relative to the current directory.
        let overridden = try Self.run(["list", "--config", ".highlights.json", ".."], in: root.appendingPathComponent("repo/sub"))
        #expect(overridden.output == "../sub/x/b.txt:1:1: inner: INNER\n")
        let elsewhere = try Self.run(["list", "--config", "repo/sub/.highlights.json", "repo"], in: root)
        #expect(elsewhere.output.isEmpty)
    }

    // MARK: Failing loudly

    @Test func everyKindOfConfigurationErrorFailsTheCheck() throws {
        let cases: [(name: String, config: String, message: String)] = [
            ("json", #"{ "rules": [ { "name": "x", "words": ["DO NOT MERGE"], "blocking": true } "#, "invalid JSON"),
            ("typo", #"{ "rules": [ { "name": "x", "words": ["DO NOT MERGE"], "blockng": true }, { "name": "y", "words": ["NOPE"], "blocking": true } ] }"#, #"unknown key "blockng""#),
            ("regex", #"{ "rules": [ { "name": "x", "regex": "DO NOT (MERGE", "blocking": true }, { "name": "y", "words": ["NOPE"], "blocking": true } ] }"#, "invalid regex"),
            ("style", #"{ "rules": [ { "name": "x", "words": ["DO NOT MERGE"], "blocking": true, "style": "no-such-style" } ] }"#, #"unknown style "no-such-style""#),
            ("top-level key", #"{ "rulez": [], "rules": [ { "name": "x", "words": ["DO NOT MERGE"], "blocking": true } ] }"#, #"unknown top-level key "rulez""#),
        ]
        for (name, config, message) in cases {
            let root = try Self.tree([".highlights.json": config, "a.txt": "nothing to see\n"])
            defer { try? FileManager.default.removeItem(at: root) }
            let check = try Self.run(["check"], in: root)
            #expect(check.status == 2, "\(name): \(check.errors)")
            #expect(check.errors.contains(message), "\(name): \(check.errors)")
            // Each problem has its place: .highlights.json:line:column (or the file alone when it is not JSON).
            #expect(check.errors.contains(".highlights.json:1:"), "\(name): \(check.errors)")
            #expect(check.errors.contains("pass --allow-config-errors"), "\(name)")
            let list = try Self.run(["list"], in: root)
            #expect(list.status == 2, "\(name)")
        }
    }

    @Test func allowConfigErrorsIsLenientButNoBlockingRuleStillFails() throws {
        let root = try Self.tree([
            ".highlights.json": #"{ "rules": [ { "name": "x", "regex": "(", "blocking": true }, { "name": "y", "words": ["STOP"], "blocking": true } ] }"#,
            "a.txt": "STOP TODO\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try Self.run(["check"], in: root).status == 2)
        let lenient = try Self.run(["check", "--allow-config-errors"], in: root)
        #expect(lenient.status == 1)
        #expect(lenient.output == "./a.txt:1:1: y: STOP\n")
        #expect(lenient.errors.contains("invalid regex"))
        // list lists what the valid rules found, and still fails.
        let list = try Self.run(["list"], in: root)
        #expect(list.status == 2)
        #expect(list.output == "./a.txt:1:1: y: STOP\n./a.txt:1:6: todo: TODO\n")

        let none = try Self.tree([".highlights.json": "{}", "a.txt": "TODO\n"])
        defer { try? FileManager.default.removeItem(at: none) }
        for arguments in [["check"], ["check", "--allow-config-errors"]] {
            let result = try Self.run(arguments, in: none)
            #expect(result.status == 2)
            #expect(result.errors.contains(#"no rule is marked "blocking""#))
        }
    }

    @Test func clearErrorsForBadArguments() throws {
        let root = try Self.tree(["a.txt": "TODO\n", "dir/": ""])
        defer { try? FileManager.default.removeItem(at: root) }
        let cases: [(arguments: [String], message: String)] = [
            (["check", "missing"], "cannot read missing: No such file or directory"),
            (["list", "missing"], "cannot read missing: No such file or directory"),
            (["print", "dir"], "dir is a directory"),
            (["print", "missing"], "cannot read missing"),
            (["print"], "print needs at least one FILE"),
            (["list", "--format", "xml"], "--format must be one of text, json, sarif, github, junit"),
            (["list", "--max-filesize", "lots"], "--max-filesize needs a size"),
            (["list", "--colour", "never"], "unknown option --colour for highlight-ls list; did you mean --color?"),
            (["--clientProcessId", "abc"], "--clientProcessId needs a whole number"),
            (["--clientProcessId=12x"], "--clientProcessId needs a whole number"),
            (["frobnicate"], "unknown command frobnicate"),
            (["check", "--config"], "--config needs a value"),
            (["check", "--config", "nope.json"], "nope.json: error: no such file"),
            (["list", "-", "-"], "- (standard input) can be named once"),
            (["print", "--stdin-filename", "a.txt", "a.txt"], "--stdin-filename names standard input, but - is not among the paths"),
            (["list", "--glob"], "--glob needs a value (GLOB)"),
            (["list", "-g", ""], "--glob needs a value, not an empty string"),
            (["check", "--rule="], "--rule needs a value, not an empty string"),
            (["list", "-x"], "unknown option -x for highlight-ls list"),
            (["init", "-q"], "unknown option -q for highlight-ls init"),
        ]
        for (arguments, message) in cases {
            let result = try Self.run(arguments, in: root)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.errors.contains(message), "\(arguments): \(result.errors)")
            #expect(!result.errors.contains("0 files"), "\(arguments)")
        }
    }

    @Test func pluralsAreRight() throws {
        let root = try Self.tree([
            ".highlights.json": #"{ "rules": [ { "name": "stop", "words": ["STOP"], "blocking": true } ] }"#,
            "one.txt": "STOP\n", "two.txt": "STOP STOP\n", "none.txt": "fine\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try Self.run(["check", "one.txt"], in: root).errors.contains("1 blocking match in 1 file (1 file searched)"))
        #expect(try Self.run(["check"], in: root).errors.contains("3 blocking matches in 2 files (3 files searched)"))
        #expect(try Self.run(["check", "none.txt"], in: root).errors.contains("no blocking matches in 1 file searched"))
    }

    /// Each match is one line of text or JSON, whatever its text: line breaks escaped, other characters as they are
    /// in text and escaped as JSON wants in JSON, columns in bytes.
    @Test func listWritesEachMatchOnOneLine() throws {
        let root = try Self.tree([
            ".highlights.json": #"""
                { "rules": [ { "name": "ticket", "regex": "TK-\\s*[0-9]+" }, { "name": "mark", "regex": "é+" },
                             { "name": "quote", "words": ["say \"hi\\"] } ] }
                """#,
            "f.txt": "a TK-\r\n7 b éé TK-42 say \"hi\\\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try Self.run(["list", "f.txt"], in: root).output == #"""
            f.txt:1:3: ticket: TK-\r\n7
            f.txt:2:5: mark: éé
            f.txt:2:10: ticket: TK-42
            f.txt:2:16: quote: say "hi\

            """#)
        #expect(try Self.run(["list", "--format", "json", "f.txt"], in: root).output == #"""
            {"path":"f.txt","line":1,"column":3,"rule":"ticket","text":"TK-\r\n7","utf8":[2,8],"utf16":[2,8],"utf32":[2,8]}
            {"path":"f.txt","line":2,"column":5,"rule":"mark","text":"éé","utf8":[11,15],"utf16":[11,13],"utf32":[11,13]}
            {"path":"f.txt","line":2,"column":10,"rule":"ticket","text":"TK-42","utf8":[16,21],"utf16":[14,19],"utf32":[14,19]}
            {"path":"f.txt","line":2,"column":16,"rule":"quote","text":"say \"hi\\","utf8":[22,30],"utf16":[20,28],"utf32":[20,28]}

            """#)
    }

    // MARK: Help

    @Test func everyCommandHasHelp() throws {
        let root = try Self.tree([:])
        defer { try? FileManager.default.removeItem(at: root) }
        for command in ["print", "list", "check", "init", "help"] {
            for arguments in [[command, "--help"], [command, "-h"]] {
                let result = try Self.run(arguments, in: root)
                #expect(result.status == 0, "\(arguments)")
                #expect(result.output.hasPrefix("Usage: highlight-ls \(command)"), "\(arguments): \(result.output)")
            }
            if command != "help" {
                let viaHelp = try Self.run(["help", command], in: root)
                #expect(viaHelp.output.hasPrefix("Usage: highlight-ls \(command)"))
            }
        }
        let overview = try Self.run(["--help"], in: root)
        #expect(overview.status == 0)
        for command in ["print", "list", "check", "init"] { #expect(overview.output.contains("highlight-ls \(command) ")) }
        #expect(!overview.output.contains("--generate"))
        let list = try Self.run(["list", "--help"], in: root).output
        for option in [
            "--config", "-g, --glob", "--rule", "--format", "--color", "-q, --quiet", "--stats", "--max-filesize", "--stdin-filename",
            "--allow-config-errors",
        ] { #expect(list.contains(option), "\(option)") }
        // Which rules list prints, said where a user looks.
        #expect(list.contains("list prints the matches of every rule"))
    }

    // MARK: No silent caps

    @Test func largeAndBinaryFilesAreNamedNamedFilesAreSearched() throws {
        let root = try Self.tree([
            ".highlights.json": #"{ "rules": [ { "name": "stop", "words": ["STOP"], "blocking": true } ] }"#,
            "small.txt": "STOP\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        // 9 MiB with a match at the very end.
        var big = [UInt8](repeating: UInt8(ascii: "x"), count: 9 << 20)
        for (offset, byte) in "\nSTOP\n".utf8.enumerated() { big[big.count - 6 + offset] = byte }
        try Data(big).write(to: root.appendingPathComponent("big.log"))
        try Data([0x53, 0x54, 0x4F, 0x50, 0x00, 0x0A]).write(to: root.appendingPathComponent("blob.bin"))

        // A file over the limit could hold a blocking match: check names it and fails, unless --allow-skipped.
        let walked = try Self.run(["check"], in: root)
        #expect(walked.status == 2)
        #expect(walked.output == "./small.txt:1:1: stop: STOP\n")
        #expect(walked.errors.contains("skipped ./big.log: 9 MiB > 8 MiB limit; name it or pass --max-filesize"))
        #expect(walked.errors.contains("1 binary file skipped"))
        #expect(try Self.run(["check", "--allow-skipped"], in: root).status == 1)

        // A list skips it as rg does, saying nothing; --stats counts it.
        let listed = try Self.run(["list"], in: root)
        #expect(listed.status == 0 && listed.errors.isEmpty, "\(listed.errors)")
        let counted = try Self.run(["list", "--stats"], in: root)
        #expect(counted.errors.contains("skipped: 1 binary, 1 over the size limit, 0 unreadable"))

        let named = try Self.run(["list", "big.log"], in: root)
        #expect(named.status == 0)
        #expect(named.output == "big.log:2:1: stop: STOP\n")
        #expect(named.errors.isEmpty)

        let raised = try Self.run(["check", "--max-filesize", "10M", "."], in: root)
        #expect(raised.output == "./big.log:2:1: stop: STOP\n./small.txt:1:1: stop: STOP\n")
        #expect(!raised.errors.contains("big.log"))
        let lowered = try Self.run(["check", "--max-filesize=2", "."], in: root)
        #expect(lowered.errors.contains("skipped ./small.txt: 5 bytes > 2 bytes limit"))
    }

    // MARK: print

    @Test func printDrawsGroupStylesAndColourLiterals() throws {
        let root = try Self.tree([
            ".highlights.json": #"""
                { "colors": true, "rules": [
                  { "name": "ticket", "regex": "([A-Z]+)-([0-9]+)", "style": { "color": "#0000ff" },
                    "groups": { "2": { "color": "#00ff00" } } },
                ] }
                """#,
            "a.css": "ABC-12 color: #ff8800;\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let drawn = try Self.run(["print", "--color", "always", "a.css"], in: root)
        #expect(drawn.status == 0, "\(drawn.errors)")
        let escape = "\u{1B}["
        // The rule's colour up to the group, the group's own colour, then the literal on its own colour.
        #expect(drawn.output.contains("\(escape)38;2;0;0;255mABC-\(escape)0m"))
        #expect(drawn.output.contains("\(escape)38;2;0;255;0m12\(escape)0m"))
        #expect(drawn.output.contains("48;2;255;136;0m#ff8800\(escape)0m"))
        // NO_COLOR turns auto off; --color always wins over it; never is plain.
        for (arguments, environment, coloured) in [
            (["print", "a.css"], ["NO_COLOR": "1"], false), (["print", "--color", "always", "a.css"], ["NO_COLOR": "1"], true),
            (["print", "--color=never", "a.css"], [:], false),
        ] {
            let result = try Self.run(arguments, in: root, environment: environment)
            #expect(result.output.contains(escape) == coloured, "\(arguments) \(environment)")
            if !coloured { #expect(result.output == "ABC-12 color: #ff8800;\n") }
        }
        let listed = try Self.run(["list", "--color", "always", "a.css"], in: root)
        #expect(listed.output.hasPrefix("\(escape)35ma.css\(escape)0m:\(escape)32m1\(escape)0m:1: "))
    }

    // MARK: init

    @Test func initWritesAConfigurationThatWorks() throws {
        let root = try Self.tree(["src/a.txt": "// DO NOT MERGE\n// TODO later\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let written = try Self.run(["init"], in: root)
        #expect(written.status == 0)
        let path = root.appendingPathComponent(".highlights.json")
        let text = try String(contentsOf: path, encoding: .utf8)
        #expect(text.contains(#""$schema": "./.highlights.schema.json""#))
        #expect(!text.contains("example.invalid"))
        for builtIn in ["fixme", "todo", "hack", "note", "review", "deprecated"] { #expect(text.contains(#"// { "name": "\#(builtIn)""#)) }
        let check = try Self.run(["check"], in: root)
        #expect(check.status == 1)
        #expect(check.errors.contains("1 blocking match"))
        #expect(!check.errors.contains("error:") && !check.errors.contains("warning:"))
        #expect(try Self.run(["init"], in: root).status == 1)
        #expect(try Self.run(["init", "--force", "."], in: root).status == 0)

        // The commented rules are real: uncommented, they load without a problem and find the same.
        let uncommented = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("    // {") ? "    " + $0.dropFirst(7) : String($0) }.joined(separator: "\n")
        try Data(uncommented.utf8).write(to: path)
        let list = try Self.run(["list"], in: root)
        #expect(list.status == 0, "\(list.errors)")
        #expect(list.output.contains("./src/a.txt:2:4: todo: TODO"))
        #expect(list.output.contains("./src/a.txt:1:4: do-not-merge: DO NOT MERGE"))
    }

    /// The built-in rules that `init` writes as comments are the built-in rules: uncommented and read by the loader, each
    /// equals its built-in rule, key for key (`scope`, `languages`, `list`, `severity`, ...).
    @Test func initWritesTheBuiltInRulesExactly() throws {
        let root = try Self.tree([:])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try Self.run(["init"], in: root).status == 0)
        let text = try String(contentsOf: root.appendingPathComponent(".highlights.json"), encoding: .utf8)
        let uncommented = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("    // {") ? "    " + $0.dropFirst(7) : String($0) }.joined(separator: "\n")
        let (parsed, diagnostics) = ConfigLayer.parse(fileContents: Array(uncommented.utf8), source: ".highlights.json")
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        let layer = try #require(parsed)
        // The file's own rules come first: the blocking one and the ticket example.
        #expect(layer.rules.prefix(2).map(\.name) == ["do-not-merge", "ticket"])
        let copies = Array(layer.rules.dropFirst(2))
        #expect(copies.map(\.name) == ConfigLayer.builtIn.rules.map(\.name))
        for (copy, builtIn) in zip(copies, ConfigLayer.builtIn.rules) {
            #expect(copy == builtIn, "\(builtIn.name): \(copy) is not \(builtIn)")
        }
    }

    /// `--print-schema` prints the schema the repository ships, byte for byte (it is built in from that file).
    @Test func thePrintedSchemaIsTheRepositorysFile() throws {
        let printed = try Self.run(["--print-schema"], in: Self.repositoryRoot)
        #expect(printed.status == 0)
        let shipped = try Data(contentsOf: Self.repositoryRoot.appendingPathComponent("schema/highlights.schema.json"))
        #expect(Data(printed.output.utf8) == shipped, "rebuild: the schema is built in when highlight-ls is built")
    }

    // MARK: README

    /// The Quick start's first command, as README.md gives it, shows a ticket id highlighted: the demo's own
    /// configuration (examples/.highlights.json) adds the ticket rule to the built-in ones.
    @Test func theQuickStartDemoHighlightsATicketID() throws {
        let readme = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let command = try #require(
            readme.split(separator: "\n").first { $0.hasPrefix("swift run -c release highlight-ls ") },
            "README.md's Quick start runs highlight-ls")
        let words = command.prefix { $0 != "#" }.split(separator: " ").dropFirst(5).map(String.init)
        #expect(words == ["print", "examples/demo.txt"])
        let drawn = try Self.run(Array(words.prefix(1)) + ["--color", "always"] + words.dropFirst(), in: Self.repositoryRoot)
        #expect(drawn.status == 0, "\(drawn.errors)")
        #expect(drawn.output.contains("ABC-123\u{1B}[0m"), "\(drawn.output)")
        let listed = try Self.run(["list"] + words.dropFirst(), in: Self.repositoryRoot)
        #expect(listed.output.contains(": ticket: ABC-123\n"), "\(listed.output)")
    }

    // MARK: The man page and completions

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    @Test func theCommittedManPageAndCompletionsAreCurrent() throws {
        // The release archive ships these files (scripts/release.sh); they must be what the binary generates.
        let generatedFiles: [(arguments: [String], path: String)] = [
            (["--generate-man"], "docs/highlight-ls.1"),
            (["--generate-completions", "bash"], "completions/highlight-ls.bash"),
            (["--generate-completions", "zsh"], "completions/_highlight-ls"),
            (["--generate-completions", "fish"], "completions/highlight-ls.fish"),
        ]
        for (arguments, path) in generatedFiles {
            let generated = try Self.run(arguments, in: Self.repositoryRoot)
            #expect(generated.status == 0)
            let committed = try String(contentsOf: Self.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
            #expect(generated.output == committed, "regenerate it: .build/debug/highlight-ls \(arguments.joined(separator: " ")) > \(path)")
        }
        let committed = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("docs/highlight-ls.1"), encoding: .utf8)
        for section in ["NAME", "SYNOPSIS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES"] {
            #expect(committed.contains(".SH \(section)\n"))
        }
    }

    /// Whether a shell is installed here; a test that needs a missing one is skipped, and says so.
    static func hasShell(_ path: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: path)
    }

    /// Runs `script` in a real bash with the completions loaded.
    static func bash(_ script: String) throws -> Outcome {
        let executable = try #require(ProcessTests.executable)
        let directory = executable.deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "source <(highlight-ls --generate-completions bash) && " + script]
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = directory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self), errors: String(decoding: errorData, as: UTF8.self))
    }

    @Test(.enabled(if: hasShell("/bin/bash"), "bash is not installed"))
    func bashLoadsTheCompletions() throws {
        let registered = try Self.bash("complete -p highlight-ls")
        #expect(registered.status == 0, "\(registered.errors)")
        #expect(registered.output.contains("-F _highlight_ls highlight-ls"))
        let cases: [(words: [String], expected: [String])] = [
            (["highlight-ls", "ch"], ["check"]),
            (["highlight-ls", ""], ["print", "list", "check", "init", "import", "help"]),
            (["highlight-ls", "list", "--format", ""], ["text", "json", "sarif", "github", "junit", "csv", "markdown"]),
            (["highlight-ls", "check", "--co"], ["--config", "--color"]),
            (["highlight-ls", "list", "--color", "a"], ["always", "auto"]),
            (["highlight-ls", "--gen"], []),
            (["highlight-ls", "--ver"], ["--version"]),
            (["highlight-ls", "help", "i"], ["init", "import"]),
            (["highlight-ls", "import", "--from", ""], ["vscode", "todo-comments", "hl-todo"]),
        ]
        for (words, expected) in cases {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let script = "COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _highlight_ls; printf '%s\\n' \"${COMPREPLY[@]}\""
            let result = try Self.bash(script)
            #expect(result.status == 0, "\(words): \(result.errors)")
            #expect(result.output.split(separator: "\n").map(String.init).sorted() == expected.sorted(), "\(words)")
        }
    }

    @Test func completionsAreGeneratedForEachShell() throws {
        let root = try Self.tree([:])
        defer { try? FileManager.default.removeItem(at: root) }
        for shell in ["bash", "zsh", "fish"] {
            let script = try Self.run(["--generate-completions", shell], in: root)
            #expect(script.status == 0)
            #expect(script.output.contains("highlight-ls"))
        }
        #expect(try Self.run(["--generate-completions", "tcsh"], in: root).status == 2)
    }

    /// Writes `shell`'s completions to a file and checks its syntax with `check`; returns the file.
    static func checkSyntax(of shell: String, at path: String, with check: [String], in root: URL) throws -> URL {
        let script = try Self.run(["--generate-completions", shell], in: root)
        let file = root.appendingPathComponent("completion.\(shell)")
        try Data(script.output.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = check + [file.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(shell): \(message)")
        return file
    }

    @Test(.enabled(if: hasShell("/usr/bin/zsh"), "zsh is not installed (CI installs it, .ci/run)"))
    func zshAcceptsItsCompletions() throws {
        let root = try Self.tree([:])
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try Self.checkSyntax(of: "zsh", at: "/usr/bin/zsh", with: ["-n"], in: root)
    }

    @Test(.enabled(if: hasShell("/usr/bin/fish"), "fish is not installed (CI installs it, .ci/run)"))
    func fishAcceptsItsCompletions() throws {
        let root = try Self.tree([:])
        defer { try? FileManager.default.removeItem(at: root) }
        let file = try Self.checkSyntax(of: "fish", at: "/usr/bin/fish", with: ["--no-execute"], in: root)
        // fish completes from the loaded script as it would at a prompt.
        let complete = Process()
        complete.executableURL = URL(fileURLWithPath: "/usr/bin/fish")
        complete.arguments = ["-c", "source \(file.path); complete -C 'highlight-ls list --format '"]
        let output = Pipe()
        complete.standardOutput = output
        try complete.run()
        let offered = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        complete.waitUntilExit()
        #expect(offered.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) } == ["csv", "github", "json", "junit", "markdown", "sarif", "text"])
    }
}
