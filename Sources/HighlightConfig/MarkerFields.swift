#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The fields written with a marker, read by the rules that ask for them (`"fields": true`; the built-in word rules do):
//
//     TODO(alice)                 owner alice
//     TODO(@alice)                owner alice
//     FIXME(#123)                 ticket #123
//     FIXME(ABC-123)              ticket ABC-123
//     TODO(https://x.test/1)      ticket https://x.test/1
//     TODO(2026-03-01)            due 2026-03-01
//     TODO(by 2026-03-01)         due 2026-03-01
//     TODO [2026-03-01]           due 2026-03-01
//     FIXME(alice, #123, 2026-03-01)
//
// The group follows the marker at once or after spaces, in parentheses or brackets; its fields are separated by
// commas, at most one owner and one date, any number of tickets. A group that holds anything else (`TODO(see
// below)`), is empty (`TODO()`) or is not closed on its line (`TODO(`) has no fields: it is prose. A date must exist:
// `2026-02-30` is reported where it is written, never read as another day.

/// A day of the Gregorian calendar, for deadlines.
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// The day, when it exists (`2026-02-30` does not).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...Self.daysIn(month: month, of: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day written `YYYY-MM-DD`; nil for any other text or a day that does not exist.
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard let shape = Self.digits(ofDateShaped: bytes[...]) else { return nil }
        self.init(year: shape.year, month: shape.month, day: shape.day)
    }

    /// The numbers of a `dddd-dd-dd` text, whether or not the day exists; nil when it is not of that shape.
    static func digits(ofDateShaped bytes: ArraySlice<UInt8>) -> (year: Int, month: Int, day: Int)? {
        guard bytes.count == 10 else { return nil }
        var numbers: [Int] = []
        var value = 0
        for (position, byte) in bytes.enumerated() {
            if position == 4 || position == 7 {
                guard byte == UInt8(ascii: "-") else { return nil }
                numbers.append(value)
                value = 0
                continue
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return (numbers[0], numbers[1], value)
    }

    static func daysIn(month: Int, of year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Today in the local time zone.
    public static func today() -> CalendarDay {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return CalendarDay(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
            ?? CalendarDay(year: 1970, month: 1, day: 1)!
    }

    /// Days since 1970-01-01 (negative before it), by the civil-from-days arithmetic of the proleptic calendar.
    public var daysSinceEpoch: Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Seconds since 1970 at this day's start, UTC: the "now" of a run whose day is fixed (`--today`).
    public var startSecondsSince1970: Int64 { Int64(daysSinceEpoch) * 86_400 }

    /// Days from this day to `other` (positive when `other` is later).
    public func days(until other: CalendarDay) -> Int { other.daysSinceEpoch - daysSinceEpoch }

    public static func < (left: CalendarDay, right: CalendarDay) -> Bool { left.daysSinceEpoch < right.daysSinceEpoch }

    /// `2026-03-01`.
    public var description: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }
}

/// What is written with a marker: who owns it, which tickets it belongs to, and when it is due.
public struct MarkerFields: Sendable, Hashable {
    /// The owner, without its `@`.
    public var owner: String?
    /// The tickets, as written: `#123`, `ABC-123` or a URL.
    public var tickets: [String] = []
    /// The deadline.
    public var due: CalendarDay?

    /// What follows a marker, read.
    public enum Reading: Sendable, Hashable {
        /// No group of fields follows (or it is prose).
        case none
        case fields(MarkerFields)
        /// A group of fields whose date does not exist: `utf8Offset` is where the date starts in the text read, and
        /// `written` is the date as written.
        case malformedDate(utf8Offset: Int, written: String)
    }

    /// Where a group of fields opens after a marker whose match ends at `utf8Offset`: the offset of its `(` or `[`,
    /// after spaces and tabs; nil when none does. Searches that want only markers with fields ask this before reading.
    public static func groupOpening(in text: UnsafeBufferPointer<UInt8>, after utf8Offset: Int) -> Int? {
        var index = utf8Offset
        while index < text.count, text[index] == UInt8(ascii: " ") || text[index] == UInt8(ascii: "\t") { index += 1 }
        guard index < text.count, text[index] == UInt8(ascii: "(") || text[index] == UInt8(ascii: "[") else { return nil }
        return index
    }

    /// Reads the fields in `text` from `utf8Offset`, the end of a marker's match.
    /// - Complexity: O(n) for the n bytes of the group, at most to the end of the line.
    public static func read(_ text: UnsafeBufferPointer<UInt8>, after utf8Offset: Int) -> Reading {
        guard let opening = groupOpening(in: text, after: utf8Offset) else { return .none }
        let close = text[opening] == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "]")
        let start = opening + 1
        var end = start
        while end < text.count, text[end] != close {
            if text[end] == UInt8(ascii: "\n") || text[end] == UInt8(ascii: "\r") { return .none }
            end += 1
        }
        guard end < text.count, end > start else { return .none }
        var fields = MarkerFields()
        var fieldStart = start
        while fieldStart <= end {
            var fieldEnd = fieldStart
            while fieldEnd < end, text[fieldEnd] != UInt8(ascii: ",") { fieldEnd += 1 }
            var low = fieldStart
            var high = fieldEnd
            while low < high, text[low] == UInt8(ascii: " ") || text[low] == UInt8(ascii: "\t") { low += 1 }
            while high > low, text[high - 1] == UInt8(ascii: " ") || text[high - 1] == UInt8(ascii: "\t") { high -= 1 }
            let field = Array(UnsafeBufferPointer(rebasing: text[low..<high]))
            switch Field(field) {
            case nil:
                return .none
            case .owner(let name)?:
                guard fields.owner == nil else { return .none }
                fields.owner = name
            case .ticket(let ticket)?:
                fields.tickets.append(ticket)
            case .date(let day, let dateOffset)?:
                guard fields.due == nil else { return .none }
                guard let day else {
                    let written = String(decoding: field[dateOffset...], as: UTF8.self)
                    return .malformedDate(utf8Offset: low + dateOffset, written: written)
                }
                fields.due = day
            }
            fieldStart = fieldEnd + 1
        }
        return .fields(fields)
    }

    /// One field of a group.
    private enum Field {
        case owner(String)
        case ticket(String)
        /// A date; nil when it has the shape of one but does not exist. `offset` is where it starts in the field.
        case date(CalendarDay?, offset: Int)

        init?(_ field: [UInt8]) {
            let text = String(decoding: field, as: UTF8.self)
            let dateOffset = field.starts(with: "by ".utf8) ? 3 : 0
            if let shape = CalendarDay.digits(ofDateShaped: field[dateOffset...]) {
                self = .date(CalendarDay(year: shape.year, month: shape.month, day: shape.day), offset: dateOffset)
            } else if text.hasPrefix("#"), text.count > 1, text.dropFirst().allSatisfy(\.isASCIIDigit) {
                self = .ticket(text)
            } else if text.hasPrefix("https://") || text.hasPrefix("http://"), !text.contains(" ") {
                self = .ticket(text)
            } else if Self.isTicketKey(text) {
                self = .ticket(text)
            } else if text.hasPrefix("@"), text.count > 1, Self.isName(text.dropFirst()) {
                self = .owner(String(text.dropFirst()))
            } else if Self.isName(text[...]), text.first?.isLetter == true {
                self = .owner(text)
            } else {
                return nil
            }
        }

        /// `ABC-123`: capital letters (then letters or digits), a hyphen, digits, as issue trackers key tickets.
        private static func isTicketKey(_ text: String) -> Bool {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let key = parts.first, let number = parts.last, !number.isEmpty,
                number.allSatisfy(\.isASCIIDigit), key.count >= 2, key.first.map({ $0.isASCII && $0.isUppercase }) == true
            else { return false }
            return key.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) }
        }

        /// A user name: letters, digits, `_`, `-` and `.`, as people write handles.
        private static func isName(_ text: Substring) -> Bool {
            !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }
        }
    }
}

/// Where a marker's deadline stands on a day.
public enum DeadlineState: Sendable, Hashable {
    /// Due more than the warning window from today: `days` days away.
    case later(days: Int)
    /// Due within the warning window (today included): `days` days away, 0 for today.
    case dueSoon(days: Int)
    /// Past due by `days` days (1 for yesterday).
    case overdue(days: Int)

    /// Where `due` stands on `today`, with a warning window of `dueSoonDays` days.
    public init(due: CalendarDay, today: CalendarDay, dueSoonDays: Int) {
        let days = today.days(until: due)
        if days < 0 {
            self = .overdue(days: -days)
        } else if days <= dueSoonDays {
            self = .dueSoon(days: days)
        } else {
            self = .later(days: days)
        }
    }

    /// "due in 12 days", "due today", "overdue by 3 days".
    public var phrase: String {
        func days(_ count: Int) -> String { count == 1 ? "1 day" : "\(count) days" }
        switch self {
        case .later(let count), .dueSoon(let count): return count == 0 ? "due today" : "due in \(days(count))"
        case .overdue(let count): return "overdue by \(days(count))"
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
