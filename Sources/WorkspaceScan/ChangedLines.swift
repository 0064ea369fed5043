#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Threads

// The lines a branch or a commit-to-be adds or changes, as git itself reports them (`git diff -U0`), for
// `list --since REF` and `check --staged`. Only the new side of each hunk is kept: a match counts when one of its
// lines is among them. Files git does not track and does not ignore are new as a whole.
//
//     git diff -U0 MERGE-BASE      @@ -12,0 +13,2 @@   ──▶  path: lines 12..<14 (zero-based)
//     git ls-files --others        notes.txt          ──▶  notes.txt: every line

/// What a run's matches are compared against: the changes since a revision, or those staged for the next commit.
public enum ChangeBase: Sendable, Equatable {
    /// The lines added or changed between the merge base of the revision and HEAD, and those not yet committed
    /// (`--since REF`); untracked files that are not ignored count as wholly new.
    case since(String)
    /// The lines the index adds or changes against HEAD (`--staged`), as a pre-commit hook sees them.
    case staged
}

/// Why the changed lines could not be read; each message names the fix.
public enum ChangedLinesFailure: Error, Sendable, Equatable {
    /// The current directory is not in a git repository.
    case notARepository(option: String)
    /// The revision names no commit.
    case unknownRevision(String, shallow: Bool)
    /// The revision and HEAD share no commit; in a shallow clone, because the history is cut.
    case noMergeBase(String, shallow: Bool)
    /// git could not be run, or failed.
    case git(String)

    /// One line for stderr.
    public var message: String {
        let fetchAll = "fetch the whole history (git fetch --unshallow; in GitHub Actions, actions/checkout with fetch-depth: 0)"
        switch self {
        case .notARepository(let option):
            return "\(option) compares with git, and the current directory is not in a git repository"
        case .unknownRevision(let revision, let shallow):
            return "--since \(revision): git knows no commit by that name"
                + (shallow ? " in this shallow clone; \(fetchAll)" : "; name a branch, tag or commit (git fetch it first if it is remote)")
        case .noMergeBase(let revision, let shallow):
            return shallow
                ? "--since \(revision): the commit where HEAD branched from \(revision) is not in this shallow clone; \(fetchAll)"
                : "--since \(revision): \(revision) and HEAD have no commit in common, so nothing tells what this branch adds"
        case .git(let reason):
            return reason
        }
    }
}

/// The changed lines of each file, keyed by the file's physical absolute path.
public struct ChangedLines: Sendable {
    /// What changed in one file.
    public enum FileChange: Sendable, Equatable {
        /// Every line is new: the file is untracked and not ignored, or outside the repository, where git cannot tell.
        case whole
        /// These zero-based line ranges are new or changed, sorted.
        case lines([Range<Int>])

        /// Nothing changed.
        public static let unchanged = FileChange.lines([])

        /// Whether a match on the zero-based `lines` touches a changed line.
        public func touches(lines: ClosedRange<Int>) -> Bool {
            switch self {
            case .whole:
                return true
            case .lines(let ranges):
                // The first range that ends after the match's first line is the only one that can hold one of its lines.
                var low = 0
                var high = ranges.count
                while low < high {
                    let middle = (low + high) / 2
                    if ranges[middle].upperBound <= lines.lowerBound { low = middle + 1 } else { high = middle }
                }
                return low < ranges.count && ranges[low].lowerBound <= lines.upperBound
            }
        }
    }

    /// The changes by physical absolute path (bytes, as file names need not be UTF-8).
    var files: [[UInt8]: FileChange]

    /// What changed in the file at `path` (as the walk reached it: relative to the current directory, or absolute).
    public func change(ofFileAt path: [UInt8]) -> FileChange {
        var folders = PhysicalPath.Folders()
        return change(ofFileAt: path, folders: &folders)
    }

    /// What changed in the file at `path`, its folder resolved through `folders`, which remembers each folder.
    public func change(ofFileAt path: [UInt8], folders: inout PhysicalPath.Folders) -> FileChange {
        guard let absolute = folders.physicalPath(of: path) else { return .whole }
        return files[absolute] ?? (absolute.starts(with: repositoryPrefix) ? .unchanged : .whole)
    }

    /// The repository's top folder with a trailing `/`.
    let repositoryPrefix: [UInt8]

