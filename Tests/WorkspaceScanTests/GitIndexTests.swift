import Foundation
import HighlightConfig
import Testing
@testable import WorkspaceScan

/// The git index read directly (versions 2, 3 and 4, a `.git` file naming the git folder), held to what
/// `git ls-files` lists, and the walk that searches tracked files an ignore file matches.
@Suite struct GitIndexTests {
    static let gitPath = ["/usr/bin/git", "/usr/local/bin/git", "/bin/git"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs git (the test's tool, never the scanner's) in `directory`; its standard output.
    @discardableResult
    static func git(_ arguments: [String], in directory: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Data {
        let executable = try #require(gitPath, sourceLocation: sourceLocation)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        // The user's and the system's git configuration stay out of the test.
        process.arguments = ["-c", "user.name=test", "-c", "user.email=test@example.invalid", "-c", "core.hooksPath=/dev/null"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ["GIT_CONFIG_NOSYSTEM": "1", "HOME": directory, "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "git \(arguments.joined(separator: " ")) failed", sourceLocation: sourceLocation)
        return data
    }

    /// What `git ls-files -z` lists in `directory`, each path as bytes.
    static func listedByGit(in directory: String) throws -> [[UInt8]] {
        try git(["ls-files", "-z"], in: directory).split(separator: 0, omittingEmptySubsequences: true).map { Array($0) }
    }

    /// A repository with nested folders, long shared prefixes (what version 4 compresses), names with spaces and
    /// non-ASCII, and files an ignore file matches but that were added anyway.
    static func repository() throws -> String {
        let root = try WorkspaceScanTests.tree([
            ".gitignore": WorkspaceScanTests.text("build/\n"),
            "logs/.gitignore": WorkspaceScanTests.text("*.log\n"),
            "README.md": WorkspaceScanTests.text("read me\n"),
            "src/module/component/first file.swift": WorkspaceScanTests.text("// DO NOT MERGE\n"),
            "src/module/component/second file.swift": WorkspaceScanTests.text("// fine\n"),
            "src/module/other/é.txt": WorkspaceScanTests.text("fine\n"),
            "build/generated/tracked.txt": WorkspaceScanTests.text("DO NOT MERGE\n"),
            "build/generated/untracked.txt": WorkspaceScanTests.text("DO NOT MERGE\n"),
            "logs/kept.log": WorkspaceScanTests.text("DO NOT MERGE\n"),
            "logs/dropped.log": WorkspaceScanTests.text("DO NOT MERGE\n"),
        ])
        try git(["init", "-q"], in: root)
        try git(["add", "."], in: root)
        try git(["add", "-f", "build/generated/tracked.txt", "logs/kept.log"], in: root)
        return root
    }

    static let versions = [2, 3, 4]

    @Test(.enabled(if: gitPath != nil, "git is not installed"), arguments: versions)
    func theIndexListsWhatGitLists(version: Int) throws {
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        if version == 3 {
            // Git writes version 3 only when an entry needs its extended flags: an intent-to-add entry does.
            try Data("later\n".utf8).write(to: URL(fileURLWithPath: root + "/src/intent.txt"))
            try Self.git(["add", "-N", "src/intent.txt"], in: root)
        }
        try Self.git(["update-index", "--index-version", "\(version)"], in: root)
        let index = try Data(contentsOf: URL(fileURLWithPath: root + "/.git/index"))
        #expect(index[4..<8].elementsEqual([0, 0, 0, UInt8(version)]), "git wrote another version")
        let read = GitIndex.trackedPaths(inIndexAt: root + "/.git/index")
        #expect(try read.get() == Self.listedByGit(in: root))
    }

    /// This project's own repository, whatever its size and history (in a linked worktree, `.git` is a file that names
    /// the git folder, and the index is that folder's).
    @Test(.enabled(if: gitPath != nil && FileManager.default.fileExists(atPath: Self.projectRoot + "/.git"), "git or the project's .git is missing"))
    func theProjectsIndexListsWhatGitLists() throws {
        let repository = try #require(GitRepository.containing(Self.projectRoot))
        #expect(repository.workTree == Self.projectRoot)
        let read = GitIndex.trackedPaths(inIndexAt: repository.indexPath)
        let listed = try Self.listedByGit(in: Self.projectRoot)
        #expect(listed.count > 100)
        #expect(try read.get() == listed)
    }

    static var projectRoot: String {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        return realpath(path, nil).map { resolved in
            defer { free(resolved) }
            return String(cString: resolved)
        } ?? path
    }

    /// (what the index holds, the reason given)
    static let unreadable: [(String, [UInt8], String)] = [
        ("no signature", Array("DIRX".utf8) + [0, 0, 0, 2, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 20), "no DIRC signature"),
        ("version 5", Array("DIRC".utf8) + [0, 0, 0, 5, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 20), "version 5"),
        ("an entry cut short", Array("DIRC".utf8) + [0, 0, 0, 2, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 30), "do not end"),
        ("no checksum", Array("DIRC".utf8) + [0, 0, 0, 2, 0, 0, 0, 0], "do not end"),
    ]

    @Test(arguments: unreadable)
    func anIndexThatCannotBeReadSaysWhy(name: String, bytes: [UInt8], reason: String) {
        switch GitIndex.trackedPaths(inIndex: bytes) {
        case .success(let paths): Issue.record("\(name): read as \(paths)")
        case .failure(let problem): #expect(problem.reason.contains(reason), "\(name): \(problem.reason)")
        }
    }

    /// With `searchesTrackedFiles`, a file git tracks is walked even where an ignore file matches it, in an ignored
    /// folder too; an untracked file there stays out. Without it, the walk obeys the ignore files alone.
    @Test(.enabled(if: gitPath != nil, "git is not installed"), arguments: [true, false])
    func trackedFilesAreWalkedDespiteIgnoreFiles(searchesTrackedFiles: Bool) throws {
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var problems: [WalkProblem] = []
        var walked: [String] = []
        let options = WorkspaceWalker.Options(searchesTrackedFiles: searchesTrackedFiles)
        WorkspaceWalker.walk(under: root, options: options, problem: { problems.append($0) }) { walked.append($0.relativePath) }
        #expect(problems.isEmpty)
        let always = ["README.md", "src/module/component/first file.swift", "src/module/component/second file.swift", "src/module/other/é.txt"]
        #expect(walked == (searchesTrackedFiles ? ["README.md", "build/generated/tracked.txt", "logs/kept.log"] + always.dropFirst() : always))
        // From a folder inside the repository, the index's paths are taken relative to it.
        var inside: [String] = []
        WorkspaceWalker.walk(under: root + "/logs", options: options) { inside.append($0.relativePath) }
        #expect(inside == (searchesTrackedFiles ? ["kept.log"] : []))
    }

    /// A `.git` file names the git folder, as in a linked worktree or a submodule; a broken index is a problem of the
    /// walk, never a silent pass.
    @Test(.enabled(if: gitPath != nil, "git is not installed"))
    func aGitFileNamesTheIndexAndABrokenIndexIsAProblem() throws {
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.moveItem(atPath: root + "/.git", toPath: root + "/elsewhere.git")
        try Data("gitdir: elsewhere.git\n".utf8).write(to: URL(fileURLWithPath: root + "/.git"))
        var walked: [String] = []
        WorkspaceWalker.walk(under: root, options: WorkspaceWalker.Options(searchesTrackedFiles: true)) { walked.append($0.relativePath) }
        #expect(walked.contains("logs/kept.log") && !walked.contains("logs/dropped.log"))

        try Data("DIRC broken".utf8).write(to: URL(fileURLWithPath: root + "/elsewhere.git/index"))
        var problems: [WalkProblem] = []
        WorkspaceWalker.walk(under: root, options: WorkspaceWalker.Options(searchesTrackedFiles: true), problem: { problems.append($0) }) { _ in }
        #expect(problems.map(\.kind) == [.gitIndex])
        #expect(problems.first?.reason.contains("cannot read the git index") ?? false)
    }
}
