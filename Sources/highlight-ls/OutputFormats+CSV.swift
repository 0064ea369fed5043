// `--format csv`: a header row, then one row per match, as RFC 4180 writes them: records end in CRLF, and a field
// that holds a comma, a double quote, a CR or an LF is quoted, with its double quotes doubled. With `--blame` four
// columns follow: author, email, date (the author date in ISO 8601) and commit (the full object name; git's
// all-zero name for a line not committed yet, with no author, email or date; all four empty when git could not say).

/// One row per match, after a header row.
struct CSVWriter: ReportWriter {
    /// Whether the blame columns are written (`--blame`).
    var blame: Bool
    private var wroteHeader = false

    init(blame: Bool) {
        self.blame = blame
    }

    /// The header row's fields.
    var header: [String] {
        ["path", "line", "column", "rule", "text"] + (blame ? ["author", "email", "date", "commit"] : [])
    }

    mutating func file(_ report: FileReport, to output: inout OutputBuffer) {
        writeHeader(to: &output)
        let path = report.scanned.file.path
        for (index, match) in report.scanned.matches.enumerated() where report.isNew(index) {
            var fields = [path, String(match.start.line + 1), String(match.start.utf8Column + 1), ruleName(match.ruleIndex, in: report.configuration), match.text]
            if blame {
                switch report.blame(of: index) {
                case .committed(let commit): fields += [commit.author, commit.email, commit.authorDate, commit.id]
                case .uncommitted: fields += ["", "", "", String(repeating: "0", count: 40)]
                case .unknown: fields += ["", "", "", ""]
                }
            }
            output.append(csvRecord(fields))
        }
    }

    mutating func finish(_ summary: RunSummary, to output: inout OutputBuffer) {
        // A run without matches still writes the header, so that the file reads as a table with no rows.
        writeHeader(to: &output)
    }

    private mutating func writeHeader(to output: inout OutputBuffer) {
        guard !wroteHeader else { return }
        wroteHeader = true
        output.append(csvRecord(header))
    }
}

/// One CSV record: the fields, each quoted when it must be, separated by commas and ended by CRLF.
func csvRecord(_ fields: [String]) -> String {
    fields.map(csvField).joined(separator: ",") + "\r\n"
}

/// A CSV field: as it is, or between double quotes with its double quotes doubled when it holds `,`, `"`, CR or LF.
func csvField(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }) else {
        return text
    }
    return "\"" + text.replacingEvery("\"", with: "\"\"") + "\""
}
