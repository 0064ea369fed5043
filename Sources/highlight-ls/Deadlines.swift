#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HighlightConfig
import WorkspaceScan

// Deadlines written with markers (`TODO(2026-03-01)`, see `MarkerFields`) in `list` and `check`. A rule that reads
// fields has each match's fields read from the match's excerpt (the rest of its line), on the worker that searched the
// file. In `check`, whose search keeps the blocking rules only, the rules that read fields are searched too, in the
// same bytes with overlaps resolved among them only (`ScanOptions.alsoSelecting`), and their overdue matches join
// the blocking ones: a deadline that passed fails the check whatever the rule says. A match due
// within the configuration's `dueSoon` days is a warning, and a date that does not exist is an error, each on stderr
// with its line and column.

/// The fields written after one match, and where its deadline stands on the run's day.
struct MatchFields: Sendable {
    var fields: MarkerFields
    var deadline: DeadlineState?
}

extension MatchFields {
    /// `,"owner":"alice","tickets":["#12"],"due":"2026-03-01","deadline":"overdue","days":3`: the members a JSON
    /// object of the match gains, each only when written.
    var jsonMembers: String {
        var members = ""
        if let owner = fields.owner { members += ",\"owner\":\(jsonString(owner))" }
        if !fields.tickets.isEmpty { members += ",\"tickets\":[\(fields.tickets.map(jsonString).joined(separator: ","))]" }
        if let due = fields.due { members += ",\"due\":\"\(due)\"" }
        switch deadline {
        case nil: break
        case .later(let days)?: members += ",\"deadline\":\"later\",\"days\":\(days)"
        case .dueSoon(let days)?: members += ",\"deadline\":\"dueSoon\",\"days\":\(days)"
        case .overdue(let days)?: members += ",\"deadline\":\"overdue\",\"days\":\(days)"
        }
        return members
    }
}

/// What a run does with the fields written after markers.
struct DeadlineReading: Sendable {
    /// The day deadlines are judged on.
    var today: CalendarDay
    /// Whether the overdue matches of rules that read fields join the run's matches (`check`).
    var addsOverdue: Bool
    /// Whether every match of the rules marked `"list"` joins the run's matches too, to be judged by its age
    /// (`check --older-than`).
    var addsListed: Bool
    /// Whether each match's fields are read for the report (formats that show them).
    var readsForReport: Bool

    /// The options of a scan whose matches' fields are read: excerpts to read them from, and in `check` the rules
    /// that read fields searched beside the blocking ones (`ScanOptions.alsoSelecting`).
    func adjusting(_ options: ScanOptions) -> ScanOptions {
        guard addsOverdue || readsForReport else { return options }
        var adjusted = options
        adjusted.maximumExcerptBytes = ScanOptions.alsoExcerptBytes
        if addsOverdue {
            adjusted.alsoSelecting = addsListed ? .fieldsOrListed : .fields
            // Without work items to judge by age, only a marker with a group of fields can be overdue or due soon.
            adjusted.alsoRequiresFieldGroup = !addsListed
        }
        return adjusted
    }

