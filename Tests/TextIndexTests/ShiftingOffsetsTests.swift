import Seeded
import Testing

@testable import TextIndex

/// Offsets moved lazily read the same as an array moved eagerly, after any replacements.
@Suite struct ShiftingOffsetsTests {
    @Test(arguments: UInt64(1)...8)
    func randomReplacementsEqualAnArrayMovedAtOnce(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var reference = (0..<40).map { $0 * 10 }
        var offsets = ShiftingOffsets(reference)
        for step in 0..<400 {
            let lower = random.next(below: reference.count + 1)
            let upper = min(reference.count, lower + random.next(below: 4))
            let shift = random.next(below: 21) - 10
            let base = lower > 0 ? reference[lower - 1] : 0
            let inserted = (0..<random.next(below: 4)).map { base + $0 + 1 }
            reference.replaceSubrange(lower..<upper, with: inserted)
            for index in (lower + inserted.count)..<reference.count { reference[index] += shift }
            offsets.replaceSubrange(lower..<upper, with: inserted, shiftingFollowingBy: shift)
            #expect(offsets.values == reference, "seed \(seed), step \(step)")
            #expect(offsets == ShiftingOffsets(reference))
            if offsets.values != reference { return }
        }
    }

    /// Replacing by range of values finds the indices the offsets in the range had: those at or after its start and
    /// before its end, none when it holds none.
    @Test func replaceOffsetsInARange() {
        var offsets = ShiftingOffsets([0, 10, 20, 30, 40])
        // Offsets 10 and 20 lie in 5..<25: replaced by one, the rest moved by -3.
        #expect(offsets.replaceOffsets(in: 5..<25, with: [12], shiftingFollowingBy: -3) == 1..<3)
        #expect(offsets.values == [0, 12, 27, 37])
        // None lies in 13..<20: an insertion before 27 (now 27 + 4).
        #expect(offsets.replaceOffsets(in: 13..<20, with: [15], shiftingFollowingBy: 4) == 2..<2)
        #expect(offsets.values == [0, 12, 15, 31, 41])
        // The range's end is open: 41 stays, moved.
        #expect(offsets.replaceOffsets(in: 31..<41, with: [], shiftingFollowingBy: -10) == 3..<4)
        #expect(offsets.values == [0, 12, 15, 31])
    }

    @Test func lastIndexAtOrBefore() {
        var offsets = ShiftingOffsets([0, 10, 20, 30])
        offsets.replaceSubrange(1..<2, with: [12], shiftingFollowingBy: 2)
        #expect(offsets.values == [0, 12, 22, 32])
        #expect(offsets.lastIndex(atOrBefore: -1) == -1)
        #expect(offsets.lastIndex(atOrBefore: 0) == 0)
        #expect(offsets.lastIndex(atOrBefore: 21) == 1)
        #expect(offsets.lastIndex(atOrBefore: 22) == 2)
        #expect(offsets.lastIndex(atOrBefore: 100) == 3)
    }

    /// A search forward from a known index finds what a search of the whole array finds.
    @Test(arguments: UInt64(1)...8)
    func searchesFromAnIndexAgreeWithWholeSearches(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var values: [Int] = []
        for _ in 0..<random.next(below: 300) { values.append((values.last ?? 0) + random.next(below: 5)) }
        let offsets = ShiftingOffsets(values)
        var from = -1
        for _ in 0..<200 {
            let offset = random.next(below: (values.last ?? 0) + 10) - 3
            let whole = offsets.lastIndex(atOrBefore: offset)
            if from <= whole {
                #expect(offsets.lastIndex(atOrBefore: offset, from: from) == whole, "seed \(seed): \(offset) from \(from)")
            }
            from = whole
        }
    }

    /// A line's characters from the line already found equal the position's.
    @Test(arguments: UInt64(1)...8)
    func charactersOnAKnownLineAgreeWithPositions(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let pieces = ["a", "é", "😀", "中", "\n", "\r\n", "\r", " ", "xyz"]
        let text = Array((0..<random.next(below: 400)).map { _ in pieces[random.next(below: pieces.count)] }.joined().utf8)
        let index = LineIndex(utf8: text)
        var line = 0
        for offset in 0...text.count {
            line = index.line(containingUTF8Offset: offset, atOrAfter: line)
            #expect(line == index.line(containingUTF8Offset: offset))
            for encoding in [PositionEncoding.utf8, .utf16, .utf32] {
                #expect(index.character(ofUTF8Offset: offset, onLine: line, encoding: encoding)
                        == index.position(ofUTF8Offset: offset, encoding: encoding).character, "seed \(seed), offset \(offset)")
            }
        }
    }
}
