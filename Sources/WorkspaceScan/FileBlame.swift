import HighlightConfig

// One file's blame: `git blame --porcelain` run in the file's own folder, on the file's name there, so that git finds
// the repository that holds the file (a nested repository or a submodule as much as the outer one), and only on the
// lines that have matches (`-L`), which lets git stop following history once those lines are found.

/// What blaming one file gave.
public enum FileBlame: Sendable, Equatable {
    /// Blame was not asked for this file (it has no match, or it is standard input).
    case notAsked
    /// Each blamed line's blame, by 1-based line number.
    case lines([Int: MatchBlame])
    /// The file is not tracked: none of its lines is committed.
    case untracked
    /// The file is not inside a git repository.
    case outsideRepository
    /// git could not be run (it is not installed, say), and why.
    case gitUnavailable(reason: String)
    /// git ran and failed, with the first line of what it said.
    case failed(message: String)

    /// The blame of each of `matches`, by the line it starts on.
    public func blames(of matches: [LocatedMatch]) -> [MatchBlame] {
        switch self {
        case .notAsked: []
        case .lines(let lines): matches.map { lines[$0.start.line + 1] ?? .unknown }
        case .untracked: matches.map { _ in .uncommitted }
        case .outsideRepository, .gitUnavailable, .failed: matches.map { _ in .unknown }
        }
    }
}

/// Blaming a file's matched lines with git.
public enum Blaming {
    /// More line ranges than this and the whole file is blamed: one argument per range would make a long command line
    /// for little gain.
    public static let maximumRanges = 200

    /// The blame of the lines `lineNumbers` (1-based) of the file at `path` (its bytes: a name need not be UTF-8),
    /// found by running git through `run`; with `contents`, of that text instead of the file on disk (an editor's
    /// buffer: its lines not committed yet are blamed as such).
    public static func blame(
        path: [UInt8], lineNumbers: [Int], contents: [UInt8]? = nil,
        run: (_ arguments: [[UInt8]], _ directory: [UInt8]?, _ input: [UInt8]?) -> Result<GitOutput, GitUnavailable> = Git.run(bytes:in:input:)
    ) -> FileBlame {
        let slash = path.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { Array(path[..<$0]) }.map { $0.isEmpty ? Array("/".utf8) : $0 } ?? Array(".".utf8)
        let name = slash.map { Array(path[($0 + 1)...]) } ?? path
        let ranges = lineRanges(lineNumbers)
        let rangeArguments = ranges.count > maximumRanges ? [] : ranges.flatMap { ["-L", "\($0.lowerBound),\($0.upperBound)"] }
        let text = contents == nil ? [] : ["--contents", "-"]
        let outcome = run((["blame", "--porcelain"] + text + rangeArguments + ["--"]).map { Array($0.utf8) } + [name], folder, contents)
        return fileBlame(from: outcome)
    }

    /// What a run of `git blame --porcelain` says of the file.
    public static func fileBlame(from outcome: Result<GitOutput, GitUnavailable>) -> FileBlame {
        switch outcome {
        case .failure(let unavailable):
            return .gitUnavailable(reason: unavailable.reason)
        case .success(let run) where run.succeeded:
            return .lines(BlamePorcelain.lines(of: run.output))
        case .success(let run):
            // git's messages are in English (`Git.run` sets LC_ALL=C), so they can be told apart.
            let message = run.errors
            if message.contains("not a git repository") { return .outsideRepository }
            // A file git does not track, or any file of a repository with no commit yet: none of its lines is committed.
            if message.contains("no such path") || message.contains("no such ref: HEAD") { return .untracked }
            let first = message.split(separator: "\n").first.map(String.init) ?? "git blame failed"
            return .failed(message: first)
        }
    }

    /// Sorted, distinct line numbers as the fewest closed ranges that cover them: `[3, 4, 5, 9]` is `3...5, 9...9`.
    public static func lineRanges(_ lineNumbers: [Int]) -> [ClosedRange<Int>] {
        var ranges: [ClosedRange<Int>] = []
        for line in Set(lineNumbers).sorted() where line > 0 {
            if let last = ranges.last, last.upperBound + 1 == line {
                ranges[ranges.count - 1] = last.lowerBound...line
            } else {
                ranges.append(line...line)
            }
        }
        return ranges
    }
}
