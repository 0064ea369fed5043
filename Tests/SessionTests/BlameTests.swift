import Foundation
import Testing

/// `list --blame` and `check --older-than` on git repositories built here, with `git blame --porcelain` run by the test
/// on each matched line as the oracle: several authors and dates, a rename, a name with a space, lines changed in the
/// working tree, an untracked file, a nested repository; outside a repository and without git; the age limit on both
/// sides of its boundary.
@Suite struct BlameTests {
    typealias Outcome = CommandLineTests.Outcome

    /// Who commits, and when (`GIT_AUTHOR_DATE` and `GIT_COMMITTER_DATE` both).
    struct Author {
        var name: String
        var email: String
        var date: String
    }

    static let ada = Author(name: "Ada Lovelace", email: "ada@example.invalid", date: "2024-01-15T10:00:00+01:00")
    static let bob = Author(name: "Bob, \"the\" Builder", email: "bob@example.invalid", date: "2025-06-01T08:00:00-05:30")
    static let cy = Author(name: "Cy", email: "cy@example.invalid", date: "2023-03-03T03:03:03+00:00")

    /// Runs git in `directory` as `author` (Ada by default), without the user's configuration; returns stdout.
    @discardableResult
    static func git(
        _ arguments: [String], in directory: URL, as author: Author = ada, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Data {
        let environment = TestProcess.gitEnvironment(name: author.name, email: author.email, date: author.date)
        let (status, output) = try TestProcess.run("/usr/bin/env", ["git"] + arguments, in: directory, environment: environment)
        if status != 0 {
            Issue.record("git \(arguments.joined(separator: " ")) exited \(status)", sourceLocation: sourceLocation)
        }
        return output
    }

    static func write(_ text: String, to name: String, in root: URL) throws {
        let url = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// Lines that stay as they are, so that git sees the file renamed, not deleted and added.
    static let filler = (1...20).map { "int line\($0);\n" }.joined()

    /// A repository: Ada's first commit; Bob's second, which edits a.py and renames a file while changing a line of
    /// it; then a line changed in the working tree, an untracked file, and a nested repository of Cy's.
    static func repository() throws -> URL {
        let root = try CommandLineTests.tree([:])
        try git(["init", "-q", "-b", "main"], in: root)
        try write("# TODO: first\nx = 1\n# FIXME: second\ny = 2\n# TODO: third\n", to: "a.py", in: root)
        try write("// HACK: kept\nint x;\n// TODO: edited on the rename\n" + Self.filler, to: "before.c", in: root)
        try write("# TODO: in a name with a space\n", to: "with space.py", in: root)
        try git(["add", "-A"], in: root)
        try git(["commit", "-qm", "first"], in: root)
        try write("# TODO: first\nx = 1\n# FIXME: second, by Bob now\ny = 2\n# TODO: third\n# NOTE: added by Bob\n", to: "a.py", in: root)
        try git(["mv", "before.c", "after.c"], in: root, as: bob)
        try write("// HACK: kept\nint x;\n// TODO: edited on the rename, by Bob\n" + Self.filler, to: "after.c", in: root)
        try git(["add", "-A"], in: root, as: bob)
        try git(["commit", "-qm", "second"], in: root, as: bob)
        // Not committed: a line changed in the working tree, and a file git does not track.
        try write("# TODO: first, changed here\nx = 1\n# FIXME: second, by Bob now\ny = 2\n# TODO: third\n# NOTE: added by Bob\n", to: "a.py", in: root)
        try write("# HACK: untracked\n", to: "new.py", in: root)
        // A repository inside the first: its files are blamed in their own history.
        let inner = root.appendingPathComponent("inner")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        try git(["init", "-q", "-b", "main"], in: inner, as: cy)
        try write("/* FIXME: nested */\n", to: "n.c", in: inner)
        try git(["add", "-A"], in: inner, as: cy)
        try git(["commit", "-qm", "inner"], in: inner, as: cy)
        return root
    }

    /// The JSON lines of `list`, decoded.
    static func objects(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// What `git blame --porcelain` says of line `line` of the file at `path` (relative to `root`), run by the test in
    /// the file's folder, as the JSON blame object `list --blame` should give.
    static func oracle(path: String, line: Int, root: URL) throws -> [String: String] {
        let file = root.appendingPathComponent(path).standardized
        let folder = file.deletingLastPathComponent()
        let tracked = try git(["ls-files", "--", file.lastPathComponent], in: folder)
        guard !tracked.isEmpty else { return ["state": "uncommitted"] }
        let porcelain = String(decoding: try git(["blame", "--porcelain", "-L", "\(line),\(line)", "--", file.lastPathComponent], in: folder), as: UTF8.self)
        var fields: [String: String] = [:]
        let lines = porcelain.split(separator: "\n", omittingEmptySubsequences: false)
        let commit = String(lines.first?.split(separator: " ").first ?? "")
        for entry in lines.dropFirst() where !entry.hasPrefix("\t") {
            let parts = entry.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        if commit.allSatisfy({ $0 == "0" }) { return ["state": "uncommitted"] }
        let time = try #require(fields["author-time"].flatMap { TimeInterval($0) })
        let zone = try #require(fields["author-tz"])
        let sign = zone.hasPrefix("-") ? -1 : 1
        let offset = sign * ((Int(zone.dropFirst().prefix(2)) ?? 0) * 3600 + (Int(zone.suffix(2)) ?? 0) * 60)
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: offset)
        var date = formatter.string(from: Date(timeIntervalSince1970: time))
        if date.hasSuffix("Z") { date = String(date.dropLast()) + "+00:00" }
        return [
            "state": "committed", "commit": commit, "shortCommit": String(commit.prefix(8)), "author": fields["author"] ?? "",
            "email": String((fields["author-mail"] ?? "").dropFirst().dropLast()), "date": date, "time": fields["author-time"] ?? "",
        ]
    }

    /// A JSON blame object with every value as a string, to compare with the oracle.
    static func flattened(_ blame: Any?) -> [String: String] {
        guard let object = blame as? [String: Any] else { return [:] }
        return object.mapValues { "\($0)" }
    }

    @Test func everyBlameFieldIsGitsOwn() throws {
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(at: root) }
        let listed = try CommandLineTests.run(["list", "--blame", "--format", "json"], in: root)
        #expect(listed.status == 0, "\(listed.errors)")
        #expect(listed.errors == "")
        let objects = Self.objects(listed.output)
        var seen: Set<String> = []
        for object in objects {
            let path = try #require(object["path"] as? String)
            let line = try #require(object["line"] as? Int)
            let expected = try Self.oracle(path: path, line: line, root: root)
            #expect(Self.flattened(object["blame"]) == expected, "\(path):\(line)")
            seen.insert(expected["author"] ?? expected["state"] ?? "")
        }
        // Every kind of line the repository was built to have was found and compared.
        #expect(seen == ["Ada Lovelace", "Bob, \"the\" Builder", "Cy", "uncommitted"], "\(seen)")
        #expect(objects.count == 9, "\(listed.output)")
        // Walk order is kept: the same matches, in the same order, as without blame.
        let plain = try CommandLineTests.run(["list", "--format", "json"], in: root)
        #expect(Self.objects(plain.output).map { "\($0["path"] ?? ""):\($0["line"] ?? "")" } == objects.map { "\($0["path"] ?? ""):\($0["line"] ?? "")" })
    }

    @Test func eachFormatCarriesTheBlame() throws {
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(at: root) }
        let bobs = try Self.oracle(path: "after.c", line: 3, root: root)
        let adas = try Self.oracle(path: "after.c", line: 1, root: root)
        let text = try CommandLineTests.run(["list", "--blame", "after.c", "a.py"], in: root)
        #expect(text.output.hasPrefix("""
            after.c:1:4: hack: HACK (\(adas["shortCommit"] ?? "") Ada Lovelace <ada@example.invalid> 2024-01-15T10:00:00+01:00)
            after.c:3:4: todo: TODO (\(bobs["shortCommit"] ?? "") Bob, "the" Builder <bob@example.invalid> 2025-06-01T08:00:00-05:30)
            a.py:1:3: todo: TODO (not committed yet)

            """), "\(text.output)")

        let sarif = try CommandLineTests.run(["list", "--blame", "--format", "sarif", "after.c"], in: root)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.output.utf8)) as? [String: Any])
        let results = try #require(((log["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        #expect(results.map { Self.flattened(($0["properties"] as? [String: Any])?["blame"]) } == [adas, bobs])

        // Standard input has no file for git to blame: its matches say the blame is unknown, beside a file's.
        let piped = try CommandLineTests.run(["list", "--blame", "--json", "-", "after.c"], in: root, input: "# TODO: piped\n")
        #expect(Self.objects(piped.output).map { Self.flattened($0["blame"]) } == [["state": "unknown"], adas, bobs])
        #expect(piped.errors == "")

        // Without --blame, no format grows blame fields.
        let json = try CommandLineTests.run(["list", "--format", "json", "after.c"], in: root)
        #expect(!json.output.contains("blame"))
    }

    @Test func outsideARepositoryTheMatchesAreListedWithoutBlameAndThatIsSaidOnce() throws {
        let root = try CommandLineTests.tree(["a.py": "# TODO: one\n", "b.py": "# FIXME: two\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let blamed = try CommandLineTests.run(["list", "--blame"], in: root)
        let plain = try CommandLineTests.run(["list"], in: root)
        #expect(blamed.status == 0)
        #expect(blamed.output == plain.output)
        #expect(blamed.errors.components(separatedBy: "not in a git repository").count == 2, "\(blamed.errors)")
        let json = try CommandLineTests.run(["list", "--blame", "--json"], in: root)
        #expect(Self.objects(json.output).map { Self.flattened($0["blame"]) } == [["state": "unknown"], ["state": "unknown"]])
    }

    @Test func withoutGitTheMatchesAreListedWithoutBlameAndThatIsSaidOnce() throws {
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(at: root) }
        let blamed = try CommandLineTests.run(["list", "--blame"], in: root, environment: ["PATH": "/nonexistent"])
        let plain = try CommandLineTests.run(["list"], in: root)
        #expect(blamed.status == 0)
        #expect(blamed.output == plain.output)
        #expect(blamed.errors == "highlight-ls: git was not found on PATH: matches are listed without blame\n")
    }

    // MARK: check --older-than

    /// A commit at midnight UTC, so that `--today` (the start of its day, UTC) can land exactly on a limit.
    static let midnight = Author(name: "Dee", email: "dee@example.invalid", date: "2024-01-01T00:00:00+00:00")

    /// A repository with a blocking rule, NOMERGE, and `a.py` holding `text` committed by `author`.
    static func committedRepository(_ text: String, by author: Author = midnight) throws -> URL {
        let root = try CommandLineTests.tree([".highlights.json": #"{ "rules": [ { "name": "nomerge", "words": ["NOMERGE"], "blocking": true } ] }"#])
        try git(["init", "-q", "-b", "main"], in: root)
        try write(text, to: "a.py", in: root)
        try git(["add", "-A"], in: root, as: author)
        try git(["commit", "-qm", "one"], in: root, as: author)
        return root
    }

    static func checkOlderThan(_ age: String = "180d", today: String, in root: URL) throws -> Outcome {
        try CommandLineTests.run(["check", "--older-than", age, "--today", today], in: root)
    }

    @Test func aWorkItemFailsTheCheckOnlyOnceOlderThanTheLimit() throws {
        let root = try Self.committedRepository("# TODO: old work\nx = 1\n")
        defer { try? FileManager.default.removeItem(at: root) }
        // A line not committed yet is never old, however late it is.
        try Self.write("# TODO: old work\nx = 1\n# FIXME: not committed\n", to: "a.py", in: root)

        // 2024-06-29 is 180 days after 2024-01-01: not older than 180 days.
        let atLimit = try Self.checkOlderThan(today: "2024-06-29", in: root)
        #expect(atLimit.status == 0, "\(atLimit.output)\(atLimit.errors)")
        #expect(atLimit.output == "")
        #expect(atLimit.errors.contains("no blocking matches in 1 file searched; work items (rules marked \"list\") count when older than 180d"),
            "\(atLimit.errors)")
        // A day more fails, on the old line only.
        let past = try Self.checkOlderThan(today: "2024-06-30", in: root)
        #expect(past.status == 1)
        #expect(past.output.hasPrefix("./a.py:1:3: todo: TODO ("), "\(past.output)")
        #expect(past.output.split(separator: "\n").count == 1, "\(past.output)")
        // Ten years on, the uncommitted FIXME still passes.
        let late = try Self.checkOlderThan(today: "2034-01-01", in: root)
        #expect(late.output.split(separator: "\n").count == 1, "\(late.output)")
        // The other units, each on both sides of its limit: 26w is 182 days, 6m 180, 1y 365 (2024 has 366).
        for (age, last, first) in [("26w", "2024-07-01", "2024-07-02"), ("6m", "2024-06-29", "2024-06-30"), ("1y", "2024-12-31", "2025-01-01")] {
            #expect(try Self.checkOlderThan(age, today: last, in: root).status == 0, "\(age) on \(last)")
            #expect(try Self.checkOlderThan(age, today: first, in: root).status == 1, "\(age) on \(first)")
        }
    }

    @Test func aBlockingMatchFailsWhateverItsAge() throws {
        let root = try Self.committedRepository("# NOMERGE yet\n", by: Self.ada)
        defer { try? FileManager.default.removeItem(at: root) }
        let checked = try Self.checkOlderThan(today: "2024-01-16", in: root)
        #expect(checked.status == 1)
        #expect(checked.output.hasPrefix("./a.py:1:3: nomerge: NOMERGE ("), "\(checked.output)")
        // Without --older-than, work items are not the check's business, however old.
        let plain = try CommandLineTests.run(["check"], in: root)
        #expect(plain.output == "./a.py:1:3: nomerge: NOMERGE\n")
    }

    @Test func aWorkItemOfTheSameWordNeverHidesABlockingMatch() throws {
        // The built-in fixme (listed) matches FIXME, longer than the blocking FIX at the same place: searched beside the
        // blocking rules, not with them, it cannot win the overlap and then be dropped as too young, taking the
        // blocking match with it.
        let root = try Self.committedRepository("# FIXME young\n")
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.write(#"{ "rules": [ { "name": "blocker", "words": ["FIX"], "blocking": true } ] }"#, to: ".highlights.json", in: root)
        let checked = try Self.checkOlderThan("1000d", today: "2024-01-16", in: root)
        #expect(checked.status == 1, "\(checked.errors)")
        #expect(checked.output.hasPrefix("./a.py:1:3: blocker: FIX ("), "\(checked.output)")
        #expect(checked.output.split(separator: "\n").count == 1, "\(checked.output)")
    }

    @Test func sarifHoldsTheFieldsAndTheBlameInOnePropertyBag() throws {
        let root = try Self.committedRepository("# TODO(alice, 2024-02-01): x\n# NOMERGE\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let checked = try CommandLineTests.run(["check", "--blame", "--today", "2024-03-01", "--format", "sarif"], in: root)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(checked.output.utf8)) as? [String: Any])
        let results = try #require(((log["runs"] as? [[String: Any]])?.first)?["results"] as? [[String: Any]])
        #expect(results.count == 2)
        let properties = try #require(results[0]["properties"] as? [String: Any])
        #expect(properties["owner"] as? String == "alice")
        #expect(properties["deadline"] as? String == "overdue")
        #expect((properties["blame"] as? [String: Any])?["state"] as? String == "committed")
        // One bag a result: a second "properties" key would be dropped by most readers.
        #expect(checked.output.components(separatedBy: #""properties":{"owner""#).count == 2, "\(checked.output)")
        #expect(checked.output.components(separatedBy: #""properties":{"blame""#).count == 2, "\(checked.output)")
    }

    @Test func aNameThatIsNotUTF8IsBlamedByItsBytes() throws {
        let root = try Self.committedRepository("x = 1\n")
        defer { try? FileManager.default.removeItem(at: root) }
        try ChangedLinesTests.write("# TODO: latin\n", to: ChangedLinesTests.latin1Name, in: root)
        try Self.git(["add", "-A"], in: root)
        try Self.git(["commit", "-qm", "two"], in: root)
        let listed = try CommandLineTests.run(["list", "--blame", "--format", "json"], in: root)
        #expect(!listed.errors.contains("git blame failed"), "\(listed.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: Any])
        #expect(object["path"] as? String == "./caf\\xE9.py")
        #expect((object["blame"] as? [String: Any])?["state"] as? String == "committed", "\(listed.output)")
    }

    @Test func anOverdueDeadlineStillFailsWithAnAgeLimit() throws {
        let root = try Self.committedRepository("# TODO(2024-02-01): young, but overdue\n# TODO: young\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let checked = try Self.checkOlderThan(today: "2024-03-01", in: root)
        #expect(checked.status == 1)
        #expect(checked.output.hasPrefix("./a.py:1:3: todo: TODO (overdue"), "\(checked.output)")
        #expect(checked.output.split(separator: "\n").count == 1, "\(checked.output)")
    }

    @Test(arguments: ["180", "d", "180x", "-1d", "1.5w", "99999999999999999y"])
    func aBadAgeIsAUsageError(age: String) throws {
        let root = try CommandLineTests.tree(["a.py": "# TODO\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let checked = try CommandLineTests.run(["check", "--older-than", age], in: root)
        #expect(checked.status == 2)
        #expect(checked.errors.contains("--older-than needs a number and a unit"), "\(checked.errors)")
    }
}

extension BlameTests {
    /// The commands between `<!-- blame-recipe -->` and `<!-- /blame-recipe -->` in README.md.
    static func readmeRecipe() throws -> [String] {
        let readme = try String(contentsOf: CommandLineTests.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "<!-- blame-recipe -->"))
        let end = try #require(lines[start...].firstIndex(of: "<!-- /blame-recipe -->"))
        return lines[(start + 1)..<end].filter { !$0.hasPrefix("```") }.map(String.init)
    }

    @Test(.enabled(if: CommandLineTests.hasShell("/bin/bash"), "bash is not installed"))
    func theReadmeRecipeFindsTheOldWorkItems() throws {
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(at: root) }
        let executable = try #require(ProcessTests.executable)
        func bash(_ script: String) throws -> (status: Int32, output: String) {
            let path = executable.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            let (status, output) = try TestProcess.run("/bin/bash", ["-e", "-c", script], in: root, environment: ["PATH": path])
            return (status, String(decoding: output, as: UTF8.self))
        }
        let recipe = try Self.readmeRecipe()
        #expect(recipe.count == 3, "\(recipe)")
        let authors = try bash(recipe[0])
        #expect(authors.status == 0)
        #expect(authors.output.hasPrefix("Ada Lovelace <ada@example.invalid> (3 matches):\n"), "\(authors.output)")
        let ages = try bash(recipe[1])
        #expect(ages.status == 0)
        #expect(ages.output.hasPrefix("not committed yet 2\n"), "\(ages.output)")
        // The repository's commits are from 2024 and 2025: its work items are old, and the gate fails on them.
        let gate = try bash(recipe[2])
        #expect(gate.status == 1)
        #expect(gate.output.contains("a.py:3:3: fixme: FIXME ("), "\(gate.output)")
        #expect(!gate.output.contains("not committed yet"), "\(gate.output)")
    }
}
