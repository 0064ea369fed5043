#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HighlightConfig
import WorkspaceScan

// Deadlines written with markers (`TODO(2026-03-01)`, see `MarkerFields`) in `list` and `check`. A rule that reads
// fields has each match's fields read after the search, on the worker that searched the file. In `check`, whose search
// keeps the blocking rules only, the rules that read fields are searched again in the files they apply to, and their
// overdue matches join the blocking ones: a deadline that passed fails the check whatever the rule says. A match due
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
    /// Whether each match's fields are read for the report (formats that show them).
    var readsForReport: Bool
    /// The rules asked for (`--rule`); nil for every rule.
    var ruleNames: Set<String>?

    /// A file's matches with their fields, `check`'s overdue ones added, and what to say about the others.
    func read(_ scanned: ScannedFile, item: ScanItem) -> DeadlineReadingResult {
        let configuration = item.configuration
        guard configuration.readsFields, case .searched = scanned.outcome, addsOverdue || (readsForReport && !scanned.matches.isEmpty) else {
            return DeadlineReadingResult(scanned: scanned, fields: [], warnings: [])
        }
        let bytes = contents(of: scanned.file)
        var result = scanned
        var dated: [LocatedMatch] = []
        if addsOverdue {
            var options = ScanOptions(maximumFileSize: Int.max, selection: .fields)
            options.ruleNames = ruleNames
            let origin = scanned.languageID.map { TextOrigin(relativePath: scanned.file.relativePath, languageID: $0) }
                ?? TextOrigin(guessingLanguageOf: scanned.file.relativePath)
            dated = WorkspaceScanner.scan(bytes: bytes, as: scanned.file, origin: origin, configuration: configuration, options: options).matches
        }
        let text = WorkspaceScanner.utf8Text(ofFileBytes: bytes)
        var warnings: [DeadlineWarning] = []
        let readings: (kept: [MatchFields?], added: [LocatedMatch], addedFields: [MatchFields?]) = text.withUnsafeBufferPointer { text in
            func reading(_ match: LocatedMatch) -> MatchFields? {
                guard configuration.applicability.indices.contains(match.ruleIndex), configuration.applicability[match.ruleIndex].readsFields,
                    match.utf8Range.upperBound <= text.count
                else { return nil }
                switch MarkerFields.read(text, after: match.utf8Range.upperBound) {
                case .none: return nil
                case .fields(let fields):
                    return MatchFields(fields: fields, deadline: fields.due.map { DeadlineState(due: $0, today: today, dueSoonDays: configuration.dueSoonDays) })
                case .malformedDate(let offset, let written):
                    warnings.append(.malformed(match: match, utf8Offset: offset, written: written, text: text))
                    return nil
                }
            }
            let kept = scanned.matches.map(reading)
            var added: [LocatedMatch] = []
            var addedFields: [MatchFields?] = []
            // The blocking search has already read the malformed dates of its own matches.
            let blocking = Set(scanned.matches.map(\.utf8Range))
            for match in dated where !blocking.contains(match.utf8Range) {
                let before = warnings.count
                let fields = reading(match)
                guard let deadline = fields?.deadline else { continue }
                switch deadline {
                case .overdue:
                    added.append(match)
                    addedFields.append(fields)
                case .dueSoon:
                    warnings.append(.dueSoon(match: match, state: deadline))
                case .later:
                    warnings.removeSubrange(before...)
                }
            }
            return (kept, added, addedFields)
        }
        guard !readings.added.isEmpty else {
            return DeadlineReadingResult(scanned: result, fields: readings.kept.contains { $0 != nil } ? readings.kept : [], warnings: warnings)
        }
        // The overdue matches take their places among the others, in the order of the text.
        let merged = (zip(result.matches, readings.kept).map { ($0, $1) } + zip(readings.added, readings.addedFields).map { ($0, $1) })
            .sorted { $0.0.utf8Range.lowerBound < $1.0.utf8Range.lowerBound }
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

    static func malformed(match: LocatedMatch, utf8Offset: Int, written: String, text: UnsafeBufferPointer<UInt8>) -> DeadlineWarning {
        // The group is on the line where the match ends: only spaces and tabs may come between them.
        var lineStart = utf8Offset
        while lineStart > 0, text[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        let line = match.end.line
        return .malformed(match: match, line: line, utf8Column: utf8Offset - lineStart, written: written)
    }

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

    /// `path:line:column: rule: warning`, for stderr.
    func message(path: String, ruleName: String) -> String {
        switch self {
        case .dueSoon(let match, let state):
            return "\(path):\(match.start.line + 1):\(match.start.utf8Column + 1): \(terminalText(ruleName)): "
                + "\(terminalText(match.text)) is \(state.phrase)"
        case .malformed(_, let line, let column, let written):
            return "\(path):\(line + 1):\(column + 1): \(terminalText(ruleName)): \(terminalText(written)) is not a date "
                + "(write the deadline as YYYY-MM-DD, a day that exists)"
        }
    }
}
