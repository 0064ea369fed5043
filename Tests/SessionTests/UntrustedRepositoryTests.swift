import Foundation
import Testing

/// A repository nobody vetted, through the built executable: each way it could make the command line write outside
/// itself, hide a match from `check`, or forge lines in a CI log, and the safe behaviour instead.
@Suite struct UntrustedRepositoryTests {
    typealias Outcome = CommandLineTests.Outcome

    static func run(
        _ arguments: [String], in directory: URL, answersWithin seconds: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Outcome {
        try CommandLineTests.run(arguments, in: directory, answersWithin: seconds, sourceLocation: sourceLocation)
    }

    static func tree(_ files: [String: String]) throws -> URL { try CommandLineTests.tree(files) }

    static func bytes(at url: URL) -> [UInt8]? { (try? Data(contentsOf: url)).map { [UInt8]($0) } }

    static let blocking = #"{ "rules": [ { "name": "dnm", "words": ["DO NOT MERGE"], "blocking": true } ] }"#
}

// MARK: - Writing files

extension UntrustedRepositoryTests {
    /// (what the link points to, whether that file exists): a link is refused, named with its target, with or
    /// without `--force`, and nothing outside the folder is changed or created.
    static let links: [(String, Bool)] = [("../outside/victim.txt", true), ("../outside/new.txt", false), ("/tmp/absolute-\(UUID().uuidString)", false)]

