import Testing

@testable import PatternEngine

/// `(?u)\b` asks one scalar's properties (`UnicodeClasses.isWordScalar`) instead of building every table, and must
/// answer as `(?u)\w`'s set does, for every scalar.
@Suite struct UnicodeWordTests {
    @Test func aBoundaryAndTheWordClassAgreeOnEveryScalar() {
        var disagreements: [UInt32] = []
        for value in UInt32(0)...0x10_FFFF where UnicodeClasses.isWordScalar(value) != UnicodeClasses.word.contains(value) {
            disagreements.append(value)
        }
        #expect(disagreements.isEmpty, "first: \(disagreements.prefix(5).map { String($0, radix: 16) })")
        // A few of each kind, so that the loop above cannot pass by answering no everywhere.
        for (value, isWord) in [(0x41, true), (0x5F, true), (0x2D, false), (0xE9, true), (0x3B1, true), (0x4E2D, true),
                                (0x301, true), (0x200D, true), (0x2014, false), (0x1F600, false), (0xD800, false)] as [(UInt32, Bool)] {
            #expect(UnicodeClasses.isWordScalar(value) == isWord, "U+\(String(value, radix: 16))")
        }
    }
}
