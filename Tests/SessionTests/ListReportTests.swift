import Foundation
import Testing

/// `list --count`, `--group-by` and the csv and markdown formats through the built executable: counts and their
/// order, group tables, csv read back by an RFC 4180 reader written here, markdown's escaping and links.
@Suite struct ListReportTests {
    typealias Outcome = CommandLineTests.Outcome

    /// Three files: four TODOs, two FIXMEs, one HACK.
    static let files = [
        "src/a.py": "# TODO: one\n# FIXME: two\n# TODO: three\n",
        "src/b.py": "# TODO: four\n# HACK: five\n",
        "c.py": "# FIXME: six\n# TODO: seven\n",
    ]

    @Test func countGivesEachRuleMostFirstThenByName() throws {
        let root = try CommandLineTests.tree(Self.files)
        defer { try? FileManager.default.removeItem(at: root) }
        let counted = try CommandLineTests.run(["list", "--count"], in: root)
        #expect(counted.status == 0)
        #expect(counted.output == "todo 4\nfixme 2\nhack 1\n")
        let json = try CommandLineTests.run(["list", "--count", "--format", "json"], in: root)
        #expect(json.output == #"{"todo":4,"fixme":2,"hack":1}"# + "\n")
        let csv = try CommandLineTests.run(["list", "--count", "--format", "csv"], in: root)
        #expect(try Self.csvRecords(csv.output) == [["rule", "count"], ["todo", "4"], ["fixme", "2"], ["hack", "1"]])
        let markdown = try CommandLineTests.run(["list", "--count", "--format", "markdown"], in: root)
        #expect(markdown.output == "| rule | count |\n| --- | ---: |\n| todo | 4 |\n| fixme | 2 |\n| hack | 1 |\n")
        // The counts are those of the matches list finds, with the same filters.
        let picked = try CommandLineTests.run(["list", "--count", "--rule", "fixme", "src"], in: root)
        #expect(picked.output == "fixme 1\n")
    }

    @Test func countByFileGivesEachFileMostFirst() throws {
        let root = try CommandLineTests.tree(Self.files)
        defer { try? FileManager.default.removeItem(at: root) }
        let counted = try CommandLineTests.run(["list", "--count", "--group-by", "file", "src", "c.py"], in: root)
        #expect(counted.output == "src/a.py 3\nc.py 2\nsrc/b.py 2\n")
    }

