import Foundation
import Testing

/// Deadlines written with markers through the built executable: `check` fails on an overdue marker whatever its rule
/// says, warns on one due soon, fails on a date that does not exist, and `--today` fixes the day.
@Suite struct DeadlineTests {
    static let config = #"{ "rules": [ { "name": "blocker", "words": ["DO NOT MERGE"], "blocking": true } ] }"#

    static func tree(_ text: String, config: String = Self.config) throws -> URL {
        try CommandLineTests.tree([".highlights.json": config, "a.py": text])
    }

    @Test(arguments: [
        // due 2026-03-01 with the default window of 14 days: the day before the window, its edge, the day before,
        // the day of, the day after.
        ("2026-02-14", Int32(0), "", ""),
        ("2026-02-15", Int32(0), "", "./a.py:1:3: todo: TODO is due in 14 days"),
        ("2026-02-28", Int32(0), "", "./a.py:1:3: todo: TODO is due in 1 day"),
        ("2026-03-01", Int32(0), "", "./a.py:1:3: todo: TODO is due today"),
        ("2026-03-02", Int32(1), "./a.py:1:3: todo: TODO (overdue by 1 day, due 2026-03-01)\n", ""),
    ])
    func aDeadlineAroundEachBoundary(today: String, status: Int32, output: String, warning: String) throws {
        for form in ["TODO(2026-03-01)", "TODO [2026-03-01]", "TODO(alice, 2026-03-01)", "TODO(by 2026-03-01)", "TODO(#7, @bob, by 2026-03-01)"] {
            let root = try Self.tree("# \(form): renew the certificate\n")
            defer { try? FileManager.default.removeItem(at: root) }
            let checked = try CommandLineTests.run(["check", "--today", today], in: root)
            #expect(checked.status == status, "\(form) on \(today): \(checked.errors)")
            #expect(checked.output == output, "\(form) on \(today)")
            if warning.isEmpty {
                #expect(!checked.errors.contains("is due"), "\(form) on \(today): \(checked.errors)")
            } else {
                #expect(checked.errors.contains(warning), "\(form) on \(today): \(checked.errors)")
            }
        }
    }

