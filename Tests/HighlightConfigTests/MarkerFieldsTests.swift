import Testing

@testable import HighlightConfig

/// The fields written after a marker: each documented form, the near misses that must read as prose, dates that do
/// not exist, and where a deadline stands around each boundary.
@Suite struct MarkerFieldsTests {
    /// What `text` reads as after its first `TODO`, `FIXME` or `XXX`: `owner=… tickets=… due=…`, `none`, or
    /// `malformed <date> at <offset>`.
    static func reading(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let marker = ["TODO", "FIXME", "XXX"].compactMap { word in text.range(of: word).map { text.utf8.distance(from: text.startIndex, to: $0.upperBound) } }.min() ?? 0
        let read = bytes.withUnsafeBufferPointer { MarkerFields.read($0, after: marker) }
        switch read {
        case .none: return "none"
        case .malformedDate(let offset, let written): return "malformed \(written) at \(offset)"
        case .fields(let fields):
            var parts: [String] = []
            if let owner = fields.owner { parts.append("owner=\(owner)") }
            if !fields.tickets.isEmpty { parts.append("tickets=\(fields.tickets.joined(separator: ","))") }
            if let due = fields.due { parts.append("due=\(due)") }
            return parts.joined(separator: " ")
        }
    }

    @Test(arguments: [
        // Every documented form.
        ("TODO(alice): x", "owner=alice"),
        ("TODO(@alice) x", "owner=alice"),
        ("FIXME(#123)", "tickets=#123"),
        ("FIXME(ABC-123): y", "tickets=ABC-123"),
        ("TODO(https://tracker.example/browse/ABC-1)", "tickets=https://tracker.example/browse/ABC-1"),
        ("TODO(2026-03-01)", "due=2026-03-01"),
        ("TODO(by 2026-03-01)", "due=2026-03-01"),
        ("TODO [2026-03-01] z", "due=2026-03-01"),
        ("TODO[2026-03-01]", "due=2026-03-01"),
        ("FIXME(alice, 2026-03-01)", "owner=alice due=2026-03-01"),
        ("FIXME(alice, #123):", "owner=alice tickets=#123"),
        ("FIXME( @bob ,ABC-9, #3 , by 2028-02-29 )", "owner=bob tickets=ABC-9,#3 due=2028-02-29"),
        ("XXX (j.doe_2)", "owner=j.doe_2"),
        // Near misses: prose, empty, unclosed, two owners, two dates, a date of another shape.
        ("TODO(", "none"),
        ("TODO()", "none"),
        ("TODO( )", "none"),
        ("TODO(alice\n)", "none"),
        ("TODO(see below)", "none"),
        ("TODO: (alice)", "none"),
        ("TODO(alice, bob)", "none"),
        ("TODO(2026-03-01, 2026-04-01)", "none"),
        ("TODO(2026-3-1)", "none"),
        ("TODO(#)", "none"),
        ("TODO(@)", "none"),
        ("TODO(alice,)", "none"),
        ("TODO", "none"),
        ("TODO x (alice)", "none"),
        // A date of the right shape that does not exist is reported where it is written.
        ("TODO(2026-02-30)", "malformed 2026-02-30 at 5"),
        ("TODO(alice, by 2027-02-29)", "malformed 2027-02-29 at 15"),
        ("TODO [2026-13-01]", "malformed 2026-13-01 at 6"),
        ("TODO(0000-01-01)", "malformed 0000-01-01 at 5"),
    ])
    func readings(text: String, expected: String) {
        #expect(Self.reading(text) == expected, "\(text)")
    }

    @Test func daysCountAcrossMonthsYearsAndLeapDays() throws {
        let epoch = try #require(CalendarDay("1970-01-01"))
        #expect(epoch.daysSinceEpoch == 0)
        #expect(try #require(CalendarDay("2000-03-01")).daysSinceEpoch == 11_017)
        #expect(try #require(CalendarDay("1969-12-31")).daysSinceEpoch == -1)
        #expect(try #require(CalendarDay("2024-02-28")).days(until: try #require(CalendarDay("2024-03-01"))) == 2)
        #expect(try #require(CalendarDay("2026-12-31")).days(until: try #require(CalendarDay("2027-01-01"))) == 1)
        #expect(CalendarDay("2100-02-29") == nil)
        #expect(CalendarDay("2000-02-29") != nil)
        #expect(CalendarDay("2026-04-31") == nil)
        #expect(CalendarDay("2026-1-01") == nil)
        #expect(CalendarDay("2026-01-01")?.description == "2026-01-01")
        // Every day of four centuries, against counting them one by one.
        var expected = try #require(CalendarDay("1900-01-01")).daysSinceEpoch
        for year in 1900...2300 {
            for month in 1...12 {
                for day in 1...31 {
                    guard let calendarDay = CalendarDay(year: year, month: month, day: day) else { continue }
                    #expect(calendarDay.daysSinceEpoch == expected)
                    expected += 1
                }
            }
        }
    }

    @Test(arguments: [
        // due 2026-03-01, dueSoon 14: the edge of the window, the day before, the day of, the day after.
        ("2026-02-14", DeadlineState.later(days: 15), "due in 15 days"),
        ("2026-02-15", DeadlineState.dueSoon(days: 14), "due in 14 days"),
        ("2026-02-28", DeadlineState.dueSoon(days: 1), "due in 1 day"),
        ("2026-03-01", DeadlineState.dueSoon(days: 0), "due today"),
        ("2026-03-02", DeadlineState.overdue(days: 1), "overdue by 1 day"),
        ("2026-03-04", DeadlineState.overdue(days: 3), "overdue by 3 days"),
    ])
    func deadlineStates(today: String, expected: DeadlineState, phrase: String) throws {
        let state = DeadlineState(due: try #require(CalendarDay("2026-03-01")), today: try #require(CalendarDay(today)), dueSoonDays: 14)
        #expect(state == expected)
        #expect(state.phrase == phrase)
    }

    @Test func aWindowOfNoDaysWarnsOnTheDayOnly() throws {
        let due = try #require(CalendarDay("2026-03-01"))
        #expect(DeadlineState(due: due, today: try #require(CalendarDay("2026-02-28")), dueSoonDays: 0) == .later(days: 1))
        #expect(DeadlineState(due: due, today: due, dueSoonDays: 0) == .dueSoon(days: 0))
    }
}

extension MarkerFieldsTests {
    /// `check`'s deadline search keeps only the markers a group of fields follows, before scopes and overlaps: in
    /// code, in comments, with spaces or a tab before the group, and never one followed by prose.
    @Test func theDeadlineSearchKeepsOnlyMarkersWithAGroup() {
        let text = Array("# TODO x\n# TODO(alice)\n# HACK \t[2026-03-01]\n# NOTE: (x)\nTODO(y)\n# TODO\n".utf8)
        var filter = HighlightConfiguration.builtInOnly.ruleFilter(for: TextOrigin(relativePath: nil, languageID: "python"), selecting: .fields)
        filter.requiresFieldGroup = true
        let found = text.withUnsafeBufferPointer { buffer in
            filter.matches(of: HighlightConfiguration.builtInOnly.ruleSet, in: buffer).matches.map { String(decoding: buffer[$0.utf8Range], as: UTF8.self) + "@\($0.utf8Range.lowerBound)" }
        }
        // TODO(y) is code, out of the rule's scope; the others have no group.
        #expect(found == ["TODO@11", "HACK@25"])
    }
}