    /// Asks git for the lines `base` covers, in the repository of the current directory: two questions one after
    /// the other, then the diff and the untracked files at once.
    public static func read(_ base: ChangeBase) -> Result<ChangedLines, ChangedLinesFailure> {
        let option = if case .since = base { "--since" } else { "--staged" }
        let repository: GitOutput
        switch Git.run(["rev-parse", "--show-toplevel", "--is-shallow-repository"]) {
        case .failure(let unavailable): return .failure(.git("\(option) needs git: \(unavailable.reason)"))
        case .success(let output): repository = output
        }
        let answers = repository.output.split(separator: UInt8(ascii: "\n"))
        guard repository.succeeded, answers.count == 2 else { return .failure(.notARepository(option: option)) }
        let top = String(decoding: answers[0], as: UTF8.self)
        let shallow = answers[1].elementsEqual("true".utf8)

        // The side the working tree or the index is compared with.
        let oldSide: String
        switch base {
        case .since(let revision):
            guard case .success(let mergeBase) = Git.run(["merge-base", "--end-of-options", revision, "HEAD"]), mergeBase.succeeded else {
                // Asked again only to say why.
                guard !revision.isEmpty, gitSays(["rev-parse", "--verify", "--quiet", "--end-of-options", revision + "^{commit}"]) != nil else {
                    return .failure(.unknownRevision(revision, shallow: shallow))
                }
                return .failure(.noMergeBase(revision, shallow: shallow))
            }
            oldSide = String(decoding: mergeBase.output, as: UTF8.self).trimmingNewlines
        case .staged:
            // Before the first commit, everything staged is new: compare with the empty tree.
            oldSide = gitSays(["rev-parse", "--verify", "--quiet", "HEAD"]) ?? "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
        }
        // Every setting that would change what `diff` prints is given here, so that the user's configuration cannot.
        var diff = [
            "-c", "core.quotePath=false", "diff", "-U0", "--no-color", "--no-ext-diff", "--no-textconv", "--find-renames",
            "--src-prefix=a/", "--dst-prefix=b/", "--no-relative", "--ignore-submodules",
        ]
        if base == .staged { diff.append("--cached") }
        diff += [oldSide, "--"]
        let untracked = ["ls-files", "-z", "--others", "--exclude-standard", "--full-name"]
        let commands = if case .since = base { [diff, untracked] } else { [diff] }
        let outputs = GitOutputs(count: commands.count)
        DispatchQueue.concurrentPerform(iterations: commands.count) { index in
            outputs.set(index, Git.run(commands[index], in: top))
        }

        let prefix = Array(top.utf8) + [UInt8(ascii: "/")]
        var files: [[UInt8]: FileChange] = [:]
        for (index, output) in outputs.values.enumerated() {
            guard case .success(let output)? = output else {
                if case .failure(let unavailable)? = output { return .failure(.git("\(option) needs git: \(unavailable.reason)")) }
                return .failure(.git("git did not answer"))
            }
            guard output.succeeded else { return .failure(.git("git \(commands[index][commands[index][0] == "-c" ? 2 : 0]) failed: \(output.errors)")) }
            if index == 0 {
                for (path, ranges) in parseUnifiedDiff(output.output) where !ranges.isEmpty { files[prefix + path] = .lines(ranges) }
            } else {
                for name in output.output.split(separator: 0) { files[prefix + name] = .whole }
            }
        }
        return .success(ChangedLines(files: files, repositoryPrefix: prefix))
    }

    /// What git printed for `arguments`, trimmed, when it succeeded.
    private static func gitSays(_ arguments: [String]) -> String? {
        guard case .success(let output) = Git.run(arguments), output.succeeded else { return nil }
        return String(decoding: output.output, as: UTF8.self).trimmingNewlines
    }

    /// The new-side line ranges (zero-based) of each file of a `git diff -U0` output, by the path after `b/`.
    ///
    /// Hunk bodies are skipped by the counts in their headers, so that an added line that reads `++ x` (shown as
    /// `+++ x`) is never taken for a file header.
    static func parseUnifiedDiff(_ output: [UInt8]) -> [(path: [UInt8], ranges: [Range<Int>])] {
        var result: [(path: [UInt8], ranges: [Range<Int>])] = []
        var linesLeft = 0
        for line in output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if linesLeft > 0 {
                // "\ No newline at end of file" follows a line without counting as one.
                if line.first != UInt8(ascii: "\\") { linesLeft -= 1 }
                continue
            }
            if line.starts(with: "diff --git ".utf8) {
                result.append((path: [], ranges: []))
            } else if line.starts(with: "+++ ".utf8), !result.isEmpty {
                let name = unquoted(Array(line.dropFirst(4)))
                result[result.count - 1].path = name.starts(with: "b/".utf8) ? Array(name.dropFirst(2)) : []
            } else if line.starts(with: "@@ -".utf8), !result.isEmpty, let hunk = HunkHeader(line) {
                linesLeft = hunk.oldCount + hunk.newCount
                if hunk.newCount > 0 { result[result.count - 1].ranges.append(hunk.newStart - 1 ..< hunk.newStart - 1 + hunk.newCount) }
            }
        }
        return result.filter { !$0.path.isEmpty }
    }

    /// A path as git prints it in a header: as it is (followed by a tab when it holds a space, for patch(1)), or in
    /// double quotes with C escapes (`"b/tab\there"`); a name that ends in a tab is always quoted.
    static func unquoted(_ text: [UInt8]) -> [UInt8] {
        guard text.count >= 2, text.first == UInt8(ascii: "\""), text.last == UInt8(ascii: "\"") else {
            return text.last == UInt8(ascii: "\t") ? Array(text.dropLast()) : text
        }
        var bytes: [UInt8] = []
        var index = 1
        let end = text.count - 1
        while index < end {
            let byte = text[index]
            index += 1
            guard byte == UInt8(ascii: "\\"), index < end else {
                bytes.append(byte)
                continue
            }
            let escaped = text[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "a"): bytes.append(7)
            case UInt8(ascii: "b"): bytes.append(8)
            case UInt8(ascii: "t"): bytes.append(9)
            case UInt8(ascii: "n"): bytes.append(10)
            case UInt8(ascii: "v"): bytes.append(11)
            case UInt8(ascii: "f"): bytes.append(12)
            case UInt8(ascii: "r"): bytes.append(13)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                // Three octal digits: one byte of a name that is not shown as it is.
                var value = Int(escaped - UInt8(ascii: "0"))
                for _ in 0..<2 where index < end && (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(text[index]) {
                    value = value * 8 + Int(text[index] - UInt8(ascii: "0"))
                    index += 1
                }
                bytes.append(UInt8(truncatingIfNeeded: value))
            default: bytes.append(escaped)
            }
        }
        return bytes
    }
}

