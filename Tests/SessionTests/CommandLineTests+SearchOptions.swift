import Foundation
import Testing

/// The options that choose what `print`, `list` and `check` search and say: `--glob`, `--rule`, standard input with
/// `--stdin-filename`, `--quiet` and `--stats`.
extension CommandLineTests {
    /// The paths of text output's lines (`path:line:column: rule: text`), without a leading `./`, sorted.
    static func paths(_ output: String) -> [String] {
        output.split(separator: "\n").map { line in
            let path = String(line.prefix { $0 != ":" })
            return path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        }.sorted()
    }

    static let markTree = [
        ".highlights.json": #"{ "rules": [ { "name": "mark", "words": ["MARK"], "blocking": true } ] }"#,
        ".gitignore": "ignored.py\n",
        "a.txt": "MARK\n", "a.py": "MARK\n", "src/b.py": "MARK\n", "src/b.txt": "MARK\n", "src/deep/c.py": "MARK\n",
        "vendor/v.py": "MARK\n", "vendor/keep/k.py": "MARK\n", ".hidden.py": "MARK\n", "ignored.py": "MARK\n",
    ]

    /// `--glob` as rg's `-g`: a glob without `/` matches a name at any depth, one with `/` the path from the folder
    /// searched; `!` leaves out, a folder left out is not entered; the last glob that matches decides; with an
    /// including glob, a file that none matches is left out. Files named on the command line are searched anyway;
    /// hidden and ignored files stay out. `list` and `check` walk alike.
    @Test func globsNarrowTheWalkAsRipgrepsDo() throws {
        let root = try Self.tree(Self.markTree)
        defer { try? FileManager.default.removeItem(at: root) }
        let everything = ["a.py", "a.txt", "src/b.py", "src/b.txt", "src/deep/c.py", "vendor/keep/k.py", "vendor/v.py"]
        let cases: [(globs: [String], operands: [String], expected: [String])] = [
            ([], [], everything),
            // A name at any depth; hidden and ignored files stay out.
            (["*.py"], [], ["a.py", "src/b.py", "src/deep/c.py", "vendor/keep/k.py", "vendor/v.py"]),
            (["!*.py"], [], ["a.txt", "src/b.txt"]),
            // A path from the folder searched; `*` stays within a segment, `**` crosses them.
            (["src/*.py"], [], ["src/b.py"]),
            (["src/**/*.py"], [], ["src/b.py", "src/deep/c.py"]),
            (["/a.py"], [], ["a.py"]),
            // Braces are alternatives.
            (["*.{py,txt}", "!src/**"], [], ["a.py", "a.txt", "vendor/keep/k.py", "vendor/v.py"]),
            // A folder left out is not entered, whatever is given after it.
            (["*.py", "!vendor/"], [], ["a.py", "src/b.py", "src/deep/c.py"]),
            (["!deep"], [], ["a.py", "a.txt", "src/b.py", "src/b.txt", "vendor/keep/k.py", "vendor/v.py"]),
            (["!vendor/", "vendor/keep/*.py"], [], []),
            // The last glob that matches decides.
            (["!*.py", "src/*.py"], [], ["src/b.py"]),
            (["src/*.py", "!*.py"], [], []),
            // A trailing `/` means folders only: no file is called `a.py/`.
            (["!a.py/"], [], everything),
            // Relative to the folder searched, not to the current directory.
            (["deep/*.py"], ["src"], ["src/deep/c.py"]),
            // A file named on the command line is searched whatever the globs.
            (["!*.py"], ["a.py", "src"], ["a.py", "src/b.txt"]),
        ]
        for (globs, operands, expected) in cases {
            let options = globs.flatMap { ["-g", $0] }
            let listed = try Self.run(["list"] + options + operands, in: root)
            #expect(listed.status == 0, "\(globs) \(operands): \(listed.errors)")
            #expect(Self.paths(listed.output) == expected, "list \(globs) \(operands)")
            // The first glob as `--glob=GLOB` (`*` when there is none, which keeps everything), the others as `-g GLOB`.
            let checked = try Self.run(["check", "--glob=\(globs.first ?? "*")"] + options.dropFirst(2) + operands, in: root)
            // A gate that searched no file checked nothing: that fails.
            #expect(checked.status == (expected.isEmpty ? 2 : 1), "check \(globs) \(operands): \(checked.errors)")
            if expected.isEmpty { #expect(checked.errors.contains("no file was searched: nothing to check"), "\(globs)") }
            if !globs.isEmpty { #expect(Self.paths(checked.output) == expected, "check \(globs) \(operands)") }
        }
        // Searched from inside `src`, the same glob reaches the same file.
        #expect(Self.paths(try Self.run(["list", "-g", "deep/*.py"], in: root.appendingPathComponent("src")).output) == ["deep/c.py"])
    }

    /// `--rule` picks rules before overlaps are resolved, as `check` picks the blocking ones: a rule left out never
    /// hides a picked one. An unknown name is an error that lists the names there are.
    @Test func ruleKeepsTheNamedRules() throws {
        let root = try Self.tree([
            ".highlights.json": #"{ "rules": [ { "name": "later", "words": ["TODO later"] }, { "name": "stop", "words": ["STOP"], "blocking": true } ] }"#,
            "a.txt": "TODO later STOP FIXME\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let cases: [(arguments: [String], status: Int32, output: String, errors: String)] = [
            (["list"], 0, "a.txt:1:1: later: TODO later\na.txt:1:12: stop: STOP\na.txt:1:17: fixme: FIXME\n", ""),
            // `later` would win over `todo`; left out, it hides nothing.
            (["list", "--rule", "todo"], 0, "a.txt:1:1: todo: TODO\n", ""),
            (["list", "--rule", "todo", "--rule=fixme"], 0, "a.txt:1:1: todo: TODO\na.txt:1:17: fixme: FIXME\n", ""),
            (["list", "--rule", "later", "--rule", "todo"], 0, "a.txt:1:1: later: TODO later\n", ""),
            (["list", "--rule", "tood", "--rule", "fixme"], 2, "a.txt:1:17: fixme: FIXME\n",
             #"no rule is named "tood"; the rules are: later, stop, fixme, todo, hack, note, review, deprecated, task"#),
            (["check", "--rule", "stop"], 1, "a.txt:1:12: stop: STOP\n", "1 blocking match in 1 file (1 file searched)"),
            // check keeps the blocking rules among those named.
            (["check", "--rule", "todo"], 2, "", #"no rule is marked "blocking" among the rules given to --rule (todo)"#),
            (["print", "--color", "never", "--rule", "todo"], 0, "TODO later STOP FIXME\n", ""),
            (["print", "--rule", "nope"], 2, "TODO later STOP FIXME\n", #"no rule is named "nope""#),
        ]
        for (arguments, status, output, errors) in cases {
            let result = try Self.run(arguments + ["a.txt"], in: root)
            #expect(result.status == status, "\(arguments): \(result.errors)")
            #expect(result.output == output, "\(arguments)")
            #expect(errors.isEmpty ? result.errors.isEmpty : result.errors.contains(errors), "\(arguments): \(result.errors)")
        }
        let drawn = try Self.run(["print", "--color", "always", "--rule", "fixme", "a.txt"], in: root).output
        #expect(drawn.hasPrefix("TODO later STOP \u{1B}["), "\(drawn)")
    }

    /// `-` is standard input, in each command: searched as the file `--stdin-filename` names would be (the configuration
    /// that governs it, its `files` globs, its language), else with the current directory's configuration and no
    /// language, named `<stdin>`. It is searched where it stands among the paths.
    @Test func standardInputIsSearchedAsTheFileItStandsFor() throws {
        let root = try Self.tree([
            ".highlights.json": #"""
                { "rules": [ { "name": "stop", "words": ["STOP"], "blocking": true, "files": ["!vendor/**"] },
                             { "name": "py", "words": ["PYONLY"], "languages": ["python"] } ] }
                """#,
            "sub/.highlights.json": #"{ "defaults": false, "rules": [ { "name": "sub", "words": ["SUB"] } ] }"#,
            "a.txt": "STOP\n", "b.txt": "STOP\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let input = "# STOP PYONLY SUB TODO\n"
        let cases: [(arguments: [String], folder: String, status: Int32, output: String)] = [
            // No name: the current directory's configuration, no language (so the built-in todo matches anywhere).
            (["list", "-"], "", 0, "<stdin>:1:3: stop: STOP\n<stdin>:1:19: todo: TODO\n"),
            (["list", "-"], "sub", 0, "<stdin>:1:15: sub: SUB\n"),
            // A name: that file's configuration, globs and language (Python: the TODO is in a comment).
            (["list", "--stdin-filename", "src/a.py", "-"], "", 0,
             "src/a.py:1:3: stop: STOP\nsrc/a.py:1:8: py: PYONLY\nsrc/a.py:1:19: todo: TODO\n"),
            (["list", "--stdin-filename", "vendor/a.py", "-"], "", 0, "vendor/a.py:1:8: py: PYONLY\nvendor/a.py:1:19: todo: TODO\n"),
            (["list", "--stdin-filename", "sub/a.py", "-"], "", 0, "sub/a.py:1:15: sub: SUB\n"),
            (["list", "--stdin-filename", "../a.txt", "-"], "sub", 0, "../a.txt:1:3: stop: STOP\n../a.txt:1:19: todo: TODO\n"),
            // In order among the paths.
            (["list", "--rule", "stop", "a.txt", "-", "b.txt"], "", 0, "a.txt:1:1: stop: STOP\n<stdin>:1:3: stop: STOP\nb.txt:1:1: stop: STOP\n"),
            (["list", "--format", "json", "--rule", "stop", "-"], "", 0,
             #"{"path":"<stdin>","line":1,"column":3,"rule":"stop","text":"STOP","utf8":[2,6],"utf16":[2,6],"utf32":[2,6]}"# + "\n"),
            (["check", "-"], "", 1, "<stdin>:1:3: stop: STOP\n"),
            (["check", "--stdin-filename", "vendor/a.py", "-"], "", 0, ""),
            (["print", "--color", "never", "-"], "", 0, input),
            (["print", "-q", "--stdin-filename", "sub/x.txt", "-"], "", 0, ""),
            (["print", "-q", "--stdin-filename", "vendor/x.txt", "--rule", "stop", "-"], "", 1, ""),
        ]
        for (arguments, folder, status, output) in cases {
            let result = try Self.run(arguments, in: root.appendingPathComponent(folder), input: input)
            #expect(result.status == status, "\(arguments) in \(folder): \(result.errors)")
            #expect(result.output == output, "\(arguments) in \(folder)")
        }
        // print draws standard input in the styles of the file it stands for.
        let drawn = try Self.run(["print", "--color", "always", "--stdin-filename", "src/a.py", "-"], in: root, input: input).output
        #expect(drawn.contains("PYONLY\u{1B}[0m"), "\(drawn)")
        // Binary input is skipped silently, as a binary file is.
        let binary = try Self.run(["check", "-"], in: root, input: "STOP\u{0}\n")
        #expect(binary.status == 0 && binary.output.isEmpty)
        #expect(binary.errors.contains("no blocking matches in 0 files searched (1 binary file skipped)"), "\(binary.errors)")
    }

    /// `--quiet` writes nothing to stdout: `list` and `print` answer by their exit code whether something matched (an
    /// error counts only when nothing did), `check` keeps its exit codes and drops its count. Binary files are skipped
    /// silently, named by no line and no annotation; `check`'s count and `--stats` count them.
    @Test func quietAndStatsSayWhatWasAsked() throws {
        let root = try Self.tree([
            ".highlights.json": #"{ "rules": [ { "name": "stop", "words": ["STOP"], "blocking": true } ] }"#,
            "a.txt": "STOP\n", "b.txt": "fine\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        try Data([0x53, 0x54, 0x4F, 0x50, 0x00, 0x0A]).write(to: root.appendingPathComponent("blob.bin"))
        let stats = #"^highlight-ls: (\d+ files?) searched, (\d+ match(es)?) in (\d+ files?); skipped: (\d+) binary, (\d+) over the size limit, (\d+) unreadable; \d+\.\d{3} s\n$"#
        let cases: [(arguments: [String], status: Int32, output: String?, errors: String)] = [
            (["list", "-q"], 0, "", ""),
            (["list", "--quiet", "b.txt"], 1, "", ""),
            (["list", "-q", "--format", "sarif"], 0, "", ""),
            (["list", "-q", "missing"], 2, "", "cannot read missing"),
            (["list", "-q", "missing", "a.txt"], 0, "", "cannot read missing"),
            (["check", "-q"], 1, "", ""),
            (["check", "-q", "b.txt"], 0, "", ""),
            (["check", "-q", "--format", "junit"], 1, "", ""),
            (["print", "-q", "a.txt"], 0, "", ""),
            (["print", "-q", "b.txt"], 1, "", ""),
            (["print", "-q", "b.txt", "missing"], 2, "", "cannot read missing"),
            // Binary files: silent for list, counted by check's last line.
            (["list"], 0, "./a.txt:1:1: stop: STOP\n", ""),
            (["check"], 1, "./a.txt:1:1: stop: STOP\n", "highlight-ls: 1 blocking match in 1 file (2 files searched, 1 binary file skipped)\n"),
            (["check", "b.txt"], 0, "", "highlight-ls: no blocking matches in 1 file searched\n"),
            (["check", "--format", "github"], 1, nil, "1 binary file skipped"),
        ]
        for (arguments, status, output, errors) in cases {
            let result = try Self.run(arguments, in: root)
            #expect(result.status == status, "\(arguments): \(result.errors)")
            if let output { #expect(result.output == output, "\(arguments)") }
            #expect(errors.isEmpty ? result.errors.isEmpty : result.errors.contains(errors), "\(arguments): \(result.errors)")
            #expect(!result.output.contains("blob") && !result.errors.contains("blob"), "\(arguments)")
        }
        // --stats: one line at the end, whatever else is said, quiet or not.
        let statsCases: [(arguments: [String], status: Int32, counts: [String])] = [
            (["list", "--stats"], 0, ["2 files", "1 match", "1 file", "1", "0", "0"]),
            (["check", "-q", "--stats"], 1, ["2 files", "1 match", "1 file", "1", "0", "0"]),
            (["list", "--stats", "--max-filesize", "4"], 0, ["0 files", "0 matches", "0 files", "0", "3", "0"]),
            (["list", "--stats", "b.txt"], 0, ["1 file", "0 matches", "0 files", "0", "0", "0"]),
        ]
        for (arguments, status, counts) in statsCases {
            let result = try Self.run(arguments, in: root)
            #expect(result.status == status, "\(arguments): \(result.errors)")
            let line = String(result.errors.split(separator: "\n").last ?? "") + "\n"
            let found = try #require(line.wholeMatch(of: try Regex(stats)), "\(arguments): \(result.errors)")
            let captured = [1, 2, 4, 5, 6, 7].map { found.output[$0].substring.map(String.init) ?? "" }
            #expect(captured == counts, "\(arguments)")
        }
    }
}
