import WorkspaceScan

// How old a match's line is: the time since its commit's author date (`BlameCommit.authorTime`), against a "now" that
// is the clock's, or the start (midnight UTC) of the day `--today` gives, so that tests and reruns do not move.
// `check --older-than` compares it with a limit; `list --group-by age` sorts it into buckets. A line not committed yet has no age: it is never old, and has a bucket of its own.

/// A span of time given as a count and a unit: `180d`, `26w`, `6m` (30 days each), `1y` (365 days).
struct AgeLimit: Equatable {
    var seconds: Int64
    /// The limit as it was given (`180d`), for messages.
    var text: String

    /// The units, with the days each stands for.
    static let units: [(suffix: Character, days: Int64)] = [("d", 1), ("w", 7), ("m", 30), ("y", 365)]

    /// Reads `180d`; nil for anything else (no unit, a unit not in `units`, a number too large).
    init?(_ text: String) {
        guard let unit = text.last, let days = Self.units.first(where: { $0.suffix == unit })?.days else { return nil }
        let digits = text.dropLast()
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int64(digits) else { return nil }
        let (product, overflow) = count.multipliedReportingOverflow(by: days * 86_400)
        guard !overflow else { return nil }
        seconds = product
        self.text = text
    }

    /// Whether a match with `blame` is older than the limit at `now` (seconds since 1970): its line was committed, and
    /// its author date is more than the limit before `now`. A line not committed yet, or of unknown blame, is not old.
    func isExceeded(by blame: MatchBlame, now: Int64) -> Bool {
        guard case .committed(let commit) = blame else { return false }
        return now - commit.authorTime > seconds
    }
}

/// The buckets of `list --group-by age`, newest first, each a span back from now.
enum AgeBucket: Int, CaseIterable {
    case notCommitted, underAWeek, underAMonth, underThreeMonths, underAYear, aYearOrMore, unknown

    /// The bucket of a match with `blame` at `now`.
    init(_ blame: MatchBlame, now: Int64) {
        switch blame {
        case .uncommitted: self = .notCommitted
        case .unknown: self = .unknown
        case .committed(let commit):
            let days = (now - commit.authorTime) / 86_400
            self = switch days {
            case ..<7: .underAWeek
            case ..<30: .underAMonth
            case ..<90: .underThreeMonths
            case ..<365: .underAYear
            default: .aYearOrMore
            }
        }
    }

    /// The bucket's name in reports.
    var name: String {
        switch self {
        case .notCommitted: "not committed yet"
        case .underAWeek: "less than a week"
        case .underAMonth: "less than a month"
        case .underThreeMonths: "less than 3 months"
        case .underAYear: "less than a year"
        case .aYearOrMore: "a year or more"
        case .unknown: "no blame"
        }
    }
}