/// The answers of git commands run at once, each stored by the thread that ran it.
private final class GitOutputs: @unchecked Sendable {
    private let lock = Condition()
    private(set) var values: [Result<GitOutput, GitUnavailable>?]

    init(count: Int) { values = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Result<GitOutput, GitUnavailable>) {
        lock.lock()
        values[index] = value
        lock.unlock()
    }
}

/// `@@ -oldStart[,oldCount] +newStart[,newCount] @@`: a count left out is 1.
struct HunkHeader: Equatable {
    var oldCount: Int
    var newStart: Int
    var newCount: Int

    init?(_ line: ArraySlice<UInt8>) {
        let fields = line.split(separator: UInt8(ascii: " "))
        guard fields.count >= 3, let old = Self.range(fields[1], sign: "-"), let new = Self.range(fields[2], sign: "+") else { return nil }
        oldCount = old.count
        newStart = new.start
        newCount = new.count
    }

    private static func range(_ field: ArraySlice<UInt8>, sign: Unicode.Scalar) -> (start: Int, count: Int)? {
        guard field.first == UInt8(ascii: sign) else { return nil }
        let parts = field.dropFirst().split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard let start = Int(String(decoding: parts[0], as: UTF8.self)) else { return nil }
        guard parts.count == 2 else { return (start, 1) }
        guard let count = Int(String(decoding: parts[1], as: UTF8.self)) else { return nil }
        return (start, count)
    }
}

/// Physical absolute paths, as git's top level is one: the folders' symbolic links resolved.
public enum PhysicalPath {
    /// The physical paths of folders resolved so far, so that a walk resolves each folder once.
    public struct Folders {
        private var resolved: [[UInt8]: [UInt8]?] = [:]

        public init() {}

        /// The physical absolute path of `path` (relative to the current directory, or absolute): its folder
        /// resolved by the system, its name as it is; nil when the folder does not exist.
        public mutating func physicalPath(of path: [UInt8]) -> [UInt8]? {
            let slash = path.lastIndex(of: UInt8(ascii: "/"))
            let folder: [UInt8] = switch slash {
            case nil: Array(".".utf8)
            case 0?: Array("/".utf8)
            case let index?: Array(path[..<index])
            }
            let name = slash.map { Array(path[($0 + 1)...]) } ?? path
            let physicalFolder: [UInt8]?
            if let known = resolved[folder] {
                physicalFolder = known
            } else {
                physicalFolder = PhysicalPath.resolve(folder)
                resolved[folder] = physicalFolder
            }
            guard let physicalFolder else { return nil }
            return (physicalFolder == Array("/".utf8) ? [] : physicalFolder) + [UInt8(ascii: "/")] + name
        }
    }

    /// `realpath(3)` of `folder`.
    static func resolve(_ folder: [UInt8]) -> [UInt8]? {
        (folder + [0]).withUnsafeBufferPointer { buffer -> [UInt8]? in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                guard let real = realpath(characters.baseAddress, nil) else { return nil }
                defer { free(real) }
                return Array(UnsafeBufferPointer(start: UnsafeRawPointer(real).assumingMemoryBound(to: UInt8.self), count: strlen(real)))
            }
        }
    }
}

extension String {
    /// The text without the newlines git ends its answers with.
    fileprivate var trimmingNewlines: String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}
