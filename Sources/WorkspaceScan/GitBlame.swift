// Who last changed the line of a match, as `git blame --porcelain` says, read from its bytes.
//
// The porcelain format gives, for each line blamed, a header `<commit> <original line> <final line> [<lines in
// group>]`, then the commit's fields (`author`, `author-mail`, `author-time`, `author-tz`, ...) the first time that
// commit appears, a `filename` line, and the line itself after a tab:
//
//     1f0e...  3 3 1          header: the line's commit, its line then and now
//     author Alice            the commit's fields, once per commit
//     author-mail <alice@example.com>
//     author-time 1700000000
//     author-tz +0100
//     ...
//     filename a.py
//     \t# TODO: something     the line
//
// The parser is a pure function of those bytes, so it is tested without git. Dates are the author's: `author-time`
// with `author-tz`, which is what `git blame` and `git log` show by default; the committer's date is not used.

/// A commit as blame describes it: the fields a report shows.
public struct BlameCommit: Equatable, Sendable {
    /// The full object name, in hexadecimal.
    public var id: String
    public var author: String
    /// The author's email, without the angle brackets porcelain puts around it.
    public var email: String
    /// The author date, in seconds since 1970 (UTC).
    public var authorTime: Int64
    /// The author's UTC offset as git writes it: `+0100`, `-0530`.
    public var authorTimeZone: String

    public init(id: String, author: String, email: String, authorTime: Int64, authorTimeZone: String) {
        self.id = id
        self.author = author
        self.email = email
        self.authorTime = authorTime
        self.authorTimeZone = authorTimeZone
    }

    /// The first eight digits of the object name, as reports show a commit to people.
    public var shortID: String { String(id.prefix(8)) }

    /// The author date in ISO 8601, in the author's own offset: `2024-01-15T10:00:00+01:00`.
    public var authorDate: String { iso8601(secondsSince1970: authorTime, offset: authorTimeZone) }
}

/// Who last changed a match's line.
public enum MatchBlame: Equatable, Sendable {
    /// The line as a commit left it.
    case committed(BlameCommit)
    /// The line is changed in the working tree (or the file is not tracked): no commit has it yet.
    case uncommitted
    /// git could not say: the file is outside a repository, git is missing, or blame failed (said once on stderr).
    case unknown
}

/// Reading `git blame --porcelain` output.
public enum BlamePorcelain {
    /// The blame of each line the output describes, by 1-based line number in the file as it is now.
    ///
    /// Lines of the all-zero commit, which git gives to lines changed in the working tree, are `uncommitted`. A commit
    /// whose fields never appear (damaged output) gives no blame for its lines.
    /// - Complexity: O(*n*) in the bytes of the output.
    public static func lines(of output: [UInt8]) -> [Int: MatchBlame] {
        var fields: [String: [String: String]] = [:]
        var lines: [Int: String] = [:]
        var commit: String?
        var finalLine = 0
        var expectsHeader = true
        var start = 0
        while start < output.count {
            let end = output[start...].firstIndex(of: UInt8(ascii: "\n")) ?? output.count
            let line = output[start..<end]
            start = end + 1
            if line.first == UInt8(ascii: "\t") {
                // The line's own text ends its record.
                if let commit, finalLine > 0 { lines[finalLine] = commit }
                // A header must come again before another line is blamed, so that damaged output cannot lend one
                // line's commit to the next.
                commit = nil
                expectsHeader = true
                continue
            }
            if expectsHeader {
                let words = line.split(separator: UInt8(ascii: " "))
                guard words.count >= 3, isObjectName(words[0]), let number = Int(String(decoding: words[2], as: UTF8.self)) else {
                    continue
                }
                commit = String(decoding: words[0], as: UTF8.self)
                finalLine = number
                expectsHeader = false
                continue
            }
            guard let commit else { continue }
            let space = line.firstIndex(of: UInt8(ascii: " ")) ?? line.endIndex
            let key = String(decoding: line[line.startIndex..<space], as: UTF8.self)
            let value = space < line.endIndex ? String(decoding: line[(space + 1)...], as: UTF8.self) : ""
            fields[commit, default: [:]][key] = value
        }
        var commits: [String: MatchBlame] = [:]
        var result: [Int: MatchBlame] = [:]
        for (number, id) in lines {
            if commits[id] == nil { commits[id] = blame(of: id, fields: fields[id] ?? [:]) }
            if let blame = commits[id], blame != .unknown { result[number] = blame }
        }
        return result
    }

    /// The blame a commit's fields describe; `unknown` when they lack what a report shows.
    private static func blame(of id: String, fields: [String: String]) -> MatchBlame {
        if id.utf8.allSatisfy({ $0 == UInt8(ascii: "0") }) { return .uncommitted }
        guard let author = fields["author"], let mail = fields["author-mail"], let time = fields["author-time"].flatMap({ Int64($0) })
        else { return .unknown }
        var email = Substring(mail)
        if email.hasPrefix("<"), email.hasSuffix(">") { email = email.dropFirst().dropLast() }
        return .committed(
            BlameCommit(id: id, author: author, email: String(email), authorTime: time, authorTimeZone: fields["author-tz"] ?? "+0000"))
    }

    /// Whether `word` is an object name: 40 (SHA-1) or 64 (SHA-256) hexadecimal digits.
    private static func isObjectName(_ word: ArraySlice<UInt8>) -> Bool {
        (word.count == 40 || word.count == 64) && word.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        }
    }
}

/// The minutes east of UTC that git's `+0100` or `-0530` stands for; 0 for anything else.
public func utcOffsetMinutes(_ zone: String) -> Int {
    let bytes = Array(zone.utf8)
    guard bytes.count == 5, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
        let hours = Int(String(decoding: bytes[1..<3], as: UTF8.self)), let minutes = Int(String(decoding: bytes[3..<5], as: UTF8.self))
    else { return 0 }
    return (bytes[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 60 + minutes)
}

/// `secondsSince1970` as local time at `offset` (git's `+0100`), in ISO 8601: `2024-01-15T10:00:00+01:00`.
public func iso8601(secondsSince1970: Int64, offset: String) -> String {
    let minutes = utcOffsetMinutes(offset)
    let local = secondsSince1970 + Int64(minutes) * 60
    let (days, second) = local.floorDividedBy(86_400)
    let (year, month, day) = civilDate(daysSince1970: days)
    func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let sign = minutes < 0 ? "-" : "+"
    let zone = "\(sign)\(two(Int64(abs(minutes) / 60))):\(two(Int64(abs(minutes) % 60)))"
    return "\(year)-\(two(month))-\(two(day))T\(two(second / 3600)):\(two(second % 3600 / 60)):\(two(second % 60))\(zone)"
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
public func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
}

extension Int64 {
    /// The quotient rounded down and the remainder that goes with it (never negative for a positive divisor).
    public func floorDividedBy(_ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = self / divisor - (self % divisor < 0 ? 1 : 0)
        return (quotient, self - quotient * divisor)
    }
}
