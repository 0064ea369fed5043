import Foundation
import Testing

/// `list --since REF` and `check --staged` on git repositories built here, with git itself as the oracle: a line
/// counts as changed when `git blame` gives it to a commit the merge base does not contain, or to no commit yet.
@Suite struct ChangedLinesTests {
    typealias Outcome = CommandLineTests.Outcome

    /// Runs git in `directory` with fixed identities and dates; returns stdout, and records an issue when git fails
    /// unless `mayFail`.
    @discardableResult
    static func git(
        _ arguments: [String], in directory: URL, mayFail: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (status: Int32, output: Data) {
        let environment = TestProcess.gitEnvironment(name: "Ada", email: "ada@example.invalid", date: "2026-01-01T00:00:00Z")
        let (status, output) = try TestProcess.run("/usr/bin/env", ["git"] + arguments, in: directory, environment: environment)
        if !mayFail, status != 0 {
            Issue.record("git \(arguments.joined(separator: " ")) exited \(status)", sourceLocation: sourceLocation)
        }
        return (status, output)
    }

    static let config = #"{ "rules": [ { "name": "blocker", "words": ["FIXME"], "blocking": true } ] }"#

    /// The name of a file that is not valid UTF-8 (Latin-1 "café"), and how the tool shows it.
    static let latin1Name = "caf\u{E9}.py"

    /// Writes `text` to `name`, a name whose scalars below 256 are its bytes (so `\u{E9}` is written in Latin-1).
    static func write(_ text: String, to name: String, in root: URL) throws {
        let path = Array(root.path.utf8) + [UInt8(ascii: "/")] + name.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } + [0]
        let descriptor = path.withUnsafeBytes { open($0.baseAddress!.assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let written = Array(text.utf8).withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        #expect(written == text.utf8.count)
    }

    static func lines(_ count: Int, marker every: Int, tag: String) -> String {
        (1...count).map { $0 % every == 0 ? "# FIXME: \(tag) \($0)" : "x\($0) = \($0)" }.joined(separator: "\n") + "\n"
    }

    /// A repository with a `main` branch, a `feature` branch that edits, renames and adds, and then staged,
    /// unstaged and untracked changes on top.
    static func repository() throws -> URL {
        let root = try CommandLineTests.tree([".highlights.json": config])
        try git(["init", "-q", "-b", "main"], in: root)
        try write(lines(40, marker: 4, tag: "old"), to: "a.py", in: root)
        try write(lines(30, marker: 5, tag: "moved"), to: "before rename.py", in: root)
        try write(lines(12, marker: 3, tag: "latin"), to: latin1Name, in: root)
        try write("ignored.log\n", to: ".gitignore", in: root)
        try git(["add", "-A"], in: root)
        try git(["commit", "-qm", "main"], in: root)
        try git(["checkout", "-qb", "feature"], in: root)
        // Lines changed, inserted and deleted; a file renamed with one line changed; a new file.
        var a = lines(40, marker: 4, tag: "old").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        a[7] = "# FIXME: changed on the branch"
        a.insert(contentsOf: ["# FIXME: inserted", "++ not a header", "# FIXME: inserted too"], at: 20)
        a.remove(at: 30)
        try write(a.joined(separator: "\n"), to: "a.py", in: root)
        try git(["mv", "before rename.py", "after rename.py"], in: root)
        var renamed = lines(30, marker: 5, tag: "moved").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        renamed[9] = "# FIXME: changed while renamed"
        try write(renamed.joined(separator: "\n"), to: "after rename.py", in: root)
        try write("# FIXME: a new file\n", to: "new\tfile.py", in: root)
        try git(["add", "-A"], in: root)
        try git(["commit", "-qm", "feature"], in: root)
        // Staged, then unstaged, then untracked (and one ignored) on top.
        try write(lines(12, marker: 3, tag: "latin") + "# FIXME: staged\n", to: latin1Name, in: root)
        try git(["add", "-A"], in: root)
        var unstaged = a
        unstaged[2] = "# FIXME: not committed"
        try write(unstaged.joined(separator: "\n"), to: "a.py", in: root)
        try write("# FIXME: untracked\n", to: "untracked.py", in: root)
        try write("# FIXME: ignored\n", to: "ignored.log", in: root)
        return root
    }

    /// The matches of `list --format json` in `root` with `arguments`, as `path:line` (1-based), sorted.
    static func matchedLines(_ arguments: [String], in root: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let listed = try CommandLineTests.run(["list", "--format", "json"] + arguments, in: root, sourceLocation: sourceLocation)
        #expect(listed.status == 0, "\(listed.errors)", sourceLocation: sourceLocation)
        return listed.output.split(separator: "\n").compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let path = object["path"] as? String, let number = object["line"] as? Int
            else { return nil }
            return "\(path.hasPrefix("./") ? String(path.dropFirst(2)) : path):\(number)"
        }.sorted()
    }

    /// The oracle: of the lines in `candidates` (`path:line`, path as the tool shows it), those that `git blame` on
    /// the working tree gives to a commit that `base` does not contain, or to none; untracked files are new as a
    /// whole, unless `staged` (they are not to be committed).
    static func changedByBlame(_ candidates: [String], base: String, staged: Bool, in root: URL) throws -> [String] {
        let shownToOnDisk = [Self.latin1Name.replacingOccurrences(of: "\u{E9}", with: "\\xE9"): Self.latin1Name]
        var changed: [String] = []
        for candidate in candidates {
            let separator = try #require(candidate.lastIndex(of: ":"))
            let shown = String(candidate[..<separator])
            let line = try #require(Int(candidate[candidate.index(after: separator)...]))
            let name = shownToOnDisk[shown] ?? shown
            // An argument is UTF-8, so the Latin-1 name goes to git as a pattern that matches its bytes.
            let pathspec = name.unicodeScalars.allSatisfy(\.isASCII) ? name : "caf?.py"
            let blame = ["blame", "--porcelain", "-L", "\(line),\(line)"]
            let tracked = try git(["ls-files", "--error-unmatch", "--", pathspec], in: root, mayFail: true)
            guard tracked.status == 0 || !staged else { continue }
            guard tracked.status == 0 else {
                changed.append(candidate)  // Untracked, not ignored: new as a whole.
                continue
            }
            // An argument is UTF-8, so the Latin-1 name reaches git through the shell's printf.
            let answer = pathspec == name
                ? try git(blame + ["--", name], in: root)
                : try git(["-c", "alias.blame-latin1=!f() { git blame \"$@\" -- \"$(printf 'caf\\351.py')\"; }; f", "blame-latin1"] + blame.dropFirst(), in: root)
            let commit = String(decoding: answer.output.prefix(40), as: UTF8.self)
            if commit == String(repeating: "0", count: 40) {
                changed.append(candidate)
                continue
            }
            let contained = try git(["merge-base", "--is-ancestor", commit, base], in: root, mayFail: true)
            if contained.status != 0 { changed.append(candidate) }
        }
        return changed
    }

    @Test func sinceReportsExactlyTheMatchesOnLinesGitSaysChanged() throws {
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(at: root) }
        let all = try Self.matchedLines([], in: root)
        let since = try Self.matchedLines(["--since", "main"], in: root)
        let mergeBase = String(decoding: try Self.git(["merge-base", "main", "HEAD"], in: root).output, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let expected = try Self.changedByBlame(all, base: mergeBase, staged: false, in: root)
        #expect(since == expected)
        // Every kind of change is among them, and unchanged markers are not.
        #expect(since.contains("a.py:3"))  // not committed
        #expect(since.contains("a.py:8"))  // changed on the branch
        #expect(since.contains("a.py:21") && since.contains("a.py:23"))  // inserted
        #expect(since.contains("after rename.py:10"))  // changed in a renamed file
        #expect(!since.contains("after rename.py:5"))  // moved with the file, not changed
        #expect(since.contains("new\tfile.py:1") && since.contains("untracked.py:1"))
        #expect(since.contains("caf\\xE9.py:13"))  // staged, in a name that is not UTF-8
        #expect(!since.contains("a.py:4") && !since.contains("caf\\xE9.py:3"))
        #expect(all.count > since.count + 10)
    }

    @Test func stagedReportsTheStagedLinesOnly() throws {
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(at: root) }
        // As a pre-commit hook sees it: the working tree holds the staged text.
        try Self.git(["stash", "push", "-q", "--keep-index", "--include-untracked"], in: root)
        let staged = try Self.matchedLines(["--staged"], in: root)
        #expect(staged == ["caf\\xE9.py:13"])
        let head = String(decoding: try Self.git(["rev-parse", "HEAD"], in: root).output, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(staged == (try Self.changedByBlame(try Self.matchedLines([], in: root), base: head, staged: true, in: root)))
        let checked = try CommandLineTests.run(["check", "--staged"], in: root)
        #expect(checked.status == 1)
        #expect(checked.output == "./caf\\xE9.py:13:3: blocker: FIXME\n")
    }

    @Test func stagedBeforeTheFirstCommitComparesWithNothing() throws {
        let root = try CommandLineTests.tree([".highlights.json": Self.config, "a.py": "# FIXME: first\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.git(["init", "-q", "-b", "main"], in: root)
        try Self.git(["add", "a.py"], in: root)
        let checked = try CommandLineTests.run(["check", "--staged"], in: root)
        #expect(checked.status == 1, "\(checked.errors)")
        #expect(checked.output == "./a.py:1:3: blocker: FIXME\n")
    }

    @Test func aCheckOfABranchWithoutNewMarkersPasses() throws {
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.git(["checkout", "-q", "-f", "main"], in: root)
        try Self.git(["clean", "-qfd"], in: root)
        let checked = try CommandLineTests.run(["check", "--since", "main"], in: root)
        #expect(checked.status == 0, "\(checked.errors)")
        #expect(checked.output == "")
        let everything = try CommandLineTests.run(["check"], in: root)
        #expect(everything.status == 1)
    }

    @Test func outsideARepositoryTheErrorSaysSo() throws {
        let root = try CommandLineTests.tree([".highlights.json": Self.config, "a.py": "# FIXME\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        for option in [["--since", "main"], ["--staged"]] {
            let checked = try CommandLineTests.run(["check"] + option, in: root, environment: ["GIT_CEILING_DIRECTORIES": root.deletingLastPathComponent().path])
            #expect(checked.status == 2)
            #expect(checked.errors.contains("\(option[0]) compares with git, and the current directory is not in a git repository"), "\(checked.errors)")
            #expect(checked.output == "")
        }
    }

    @Test func anUnknownRevisionIsNamed() throws {
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(at: root) }
        for revision in ["no-such-branch", "-x"] {
            let checked = try CommandLineTests.run(["check", "--since", revision], in: root)
            #expect(checked.status == 2)
            #expect(checked.errors.contains("--since \(revision): git knows no commit by that name"), "\(checked.errors)")
        }
    }

    @Test func aShallowCloneWithoutTheMergeBaseNamesTheFix() throws {
        // main: A ─ B; feature: A ─ C ─ D. A clone one commit deep of each has no A.
        let origin = try CommandLineTests.tree([".highlights.json": Self.config])
        let clone = FileManager.default.temporaryDirectory.appendingPathComponent("shallow-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: origin)
            try? FileManager.default.removeItem(at: clone)
        }
        try Self.git(["init", "-q", "-b", "main"], in: origin)
        for (branch, file) in [("main", "a.py"), ("main", "b.py"), ("feature", "c.py"), ("feature", "d.py")] {
            if branch == "feature", file == "c.py" { try Self.git(["checkout", "-qb", "feature", "HEAD~1"], in: origin) }
            try Self.write("# FIXME: \(file)\n", to: file, in: origin)
            try Self.git(["add", "-A"], in: origin)
            try Self.git(["commit", "-qm", file], in: origin)
        }
        try Self.git(["clone", "-q", "--depth", "1", "--branch", "feature", "file://" + origin.path, clone.path], in: origin)
        let unfetched = try CommandLineTests.run(["check", "--since", "origin/main"], in: clone)
        #expect(unfetched.status == 2)
        #expect(unfetched.errors.contains("in this shallow clone; fetch the whole history"), "\(unfetched.errors)")
        try Self.git(["fetch", "-q", "--depth", "1", "origin", "main:main"], in: clone)
        let cut = try CommandLineTests.run(["check", "--since", "main"], in: clone)
        #expect(cut.status == 2)
        #expect(cut.errors.contains("is not in this shallow clone"), "\(cut.errors)")
        #expect(cut.errors.contains("fetch-depth: 0"), "\(cut.errors)")
        try Self.git(["fetch", "-q", "--unshallow", "origin"], in: clone)
        let whole = try CommandLineTests.run(["check", "--since", "main"], in: clone)
        #expect(whole.status == 1, "\(whole.errors)")
        #expect(whole.output == "./c.py:1:3: blocker: FIXME\n./d.py:1:3: blocker: FIXME\n")
    }

    @Test func writingABaselineOfChangedLinesIsRefused() throws {
        let root = try CommandLineTests.tree([".highlights.json": Self.config])
        defer { try? FileManager.default.removeItem(at: root) }
        let refused = try CommandLineTests.run(["check", "--since", "main", "--write-baseline", "b.json"], in: root)
        #expect(refused.status == 2)
        #expect(refused.errors.contains("--write-baseline records every blocking match, so it cannot be given with --since"))
        let both = try CommandLineTests.run(["list", "--since", "main", "--staged"], in: root)
        #expect(both.status == 2)
    }
}
