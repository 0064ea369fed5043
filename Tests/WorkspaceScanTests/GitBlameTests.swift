import Testing
@testable import WorkspaceScan

/// `git blame --porcelain` read from its bytes (no git run): commits described once and reused, the all-zero commit
/// of lines not committed yet, damaged output; what git's failures mean; line ranges; dates in the author's zone.
@Suite struct GitBlameTests {
    static let alice = String(repeating: "a", count: 40)
    static let bob = String(repeating: "b", count: 40)
    static let zero = String(repeating: "0", count: 40)

    /// Porcelain output as git writes it: Alice's commit for lines 1 and 2 (one group), Bob's for 3, Alice's again
    /// for 5 (a second group: no fields repeated but the file name), and line 4 not committed yet.
    static let porcelain = """
        \(alice) 1 1 2
        author Alice A
        author-mail <alice@example.com>
        author-time 1705309200
        author-tz +0100
        committer Alice A
        committer-mail <alice@example.com>
        committer-time 1705309200
        committer-tz +0100
        summary first
        boundary
        filename a.py
        \t# TODO one
        \(alice) 2 2
        \tx = 1
        \(bob) 3 3 1
        author Bob B
        author-mail <bob@example.com>
        author-time 1710000000
        author-tz -0530
        committer Bob B
        committer-mail <bob@example.com>
        committer-time 1710000000
        committer-tz -0530
        summary second | with a pipe
        previous \(alice) old name.py
        filename a.py
        \t# FIXME two
        \(zero) 4 4 1
        author Not Committed Yet
        author-mail <not.committed.yet>
        author-time 1750000000
        author-tz +0000
        committer Not Committed Yet
        committer-mail <not.committed.yet>
        committer-time 1750000000
        committer-tz +0000
        summary Version of a.py from a.py
        filename a.py
        \t# TODO new
        \(alice) 5 5 1
        filename a.py
        \t# HACK five

        """

    @Test func everyLineHasItsCommitOrIsNotCommitted() {
        let lines = BlamePorcelain.lines(of: Array(Self.porcelain.utf8))
        let alice = BlameCommit(id: Self.alice, author: "Alice A", email: "alice@example.com", authorTime: 1_705_309_200, authorTimeZone: "+0100")
        let bob = BlameCommit(id: Self.bob, author: "Bob B", email: "bob@example.com", authorTime: 1_710_000_000, authorTimeZone: "-0530")
        #expect(lines == [1: .committed(alice), 2: .committed(alice), 3: .committed(bob), 4: .uncommitted, 5: .committed(alice)])
        #expect(alice.shortID == "aaaaaaaa")
        #expect(alice.authorDate == "2024-01-15T10:00:00+01:00")
        #expect(bob.authorDate == "2024-03-09T10:30:00-05:30")
    }

    @Test func damagedOutputGivesNoBlameRatherThanAWrongOne() {
        // A commit whose fields never came, a header cut short and a stray line: no line gets a made-up author.
        let damaged = "\(Self.bob) 1 1 1\nfilename a.py\n\tline\n\(Self.alice) 2\n\tline\nnot a header\n\tline\n"
        #expect(BlamePorcelain.lines(of: Array(damaged.utf8)) == [:])
        #expect(BlamePorcelain.lines(of: []) == [:])
    }

    @Test func gitsFailuresAreToldApart() {
        func failed(_ errors: String) -> FileBlame {
            Blaming.fileBlame(from: .success(GitOutput(status: 128, output: [], errors: errors)))
        }
        #expect(failed("fatal: not a git repository (or any of the parent directories): .git") == .outsideRepository)
        #expect(failed("fatal: no such path 'b.py' in HEAD") == .untracked)
        #expect(failed("fatal: no such ref: HEAD") == .untracked)
        #expect(failed("fatal: file a.py has only 3 lines\nmore") == .failed(message: "fatal: file a.py has only 3 lines"))
        #expect(Blaming.fileBlame(from: .failure(GitUnavailable(reason: "git was not found on PATH")))
            == .gitUnavailable(reason: "git was not found on PATH"))
    }

    @Test func matchedLinesBecomeTheFewestRanges() {
        #expect(Blaming.lineRanges([9, 3, 4, 5, 4, 12, 13]) == [3...5, 9...9, 12...13])
        #expect(Blaming.lineRanges([]) == [])
    }

    @Test(arguments: [
        (Int64(0), "+0000", "1970-01-01T00:00:00+00:00"),
        (Int64(-1), "+0000", "1969-12-31T23:59:59+00:00"),
        (Int64(951_782_400), "+0000", "2000-02-29T00:00:00+00:00"),
        (Int64(1_705_309_200), "-0800", "2024-01-15T01:00:00-08:00"),
        (Int64(1_705_309_200), "+0545", "2024-01-15T14:45:00+05:45"),
        (Int64(4_102_444_800), "+0000", "2100-01-01T00:00:00+00:00"),
    ])
    func datesAreWrittenInTheAuthorsZone(seconds: Int64, zone: String, expected: String) {
        #expect(iso8601(secondsSince1970: seconds, offset: zone) == expected)
    }
}
