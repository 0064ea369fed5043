import HighlightConfig
import JSONRPC
import JSONValue
import WorkspaceScan

// Who wrote a marker, in hover: "Added by Alice Doe, 4 months ago (1a2b3c4d)". Asked of git itself
// (`git blame --porcelain -L N,N --contents -`, the editor's text on its stdin, so that an edited
// line is "Not committed yet" rather than another line's author), for the hovered line only, and
// only when the hover is over a marker (a rule marked `list` or that reads fields). It runs as a
// job (BackgroundJobs.swift): the hover is answered when git is, and keystrokes go on meanwhile.
// Each document version keeps the lines it blamed, so a second hover on one costs nothing. Outside
// a repository, or without git, hover says what it says without blame, and the log says why once.

/// The lines of one version of a document that hover has blamed.
struct HoverBlames {
    var version: Int
    /// By zero-based line.
    var lines: [Int: MatchBlame]
}

/// A hover waiting for its line's blame: its text so far, and where to put what git says.
struct PendingHover: Sendable {
    var uri: String
    var version: Int
    /// The zero-based line blamed.
    var line: Int
    var lines: [String]
    var markdown: Bool
    var range: JSON
    /// The seconds since 1970 that "ago" counts back from.
    var now: Int64
}

extension Server {
    /// Whether hover over a match of `ruleIndex` says who wrote its line: markers do.
    func hoverBlames(ruleIndex: Int, in config: HighlightConfiguration) -> Bool {
        config.applicability.indices.contains(ruleIndex)
            && (config.applicability[ruleIndex].list || config.applicability[ruleIndex].readsFields)
    }

    /// Answers `hover` now when its line's blame is known (or cannot be had), else starts the job that asks git and
    /// answers later.
    func answerHover(_ hover: PendingHover, document: Document, id: RequestID) -> Reply {
        var hover = hover
        if let blames = hoverBlames[hover.uri], blames.version == hover.version, let blame = blames.lines[hover.line] {
            hover.lines += Self.blameLines(blame, now: hover.now, markdown: hover.markdown)
            return .now(Self.hoverJSON(hover))
        }
        guard !gitUnavailableSaid, !documentsOutsideRepository.contains(hover.uri), let path = filePath(fromURI: hover.uri) else {
            return .now(Self.hoverJSON(hover))
        }
        // A newer hover makes an older one's answer moot.
        cancelJobs(answering: .requestCancelled) { $0.kind == .hoverBlame }
        let text = document.text.utf8
        let pending = hover
        startJob(.hoverBlame, answering: id) { _ in
            let blame = Blaming.blame(path: Array(path.utf8), lineNumbers: [pending.line + 1], contents: text)
            return .hoverBlame(blame, pending, answering: id)
        }
        return .later
    }

    /// Answers a hover with what git said of its line, and keeps it for the document's version.
    func finishHoverBlame(_ blame: FileBlame, _ hover: PendingHover, answering id: RequestID) {
        var hover = hover
        let lineBlame: MatchBlame?
        switch blame {
        case .lines(let lines): lineBlame = lines[hover.line + 1]
        case .untracked: lineBlame = .uncommitted
        case .notAsked, .failed: lineBlame = nil
        case .outsideRepository:
            // Only this file's: another may be in a repository.
            lineBlame = nil
            if documents[hover.uri] != nil, documentsOutsideRepository.insert(hover.uri).inserted {
                log(.info, "hover shows no author in \(hover.uri): the file is not in a git repository")
            }
        case .gitUnavailable(let reason):
            lineBlame = nil
            if !gitUnavailableSaid {
                gitUnavailableSaid = true
                log(.info, "hover shows no author: \(reason)")
            }
        }
        if let lineBlame {
            hover.lines += Self.blameLines(lineBlame, now: hover.now, markdown: hover.markdown)
            if documents[hover.uri]?.version == hover.version {
                if hoverBlames[hover.uri]?.version != hover.version { hoverBlames[hover.uri] = HoverBlames(version: hover.version, lines: [:]) }
                hoverBlames[hover.uri]?.lines[hover.line] = lineBlame
            }
        }
        send(.response(id: id, result: .success(Self.hoverJSON(hover))))
    }

    /// "Added by Alice Doe, 4 months ago (1a2b3c4d)", or "Not committed yet"; nothing for a line git could not tell.
    static func blameLines(_ blame: MatchBlame, now: Int64, markdown: Bool) -> [String] {
        switch blame {
        case .committed(let commit):
            let author = markdown ? markdownEscaped(commit.author) : commit.author
            return ["Added by \(author), \(timeAgo(seconds: now - commit.authorTime)) (\(commit.shortID))"]
        case .uncommitted:
            return ["Not committed yet"]
        case .unknown:
            return []
        }
    }

    /// "today", "yesterday", "5 days ago", "3 weeks ago", "4 months ago", "2 years ago".
    static func timeAgo(seconds: Int64) -> String {
        let days = max(0, seconds) / 86_400
        func ago(_ count: Int64, _ unit: String) -> String { "\(count) \(unit)\(count == 1 ? "" : "s") ago" }
        switch days {
        case 0: return "today"
        case 1: return "yesterday"
        case 2..<14: return ago(days, "day")
        case 14..<60: return ago(days / 7, "week")
        case 60..<730: return ago(days / 30, "month")
        default: return ago(days / 365, "year")
        }
    }

    /// The hover result: its lines as paragraphs, and the match's range.
    /// The lines are written for the hover's kind where they are made (escaped for Markdown).
    static func hoverJSON(_ hover: PendingHover) -> JSON {
        [
            "contents": ["kind": .string(hover.markdown ? "markdown" : "plaintext"), "value": .string(hover.lines.joined(separator: "\n\n"))],
            "range": hover.range,
        ]
    }
}
