import HighlightConfig

// `--format markdown`: one table of the matches, or, with `--group-by`, a heading and a table per group. Each
// location links to its file and line (`src/a.py#L3`) by a path relative to the current directory, so the report
// works where it is written, in the repository a run is made from. Text in cells is escaped: a backslash before
// every character Markdown could read as syntax (a pipe would end the cell, a backtick start code), and line ends
// as spaces.

/// Matches as Markdown tables.
struct MarkdownWriter: ReportWriter {
    /// Whether the blame columns are written (`--blame`).
    var blame: Bool
    var currentDirectory: String
    /// Whether a table's header row is written, so that rows that follow belong to it.
    private var inTable = false
    private var wroteRows = false

    init(blame: Bool, currentDirectory: String) {
        self.blame = blame
        self.currentDirectory = currentDirectory
    }

    mutating func beginGroup(_ name: String, matchCount: Int, to output: inout OutputBuffer) {
        if wroteRows || inTable { output.append("\n") }
        output.append("## \(markdownText(name)) (\(plural(matchCount, "match", "matches")))\n\n")
        inTable = false
    }

    mutating func file(_ report: FileReport, to output: inout OutputBuffer) {
        guard report.scanned.matches.indices.contains(where: report.isNew) else { return }
        if !inTable {
            output.append(blame
                ? "| location | rule | text | author | date | commit |\n| --- | --- | --- | --- | --- | --- |\n"
                : "| location | rule | text |\n| --- | --- | --- |\n")
            inTable = true
        }
        let target = linkTarget(report.scanned.file.path)
        let shown = markdownText(report.scanned.file.path.hasPrefix("./") ? String(report.scanned.file.path.dropFirst(2)) : report.scanned.file.path)
        for (index, match) in report.scanned.matches.enumerated() where report.isNew(index) {
            let line = match.start.line + 1
            var row = "| [\(shown):\(line):\(match.start.utf8Column + 1)](\(target)#L\(line)) | \(markdownText(ruleName(match.ruleIndex, in: report.configuration))) "
                + "| \(markdownText(match.text)) |"
            if blame {
                switch report.blame(of: index) {
                case .committed(let commit):
                    row += " \(markdownText(commit.author)) (\(markdownText(commit.email))) | \(commit.authorDate) | \(commit.shortID) |"
                case .uncommitted: row += " | | not committed yet |"
                case .unknown: row += " | | |"
                }
            }
            output.append(row + "\n")
            wroteRows = true
        }
    }

    mutating func finish(_ summary: RunSummary, to output: inout OutputBuffer) {
        if !wroteRows { output.append("No matches.\n") }
    }

    /// The link to a file: its path relative to the current directory when it is inside it, else its absolute path,
    /// percent-encoded so that spaces and parentheses cannot end the link.
    private func linkTarget(_ path: String) -> String {
        let absolute = ConfigFile.absolutePath(path, currentDirectory: currentDirectory)
        let shown = ConfigFile.relativePath(of: absolute, inFolder: currentDirectory).flatMap { $0.isEmpty ? nil : $0 } ?? absolute
        return shown.split(separator: "/", omittingEmptySubsequences: false).map { MatchTemplate.percentEncoded(String($0)) }
            .joined(separator: "/")
    }
}

/// Text for a Markdown table cell: a backslash before each character that Markdown could read as syntax (among them
/// `|`, which would end the cell, and `` ` ``, which would start code), and line ends and tabs as spaces; control
/// characters are shown as `terminalText` shows them.
func markdownText(_ text: String) -> String {
    var out = ""
    let oneLine = text.replacingEvery("\r\n", with: " ").replacingEvery("\n", with: " ").replacingEvery("\r", with: " ")
        .replacingEvery("\t", with: " ")
    for character in terminalText(oneLine) {
        switch character {
        case "\\", "|", "`", "*", "_", "[", "]", "<", ">", "#", "~", "&", "!": out += "\\" + String(character)
        default: out.append(character)
        }
    }
    return out
}