    @Test func groupByRuleWritesEachGroupUnderItsName() throws {
        let root = try CommandLineTests.tree(Self.files)
        defer { try? FileManager.default.removeItem(at: root) }
        let grouped = try CommandLineTests.run(["list", "--group-by", "rule", "src", "c.py"], in: root)
        #expect(grouped.output == """
            todo (4 matches):
            src/a.py:1:3: todo: TODO
            src/a.py:3:3: todo: TODO
            src/b.py:1:3: todo: TODO
            c.py:2:3: todo: TODO

            fixme (2 matches):
            src/a.py:2:3: fixme: FIXME
            c.py:1:3: fixme: FIXME

            hack (1 match):
            src/b.py:2:3: hack: HACK

            """)
        let markdown = try CommandLineTests.run(["list", "--group-by", "file", "--format", "markdown", "src"], in: root)
        #expect(markdown.output == """
            ## src/a.py (3 matches)

            | location | rule | text |
            | --- | --- | --- |
            | [src/a.py:1:3](src/a.py#L1) | todo | TODO |
            | [src/a.py:2:3](src/a.py#L2) | fixme | FIXME |
            | [src/a.py:3:3](src/a.py#L3) | todo | TODO |

            ## src/b.py (2 matches)

            | location | rule | text |
            | --- | --- | --- |
            | [src/b.py:1:3](src/b.py#L1) | todo | TODO |
            | [src/b.py:2:3](src/b.py#L2) | hack | HACK |

            """)
        // JSON lines give every match, in group order.
        let json = try CommandLineTests.run(["list", "--group-by", "rule", "--json", "src"], in: root)
        let rules = json.output.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["rule"] as? String ?? ""
        }
        #expect(rules == ["todo", "todo", "todo", "fixme", "hack"])
    }

    @Test func groupByAuthorAndAgeReadTheBlame() throws {
        let root = try CommandLineTests.tree(Self.files)
        defer { try? FileManager.default.removeItem(at: root) }
        try BlameTests.git(["init", "-q", "-b", "main"], in: root)
        try BlameTests.git(["add", "src"], in: root)
        try BlameTests.git(["commit", "-qm", "one"], in: root)
        try BlameTests.git(["add", "c.py"], in: root, as: BlameTests.bob)
        try BlameTests.git(["commit", "-qm", "two"], in: root, as: BlameTests.bob)
        try BlameTests.write("# TODO: not committed\n", to: "d.py", in: root)
        // Ada's commit is 2024-01-15, Bob's 2025-06-01; today is 2025-06-03.
        let now = "2025-06-03"
        let authors = try CommandLineTests.run(["list", "--count", "--group-by", "author", "--today", now], in: root)
        #expect(authors.output == "Ada Lovelace <ada@example.invalid> 5\nBob, \"the\" Builder <bob@example.invalid> 2\nnot committed yet 1\n")
        let ages = try CommandLineTests.run(["list", "--count", "--group-by", "age", "--today", now, "--json"], in: root)
        #expect(ages.output == #"{"not committed yet":1,"less than a week":2,"a year or more":5}"# + "\n")
        let grouped = try CommandLineTests.run(["list", "--group-by", "age", "--today", now, "c.py", "d.py"], in: root)
        #expect(grouped.output.hasPrefix("not committed yet (1 match):\nd.py:1:3: todo: TODO (not committed yet)\n\nless than a week (2 matches):\nc.py:1:3:"),
            "\(grouped.output)")
    }

    @Test func groupByOwnerReadsTheOwnerWrittenInTheMarker() throws {
        let root = try CommandLineTests.tree(["a.py": "# TODO(alice): a\n# TODO(@bob, #1): b\n# FIXME(alice, 2999-01-01): c\n# HACK: d\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let counted = try CommandLineTests.run(["list", "--count", "--group-by", "owner"], in: root)
        #expect(counted.output == "alice 2\nbob 1\nno owner 1\n")
        let grouped = try CommandLineTests.run(["list", "--group-by", "owner", "--format", "csv"], in: root)
        #expect(try Self.csvRecords(grouped.output).map { $0[1] } == ["line", "1", "3", "2", "4"])
    }

    @Test func groupingAndCountingRefuseTheDocumentFormats() throws {
        let root = try CommandLineTests.tree(Self.files)
        defer { try? FileManager.default.removeItem(at: root) }
        for arguments in [["--count", "--format", "sarif"], ["--group-by", "rule", "--format", "junit"], ["--count", "--format", "github"]] {
            let refused = try CommandLineTests.run(["list"] + arguments, in: root)
            #expect(refused.status == 2, "\(arguments)")
            #expect(refused.errors.contains("writes text, json, csv or markdown"), "\(refused.errors)")
        }
    }

    // MARK: csv

    /// The records of RFC 4180 text: fields separated by commas, records by CRLF (a lone LF is accepted), a quoted
    /// field may hold commas, line ends and doubled quotes. Fails on a quote inside an unquoted field.
    static func csvRecords(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var characters = Array(text.unicodeScalars)[...]
        var quoted = false
        var atFieldStart = true
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" {
                        characters.removeFirst()
                        field.unicodeScalars.append("\"")
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(character)
                }
                continue
            }
            switch character {
            case "\"":
                try #require(atFieldStart, "a quote inside an unquoted field", sourceLocation: sourceLocation)
                quoted = true
                atFieldStart = false
            case ",":
                record.append(field)
                field = ""
                atFieldStart = true
            case "\r":
                try #require(characters.first == "\n", "a CR without LF", sourceLocation: sourceLocation)
            case "\n":
                record.append(field)
                records.append(record)
                (record, field, atFieldStart) = ([], "", true)
            default:
                field.unicodeScalars.append(character)
                atFieldStart = false
            }
        }
        try #require(!quoted, "an unterminated quoted field", sourceLocation: sourceLocation)
        if !field.isEmpty || !record.isEmpty { records.append(record + [field]) }
        return records
    }

    /// A rule that matches awkward text: commas, quotes, a pipe, backticks, Markdown syntax, a tab.
    static let awkwardConfig = #"{ "rules": [ { "name": "awkward", "regex": "NOTE\\([^)]*\\)" } ] }"#
    static let awkwardText = "x = 1  # NOTE(a, \"b\" | `c` *d* [e] <g>\tz)\n"

    @Test func csvReadsBackAsTheMatchesJSONGives() throws {
        let root = try CommandLineTests.tree([".highlights.json": Self.awkwardConfig, "a b.py": Self.awkwardText + "# NOTE(plain)\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let csv = try CommandLineTests.run(["list", "--format", "csv"], in: root)
        #expect(csv.status == 0)
        #expect(csv.output.hasSuffix("\r\n"))
        let records = try Self.csvRecords(csv.output)
        let json = try CommandLineTests.run(["list", "--format", "json"], in: root)
        let expected = json.output.split(separator: "\n").compactMap { line -> [String]? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return ["path", "line", "column", "rule", "text"].map { "\(object[$0] ?? "")" }
        }
        #expect(records == [["path", "line", "column", "rule", "text"]] + expected)
        #expect(records.dropFirst().first?[4] == "NOTE(a, \"b\" | `c` *d* [e] <g>\tz)")
        #expect(records.dropFirst().first?[3] == "awkward")
        // No match: the header alone.
        let empty = try CommandLineTests.run(["list", "--format", "csv", "--rule", "todo"], in: root)
        #expect(empty.output == "path,line,column,rule,text\r\n")
    }

    @Test func csvWithBlameHasItsFourColumns() throws {
        let root = try CommandLineTests.tree(["a.py": "# TODO: one\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        try BlameTests.git(["init", "-q", "-b", "main"], in: root)
        try BlameTests.git(["add", "-A"], in: root, as: BlameTests.bob)
        try BlameTests.git(["commit", "-qm", "one"], in: root, as: BlameTests.bob)
        try BlameTests.write("# TODO: one\n# FIXME: two\n", to: "a.py", in: root)
        let csv = try CommandLineTests.run(["list", "--format", "csv", "--blame"], in: root)
        let records = try Self.csvRecords(csv.output)
        let oracle = try BlameTests.oracle(path: "a.py", line: 1, root: root)
        #expect(records == [
            ["path", "line", "column", "rule", "text", "author", "email", "date", "commit"],
            ["./a.py", "1", "3", "todo", "TODO", "Bob, \"the\" Builder", "bob@example.invalid", "2025-06-01T08:00:00-05:30", oracle["commit"] ?? ""],
            ["./a.py", "2", "3", "fixme", "FIXME", "", "", "", String(repeating: "0", count: 40)],
        ])
    }

    // MARK: markdown

    @Test func markdownEscapesWhatWouldBreakTheTableAndLinksEachLine() throws {
        let root = try CommandLineTests.tree([".highlights.json": Self.awkwardConfig, "dir (1)/a b.py": Self.awkwardText])
        defer { try? FileManager.default.removeItem(at: root) }
        let markdown = try CommandLineTests.run(["list", "--format", "markdown"], in: root)
        #expect(markdown.output == """
            | location | rule | text |
            | --- | --- | --- |
            | [dir (1)/a b.py:1:10](dir%20%281%29/a%20b.py#L1) | awkward | NOTE(a, "b" \\| \\`c\\` \\*d\\* \\[e\\] \\<g\\> z) |

            """)
        // Every cell of every row has the header's number of unescaped pipes.
        for line in markdown.output.split(separator: "\n") {
            let pipes = line.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count
            #expect(pipes == 4, "\(line)")
        }
        let none = try CommandLineTests.run(["list", "--format", "markdown", "--rule", "todo"], in: root)
        #expect(none.output == "No matches.\n")
    }
}