    /// A file's matches with their fields (read from their excerpts), `check`'s overdue ones added, and what to say
    /// about the others; nothing is read again.
    func read(_ scanned: consuming ScannedFile, item: ScanItem) -> DeadlineReadingResult {
        let configuration = item.configuration
        // Most files have nothing to read: no match, and no marker found beside.
        guard configuration.readsFields || addsListed, addsOverdue || readsForReport,
            !scanned.matches.isEmpty || scanned.alsoMatches?.isEmpty == false
        else {
            var unchanged = scanned
            unchanged.alsoMatches = nil
            return DeadlineReadingResult(scanned: unchanged, fields: [], warnings: [])
        }
        var warnings: [DeadlineWarning] = []
        func reading(_ match: LocatedMatch) -> MatchFields? {
            guard configuration.applicability.indices.contains(match.ruleIndex), configuration.applicability[match.ruleIndex].readsFields else {
                return nil
            }
            // The excerpt runs from the match to its line's end, where a group of fields ends at the latest.
            let excerpt = Array(match.excerpt.utf8)
            guard match.textUTF8.count <= excerpt.count else { return nil }
            switch excerpt.withUnsafeBufferPointer({ MarkerFields.read($0, after: match.textUTF8.count) }) {
            case .none: return nil
            case .fields(let fields):
                return MatchFields(fields: fields, deadline: fields.due.map { DeadlineState(due: $0, today: today, dueSoonDays: configuration.dueSoonDays) })
            case .malformedDate(let offset, let written):
                warnings.append(.malformed(match: match, line: match.start.line, utf8Column: match.start.utf8Column + offset, written: written))
                return nil
            }
        }
        let kept = scanned.matches.map(reading)
        var added: [(LocatedMatch, MatchFields?)] = []
        // The blocking matches have had their fields read above.
        let blocking = Set(scanned.matches.map(\.utf8Range))
        for match in scanned.alsoMatches ?? [] where !blocking.contains(match.utf8Range) {
            let fields = reading(match)
            let listed = addsListed && configuration.applicability.indices.contains(match.ruleIndex)
                && configuration.applicability[match.ruleIndex].list
            switch fields?.deadline {
            case .overdue?: added.append((match, fields))
            case .dueSoon(let days)?:
                warnings.append(.dueSoon(match: match, state: .dueSoon(days: days)))
                if listed { added.append((match, fields)) }
            case .later?, nil:
                if listed { added.append((match, fields)) }
            }
        }
        var result = scanned
        result.alsoMatches = nil
        guard !added.isEmpty else {
            return DeadlineReadingResult(scanned: result, fields: kept.contains { $0 != nil } ? kept : [], warnings: warnings)
        }
        // The matches added (overdue, or work items to be judged by age) take their places in the order of the text.
        let merged = (Array(zip(result.matches, kept)) + added).sorted { $0.0.utf8Range.lowerBound < $1.0.utf8Range.lowerBound }
        result.matches = merged.map(\.0)
        return DeadlineReadingResult(scanned: result, fields: merged.map(\.1), warnings: warnings)
    }
}

/// A file's matches with the fields written after them.
struct DeadlineReadingResult: Sendable {
    var scanned: ScannedFile
    /// Each match's fields, aligned with `scanned.matches`; empty when no match has any.
    var fields: [MatchFields?]
    var warnings: [DeadlineWarning]
}

/// A deadline to tell about on stderr, with the match it belongs to.
enum DeadlineWarning: Sendable {
    /// Due within the configuration's `dueSoon` days.
    case dueSoon(match: LocatedMatch, state: DeadlineState)
    /// A date that does not exist; the column is that of the date.
    case malformed(match: LocatedMatch, line: Int, utf8Column: Int, written: String)

    /// The match the warning is about.
    var match: LocatedMatch {
        switch self {
        case .dueSoon(let match, _), .malformed(let match, _, _, _): match
        }
    }

    /// Whether it fails `check`.
    var fails: Bool {
        if case .malformed = self { return true }
        return false
    }

    /// The zero-based line and UTF-8 column the warning points at: the match, or the date that does not exist.
    var point: (line: Int, utf8Column: Int) {
        switch self {
        case .dueSoon(let match, _): (match.start.line, match.start.utf8Column)
        case .malformed(_, let line, let column, _): (line, column)
        }
    }

    /// The same point in UTF-16 code units, as GitHub counts columns (the text between the match and the date is
    /// counted as bytes: a date follows ASCII punctuation and names).
    var utf16Column: Int { match.start.utf16Column + point.utf8Column - match.start.utf8Column }

    /// `rule: what`, for annotations.
    func text(ruleName: String) -> String {
        switch self {
        case .dueSoon(let match, let state):
            return "\(terminalText(ruleName)): \(terminalText(match.text)) is \(state.phrase)"
        case .malformed(_, _, _, let written):
            return "\(terminalText(ruleName)): \(terminalText(written)) is not a date (write the deadline as YYYY-MM-DD, a day that exists)"
        }
    }

    /// `path:line:column: rule: what`, for stderr.
    func message(path: String, ruleName: String) -> String {
        "\(path):\(point.line + 1):\(point.utf8Column + 1): " + text(ruleName: ruleName)
    }
}