    @Test(arguments: links, [false, true])
    func initDoesNotWriteThroughALink(link: (target: String, exists: Bool), force: Bool) throws {
        let (target, exists) = link
        let root = try Self.tree(["outside/victim.txt": "precious\n", "repo/": ""])
        defer { try? FileManager.default.removeItem(at: root) }
        let repo = root.appendingPathComponent("repo")
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/.highlights.json", withDestinationPath: target)
        let result = try Self.run(["init"] + (force ? ["--force"] : []) + ["repo"], in: root)
        #expect(result.status == 1)
        #expect(result.errors.contains("cannot write repo/.highlights.json: .highlights.json is a symbolic link to \(target); it is not written through"))
        #expect(Self.bytes(at: root.appendingPathComponent("outside/victim.txt")) == Array("precious\n".utf8))
        let created = target.hasPrefix("/") ? URL(fileURLWithPath: target) : repo.appendingPathComponent(target)
        if !exists { #expect(!FileManager.default.fileExists(atPath: created.path), "init created \(created.path)") }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: repo.path + "/.highlights.json") == target)
    }

    /// A FIFO, a directory or a socket named `.highlights.json` is refused at once: never opened, so a FIFO without a
    /// writer cannot hold `init` (the run must end within a second).
    @Test(arguments: ["FIFO", "directory"])
    func initRefusesASpecialFileAtOnce(kind: String) throws {
        let root = try Self.tree([:])
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.path + "/.highlights.json"
        if kind == "FIFO" {
            try #require(mkfifo(path, 0o644) == 0)
        } else {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        let result = try Self.run(["init", "--force"], in: root, answersWithin: 1)
        #expect(result.status == 1)
        let described = kind == "FIFO" ? "is not a regular file (a FIFO)" : "is a directory, not a file"
        #expect(result.errors.contains(".highlights.json \(described); it is left as it is"), "\(result.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == [".highlights.json"])
    }

    /// A regular file is replaced whole, through a new file renamed over it: mode 0644, and no other file left behind.
    @Test func initReplacesARegularFileWhole() throws {
        let root = try Self.tree([".highlights.json": "{ \"old\": true }\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try Self.run(["init", "--force"], in: root)
        #expect(result.status == 0, "\(result.errors)")
        let written = try String(contentsOf: root.appendingPathComponent(".highlights.json"), encoding: .utf8)
        #expect(written.contains("\"do-not-merge\""))
        let attributes = try FileManager.default.attributesOfItem(atPath: root.path + "/.highlights.json")
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o022 } == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == [".highlights.json"])
    }

    /// A folder on a 64 KiB tmpfs, mounted for the test (root only), or nil when that cannot be done here.
    static let smallFileSystem: URL? = {
        guard getuid() == 0 else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("full-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil,
              let status = try? runTool("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", folder.path]), status == 0
        else { return nil }
        return folder
    }()

    /// Runs a system tool (the test's, never the program's) and returns its exit status.
    static func runTool(_ path: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// On a full disk the new text cannot be written: the old configuration stays byte for byte, and no partial file
    /// is left beside it.
    @Test(
        .enabled(if: getuid() == 0, "mounting a tmpfs needs root (CI runs as root)"),
        .enabled(if: smallFileSystem != nil, "mount -t tmpfs -o size=64k failed here (a container without CAP_SYS_ADMIN?)"))
    func aFailedWriteLeavesTheOldFileByteForByte() throws {
        let folder = try #require(Self.smallFileSystem)
        defer {
            _ = try? Self.runTool("/bin/umount", [folder.path])
            try? FileManager.default.removeItem(at: folder)
        }
        let old = Array("// the team's configuration\n{ \"rules\": [] }\n".utf8)
        try Data(old).write(to: folder.appendingPathComponent(".highlights.json"))
        // Fill what is left, 4 KiB at a time, until the file system refuses.
        let filler = open(folder.path + "/filler", O_WRONLY | O_CREAT, 0o644)
        try #require(filler >= 0)
        let block = [UInt8](repeating: 0x78, count: 4096)
        while block.withUnsafeBytes({ write(filler, $0.baseAddress, $0.count) }) > 0 {}
        close(filler)

        let result = try Self.run(["init", "--force", folder.path], in: folder)
        #expect(result.status == 1)
        #expect(result.errors.contains("no space left on device; the old file is unchanged"), "\(result.errors)")
        #expect(Self.bytes(at: folder.appendingPathComponent(".highlights.json")) == old)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [".highlights.json", "filler"])
    }
}

// MARK: - What the gate sees

extension UntrustedRepositoryTests {
    /// The outer rule every case below is compared with.
    static let outerRule = #"{ "name": "dnm", "words": ["DO NOT MERGE", "NOMERGE"], "caseSensitive": false, "blocking": true }"#

    /// (case, the nested file's rules, how `check` says it narrows the outer rule; nil when it does not)
    static let nestedRules: [(String, String, String?)] = [
        ("the same rule", outerRule, nil),
        ("more words", #"{ "name": "dnm", "words": ["DO NOT MERGE", "NOMERGE", "WIP"], "caseSensitive": false, "blocking": true }"#, nil),
        ("a name-only files glob", #"{ "name": "dnm", "words": ["DO NOT MERGE", "NOMERGE"], "caseSensitive": false, "blocking": true, "files": ["*.txt"] }"#,
         "limits its files"),
        ("not blocking", #"{ "name": "dnm", "words": ["DO NOT MERGE", "NOMERGE"], "caseSensitive": false }"#, "makes it not blocking"),
        ("left out", #"{ "name": "other", "words": ["WIP"], "blocking": true }"#, "has no rule of that name"),
        ("turned off", #"{ "name": "dnm", "enabled": false }, { "name": "other", "words": ["WIP"], "blocking": true }"#, "has no rule of that name"),
        ("fewer words", #"{ "name": "dnm", "words": ["DO NOT MERGE"], "caseSensitive": false, "blocking": true }"#, #"drops the words "NOMERGE""#),
        ("a regex", #"{ "name": "dnm", "regex": "DO NOT MERGE|NOMERGE", "caseSensitive": false, "blocking": true }"#, "gives it another pattern"),
        ("matching case", #"{ "name": "dnm", "words": ["DO NOT MERGE", "NOMERGE"], "blocking": true }"#, "makes it match case"),
        ("whole words", #"{ "name": "dnm", "words": ["DO NOT MERGE", "NOMERGE"], "caseSensitive": false, "wholeWord": true, "blocking": true }"#,
         "makes it match whole words only"),
        ("comments only", #"{ "name": "dnm", "words": ["DO NOT MERGE", "NOMERGE"], "caseSensitive": false, "scope": "comments", "blocking": true }"#,
         "limits its scope"),
        ("some languages", #"{ "name": "dnm", "words": ["DO NOT MERGE", "NOMERGE"], "caseSensitive": false, "languages": ["python"], "blocking": true }"#,
         "limits its languages"),
        ("files of its own", #"{ "name": "dnm", "words": ["DO NOT MERGE", "NOMERGE"], "caseSensitive": false, "files": ["src/**"], "blocking": true }"#,
         "limits its files"),
    ]

    /// A nested `.highlights.json` that narrows a blocking rule of the file above is named with both files and the
    /// rule; by default the run fails (exit 2), with `"nestedConfigs": "report"` it is a warning.
    @Test(arguments: nestedRules)
    func aNestedFileThatNarrowsABlockingRuleIsReported(name: String, nested: String, change: String?) throws {
        for policy in [nil, "report", "forbid"] as [String?] {
            let setting = policy.map { #""nestedConfigs": "\#($0)", "# } ?? ""
            let root = try Self.tree([
                ".highlights.json": #"{ \#(setting)"rules": [ \#(Self.outerRule) ] }"#,
                "a.txt": "fine\n",
                "sub/.highlights.json": #"{ "rules": [ \#(nested) ] }"#,
                "sub/a.txt": "do not merge\n",
            ])
            defer { try? FileManager.default.removeItem(at: root) }
            let result = try Self.run(["check"], in: root)
            let line = #"sub/.highlights.json narrows the blocking rule "dnm" of .highlights.json: it "#
            guard let change else {
                #expect(!result.errors.contains("narrows"), "\(name): \(result.errors)")
                #expect(result.status == 1, "\(name): \(result.errors)")
                continue
            }
            #expect(result.errors.contains(line + change), "\(name), \(policy ?? "default"): \(result.errors)")
            if policy == "report" {
                #expect(result.errors.contains("(allowed by \"nestedConfigs\": \"report\")"))
                #expect(result.status < 2, "\(name): \(result.errors)")
            } else {
                #expect(result.errors.contains("may not narrow a blocking rule"), "\(name)")
                #expect(result.status == 2, "\(name), \(policy ?? "default"): \(result.errors)")
            }
        }
    }

    /// A file in between cannot hand on a rule it narrowed, nor loosen what the root forbids.
    @Test func aFileInBetweenChangesNothing() throws {
        let root = try Self.tree([
            ".highlights.json": #"{ "nestedConfigs": "forbid", "rules": [ { "name": "dnm", "words": ["DO NOT MERGE"], "blocking": true } ] }"#,
            "a.txt": "fine\n",
            // Governs no searched file itself: only its folder below does.
            "mid/.highlights.json": #"{ "nestedConfigs": "report", "rules": [ { "name": "dnm", "words": ["DO NOT MERGE"] } ] }"#,
            "mid/leaf/.highlights.json": #"{ "rules": [ { "name": "dnm", "words": ["DO NOT MERGE"] }, { "name": "wip", "words": ["WIP"], "blocking": true } ] }"#,
            "mid/leaf/a.txt": "DO NOT MERGE\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try Self.run(["check"], in: root)
        #expect(result.status == 2)
        #expect(result.errors.contains(#"mid/leaf/.highlights.json narrows the blocking rule "dnm" of .highlights.json: it makes it not blocking"#))
        #expect(!result.errors.contains("(allowed by"), "\(result.errors)")
        // With --config one file governs everything: nothing is nested.
        #expect(try Self.run(["check", "--config", ".highlights.json"], in: root).status == 1)
    }

    /// A file in UTF-16 or UTF-32 with a byte order mark is searched, its positions those of its UTF-8 transcoding
    /// without the mark, as `rg -n --column` gives them for UTF-16.
    @Test func encodedFilesAreSearched() throws {
        let root = try Self.tree([".highlights.json": Self.blocking, ".git/": ""])
        defer { try? FileManager.default.removeItem(at: root) }
        let text = "é x DO NOT MERGE\n𝄞 DO NOT MERGE\n"
        let encodings: [(String, String.Encoding, [UInt8])] = [
            ("u16be.txt", .utf16BigEndian, [0xFE, 0xFF]), ("u16le.txt", .utf16LittleEndian, [0xFF, 0xFE]),
            ("u32be.txt", .utf32BigEndian, [0x00, 0x00, 0xFE, 0xFF]), ("u32le.txt", .utf32LittleEndian, [0xFF, 0xFE, 0x00, 0x00]),
        ]
        for (name, encoding, mark) in encodings {
            try Data(mark + [UInt8](try #require(text.data(using: encoding)))).write(to: root.appendingPathComponent(name))
        }
        let result = try Self.run(["check"], in: root)
        #expect(result.status == 1, "\(result.errors)")
        #expect(result.output == encodings.map { "./\($0.0):1:6: dnm: DO NOT MERGE\n./\($0.0):2:6: dnm: DO NOT MERGE\n" }.joined())
        #expect(!result.errors.contains("binary"))
        let json = try Self.run(["list", "--json", "u16le.txt"], in: root).output
        #expect(json.contains(#""line":2,"column":6,"rule":"dnm","text":"DO NOT MERGE","utf8":[23,35],"utf16":[20,32],"utf32":[19,31]"#), "\(json)")
        if let rg = ["/usr/bin/rg", "/usr/local/bin/rg"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: rg)
            process.arguments = ["-n", "--column", "--no-heading", "-H", "DO NOT MERGE", "u16le.txt", "u16be.txt"]
            process.currentDirectoryURL = root
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let positions = output.split(separator: "\n").map { $0.split(separator: ":").prefix(3).joined(separator: ":") }.sorted()
            let ours = try Self.run(["list", "u16le.txt", "u16be.txt"], in: root).output.split(separator: "\n")
                .map { $0.split(separator: ":").prefix(3).joined(separator: ":") }.sorted()
            #expect(positions == ours)
        }
    }

    /// A file over the size limit could hold a blocking match: `check` fails (exit 2) unless `--allow-skipped`, and
    /// names it either way.
    @Test func aFileOverTheLimitFailsTheCheck() throws {
        let root = try Self.tree([".highlights.json": Self.blocking, "small.txt": "fine\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        var big = [UInt8](repeating: UInt8(ascii: "x"), count: 9 << 20)
        for (offset, byte) in "\nDO NOT MERGE\n".utf8.enumerated() { big[big.count - 14 + offset] = byte }
        try Data(big).write(to: root.appendingPathComponent("big.log"))
        let failing = try Self.run(["check"], in: root)
        #expect(failing.status == 2)
        #expect(failing.errors.contains("skipped ./big.log: 9 MiB > 8 MiB limit; name it or pass --max-filesize"))
        #expect(failing.errors.contains("1 file or folder that could hold a blocking match was not searched"), "\(failing.errors)")
        let allowed = try Self.run(["check", "--allow-skipped"], in: root)
        #expect(allowed.status == 0)
        #expect(allowed.errors.contains("skipped ./big.log"))
        #expect(try Self.run(["check", "--max-filesize", "10M"], in: root).status == 1)
        // list is no gate: a skipped file is named, and the run succeeds.
        #expect(try Self.run(["list"], in: root).status == 0)
    }

    /// Binary files are skipped as ripgrep skips them: named nowhere, silent for `list`, counted in `check`'s last line.
    @Test func binaryFilesAreSkippedSilently() throws {
        let root = try Self.tree([".highlights.json": Self.blocking, "a.txt": "fine\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        for number in 1...3 { try Data([0x44, 0x00, 0x0A]).write(to: root.appendingPathComponent("blob\(number).bin")) }
        let cases: [(command: String, errors: String)] = [
            ("list", ""),
            ("check", "highlight-ls: no blocking matches in 1 file searched (3 binary files skipped)\n"),
        ]
        for (command, errors) in cases {
            let result = try Self.run([command], in: root)
            #expect(result.status == 0, "\(command): \(result.errors)")
            #expect(result.errors == errors, "\(command)")
            #expect(!result.output.contains("blob"))
        }
    }

    static let gitPath = ["/usr/bin/git", "/usr/local/bin/git"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A file git tracks is searched by `check` even where an ignore file matches it, as git reads ignore files; an
    /// untracked file there is not, and `list` obeys the ignore files alone, as ripgrep does.
    @Test(.enabled(if: gitPath != nil, "git is not installed"))
    func aTrackedFileThatAnIgnoreFileMatchesIsChecked() throws {
        let root = try Self.tree([
            ".highlights.json": Self.blocking, ".gitignore": "generated/\n*.log\n",
            "generated/tracked.txt": "DO NOT MERGE\n", "generated/untracked.txt": "DO NOT MERGE\n", "kept.log": "DO NOT MERGE\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let git = try #require(Self.gitPath)
        for arguments in [["init", "-q"], ["add", "."], ["add", "-f", "generated/tracked.txt", "kept.log"]] {
            #expect(try Self.runTool(git, ["-C", root.path] + arguments) == 0)
        }
        let checked = try Self.run(["check"], in: root)
        #expect(checked.status == 1)
        #expect(checked.output == "./generated/tracked.txt:1:1: dnm: DO NOT MERGE\n./kept.log:1:1: dnm: DO NOT MERGE\n")
        #expect(try Self.run(["list"], in: root).output.isEmpty)
    }
}

// MARK: - What the gate prints

extension UntrustedRepositoryTests {
    /// Names and texts that try to start a line of their own in a CI log, or send escape sequences to a terminal.
    static func hostileTree() throws -> URL {
        let root = try Self.tree([
            ".highlights.json": #"{ "rules": [ { "name": "dnm", "regex": "DO NOT MERGE.*", "blocking": true } ] }"#,
            "x\n::error file=README.md,line=1::forged\n.txt": "DO NOT MERGE\n",
            "e\u{1B}[31mred\u{7}.txt": "DO NOT MERGE \u{1B}]0;title\u{7} \u{1B}[2J\r::error::forged\n",
            "csi\u{9B}31m.txt": "DO NOT MERGE\u{9B}2J\n",
            // A broken configuration in a folder whose name is a workflow command, with a key that holds a line break.
            "::error::forged folder/.highlights.json":
                #"{ "x\n::error::forged key": 1, "rules": [ { "name": "dnm", "regex": "DO NOT MERGE.*", "blocking": true } ] }"#,
            "::error::forged folder/a.txt": "DO NOT MERGE\n",
        ])
        return root
    }

    /// In text and github output, and on stderr, no line begins with `::` but the program's own workflow commands,
    /// and no ESC, BEL or C1 control reaches the terminal but the program's own colours.
    @Test(arguments: [["--format", "text"], ["--format", "text", "--color", "always"], ["--format", "github"]])
    func hostileNamesAndTextsForgeNothing(format: [String]) throws {
        let root = try Self.hostileTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try Self.run(["check", "--allow-config-errors"] + format, in: root)
        #expect(result.status == 1, "\(result.errors)")
        let github = format.contains("github")
        let ownCommand = /^::error file=[^,:\n]*,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=dnm::[^\n]*$/
        let outputLines = result.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(outputLines.count == 4, "\(result.output)")
        for line in outputLines {
            #expect(!line.contains("\r"))
            if github {
                #expect(line.wholeMatch(of: ownCommand) != nil, "not one of the program's commands: \(line)")
            } else {
                #expect(!line.hasPrefix("::"), "\(line)")
            }
        }
        for line in result.errors.split(separator: "\n") { #expect(!line.hasPrefix("::") && !line.contains("\r"), "\(line)") }
        // The program's own colours are the only escape sequences.
        let withoutOwnColours = result.output.replacing(/\u{1B}\[[0-9;]*m/, with: "")
        for text in [withoutOwnColours, result.errors] {
            #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || (0x80...0x9F).contains($0.value) }, "\(text)")
        }
        #expect(result.errors.contains(#"./::error::forged folder/.highlights.json:1:3: warning: unknown top-level key "x\n::error::forged key""#))
        if format == ["--format", "text"] {
            // Shown escaped as the walk shows bytes that are not UTF-8; a `.` of the regex stops at the `\r`.
            #expect(result.output.contains(#"./x\x0A::error file=README.md,line=1::forged\x0A.txt:1:1: dnm: DO NOT MERGE\#n"#))
            #expect(result.output.contains(#"./e\x1B[31mred\x07.txt:1:1: dnm: DO NOT MERGE \x1B]0;title\x07 \x1B[2J\#n"#))
            #expect(result.output.contains(#"./csi\xC2\x9B31m.txt:1:1: dnm: DO NOT MERGE\xC2\x9B2J\#n"#))
        }
    }
}