    @Test func theWindowIsConfigurable() throws {
        let root = try Self.tree(
            "# TODO(2026-03-01)\n",
            config: #"{ "dueSoon": 3, "rules": [ { "name": "blocker", "words": ["DO NOT MERGE"], "blocking": true } ] }"#)
        defer { try? FileManager.default.removeItem(at: root) }
        let outside = try CommandLineTests.run(["check", "--today", "2026-02-25"], in: root)
        #expect(outside.status == 0)
        #expect(!outside.errors.contains("is due"), "\(outside.errors)")
        let inside = try CommandLineTests.run(["check", "--today", "2026-02-26"], in: root)
        #expect(inside.errors.contains("./a.py:1:3: todo: TODO is due in 3 days"), "\(inside.errors)")
        let wrong = try CommandLineTests.run(
            ["check"], in: try Self.tree("x\n", config: #"{ "dueSoon": "two weeks", "rules": [] }"#))
        #expect(wrong.status == 2)
        #expect(wrong.errors.contains("\"dueSoon\" must be a number of days from 0 to 3650, not \"two weeks\""), "\(wrong.errors)")
    }

    @Test func aDateThatDoesNotExistFailsWithItsLineAndColumn() throws {
        let root = try Self.tree("x = 1\n    # FIXME(alice, 2026-02-30): later\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let checked = try CommandLineTests.run(["check", "--today", "2026-01-01"], in: root)
        #expect(checked.status == 1)
        #expect(checked.output == "")
        #expect(checked.errors.contains("./a.py:2:20: fixme: 2026-02-30 is not a date (write the deadline as YYYY-MM-DD, a day that exists)"), "\(checked.errors)")
        let badToday = try CommandLineTests.run(["check", "--today", "2026-02-30"], in: root)
        #expect(badToday.status == 2)
        #expect(badToday.errors.contains("--today 2026-02-30 is not a day"))
    }

    @Test func overdueMarkersJoinTheBlockingMatchesInTextOrder() throws {
        let root = try Self.tree("# DO NOT MERGE\n# TODO(2026-01-01) a\n# TODO(2027-01-01) b\n# HACK(2025-06-01) c\n# TODO: no date\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let checked = try CommandLineTests.run(["check", "--today", "2026-03-01"], in: root)
        #expect(checked.status == 1)
        #expect(checked.output == """
            ./a.py:1:3: blocker: DO NOT MERGE
            ./a.py:2:3: todo: TODO (overdue by 59 days, due 2026-01-01)
            ./a.py:4:3: hack: HACK (overdue by 273 days, due 2025-06-01)

            """)
        #expect(checked.errors.contains("3 blocking matches in 1 file"), "\(checked.errors)")
        // --rule keeps the deadlines of the rules it names only.
        let picked = try CommandLineTests.run(["check", "--today", "2026-03-01", "--rule", "blocker", "--rule", "hack"], in: root)
        #expect(picked.output == "./a.py:1:3: blocker: DO NOT MERGE\n./a.py:4:3: hack: HACK (overdue by 273 days, due 2025-06-01)\n")
        // A rule that does not read fields has no deadline.
        let off = try Self.tree(
            "# TODO(2026-01-01)\n# DO NOT MERGE\n",
            config: #"{ "rules": [ { "name": "todo", "words": ["TODO"], "fields": false }, { "name": "blocker", "words": ["DO NOT MERGE"], "blocking": true } ] }"#)
        let unread = try CommandLineTests.run(["check", "--today", "2026-03-01"], in: off)
        #expect(unread.output == "./a.py:2:3: blocker: DO NOT MERGE\n")
    }

    @Test func jsonCarriesTheFields() throws {
        let root = try Self.tree("# FIXME(alice, #12, ABC-3, by 2026-03-01): x\n# TODO(bob)\n# TODO(see below)\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let listed = try CommandLineTests.run(["list", "--format", "json", "--today", "2026-02-20"], in: root)
        let objects = listed.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(objects.count == 3)
        #expect(objects[0]["owner"] as? String == "alice")
        #expect(objects[0]["tickets"] as? [String] == ["#12", "ABC-3"])
        #expect(objects[0]["due"] as? String == "2026-03-01")
        #expect(objects[0]["deadline"] as? String == "dueSoon")
        #expect(objects[0]["days"] as? Int == 9)
        #expect(objects[1]["owner"] as? String == "bob")
        #expect(objects[1]["due"] == nil)
        #expect(objects[2]["owner"] == nil)
    }

    @Test func theCIFormatsMarkOverdueDueSoonAndMalformedDistinctly() throws {
        let root = try Self.tree("# TODO(2026-03-01) a\n# FIXME(alice, 2026-02-20) b\n# TODO(by 2026-02-30) c\n# DO NOT MERGE\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let github = try CommandLineTests.run(["check", "--today", "2026-02-25", "--format", "github"], in: root)
        #expect(github.status == 1)
        // A file's deadline warnings come first, then its matches.
        #expect(github.output == """
            ::warning file=a.py,line=1,col=3,title=todo::todo: TODO is due in 4 days
            ::error file=a.py,line=3,col=11,title=todo::todo: 2026-02-30 is not a date (write the deadline as YYYY-MM-DD, a day that exists)
            ::error file=a.py,line=2,col=3,endLine=2,endColumn=8,title=fixme::fixme: FIXME (overdue by 5 days, due 2026-02-20)
            ::error file=a.py,line=4,col=3,endLine=4,endColumn=15,title=blocker::blocker: DO NOT MERGE

            """)
        let sarif = try CommandLineTests.run(["check", "--today", "2026-02-25", "--format", "sarif"], in: root)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.output.utf8)) as? [String: Any])
        let results = try #require(((log["runs"] as? [[String: Any]])?.first)?["results"] as? [[String: Any]])
        #expect(results.count == 2)
        #expect(results[0]["level"] as? String == "error")
        #expect((results[0]["message"] as? [String: Any])?["text"] as? String == "fixme: FIXME (overdue by 5 days, due 2026-02-20)")
        let properties = try #require(results[0]["properties"] as? [String: Any])
        #expect(properties["owner"] as? String == "alice")
        #expect(properties["deadline"] as? String == "overdue")
        #expect(properties["days"] as? Int == 5)
        #expect(results[1]["properties"] == nil)
        let junit = try CommandLineTests.run(["check", "--today", "2026-02-25", "--format", "junit"], in: root)
        #expect(junit.output.contains("./a.py:2:3: fixme: FIXME (overdue by 5 days, due 2026-02-20)"), "\(junit.output)")
    }
}
