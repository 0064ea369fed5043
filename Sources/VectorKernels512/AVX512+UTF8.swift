// The UTF-8 check, sixty-four bytes a step (see AVX512.swift for the rules of this module).
//
// The same check as VectorKernels' AVX2+UTF8.swift, which explains the rules
// and the three nibble tables, with the same contract and the same results:
// segments of up to 16 groups of 128 bytes (so the landmarks fall where the
// AVX2 loop's do), a first loop that reads each group once (two loads) and
// notes whether it is all ASCII, then the groups that are not, block by block,
// while the segment is in the first cache. The first loop counts the line
// feeds and looks for `\r` without a compare (a compare gives a mask, and
// turning masks back into lanes or counting them cost more there: on the
// machine measured, 12% and 9% of the ASCII rate); the continuation bytes and
// four-byte leads are counted with `popcnt` of the compares' masks. The bytes left
// after the segments (fewer than 128) go in one block of sixty-four and one of
// thirty-two (in the low half of a vector), to stop where the AVX2 loop stops.

import Swift
import VectorKernels

extension AVX512 {
    /// Checks the UTF-8 of `text[from..<count]`; returns where the caller should go on (a character's start, at most
    /// 34 bytes before `count`, every byte before it checked), or -1 when a byte breaks a rule: what
    /// `AVX2.validUTF8Prefix` returns.
    ///
    /// `from` is at least 3 and a character's start, and the bytes before it are valid: each block reads the three
    /// before it. Call only where `VectorUnit` reports AVX-512BW.
    @inline(never)
    public static func validUTF8Prefix(text: UnsafeRawPointer, from: Int, count: Int) -> Int {
        #if arch(x86_64)
        return checkSegments(text: text, from: from, count: count, counts: false, landmarks: nil).position
        #else
        return from
        #endif
    }

    /// The bytes of a full segment (16 groups of 128), as `AVX2.segmentBytes`.
    public static var segmentBytes: Int { 16 * 128 }

    /// Checks `text[from..<count]` and counts as `AVX2.validUTF8Counts` does, with the same results and landmarks.
    ///
    /// The same conditions as `validUTF8Prefix`. Call only where `VectorUnit` reports AVX-512BW.
    @inline(never)
    public static func validUTF8Counts(text: UnsafeRawPointer, from: Int, count: Int, landmarks: UnsafeMutablePointer<Int>? = nil) -> (
        position: Int, lineFeeds: Int, continuations: Int, fourByteLeads: Int, hasCarriageReturn: Bool, landmarkCount: Int
    ) {
        #if arch(x86_64)
        return checkSegments(text: text, from: from, count: count, counts: true, landmarks: landmarks)
        #else
        return (from, 0, 0, 0, false, 0)
        #endif
    }
}

#if arch(x86_64)
extension AVX512 {
    /// The loop behind `validUTF8Prefix` (`counts` false: only the check) and `validUTF8Counts`.
    @inline(__always)
    private static func checkSegments(
        text: UnsafeRawPointer, from: Int, count: Int, counts: Bool, landmarks: UnsafeMutablePointer<Int>?
    ) -> (position: Int, lineFeeds: Int, continuations: Int, fourByteLeads: Int, hasCarriageReturn: Bool, landmarkCount: Int) {
        let invalid = (-1, 0, 0, 0, false, 0)
        let bytes = text.assumingMemoryBound(to: UInt8.self)
        let lineFeed = Bytes64(repeating: 0x0A)
        let carriageReturn = Bytes64(repeating: 0x0D)
        // A four-byte lead's high nibble.
        let fourByteLead = Bytes64(repeating: 0x0F)
        var position = from
        var lineFeeds = 0
        var continuations = 0
        var fourByteLeads = 0
        var landmarkCount = 0
        var returns: UInt64 = 0
        while count &- position >= 128 {
            let segmentStart = position
            let groups = min(16, (count &- position) &>> 7)
            var nonASCII: UInt64 = 0
            // Without a compare: a byte XOR a line feed is zero exactly at a line feed, so its minimum with 1 is 1
            // elsewhere, and the tally counts the bytes that are not line feeds; the minimum of the bytes XOR `\r` has a
            // zero lane where one is. (A lane of the tally gains at most two a group: 32 a segment.)
            var others = Bytes64(repeating: 0)
            var returnsLeft = Bytes64(repeating: 0xFF)
            let one = Bytes64(repeating: 1)
            for group in 0..<groups {
                let a = Bytes64(loading: text, at: position)
                let b = Bytes64(loading: text, at: position &+ 64)
                if counts {
                    others = others &+ (a ^ lineFeed).minimum(one) &+ (b ^ lineFeed).minimum(one)
                    returnsLeft = returnsLeft.minimum((a ^ carriageReturn).minimum(b ^ carriageReturn))
                }
                nonASCII |= UInt64((a | b).highBits != 0 ? 1 : 0) &<< UInt64(group)
                position &+= 128
            }
            if counts {
                lineFeeds &+= groups &<< 7 &- others.sumOfLanes
                returns |= ~returnsLeft.nonZeroLanes
            }
            // The groups that are not all ASCII, block by block (each block reads the three bytes before it).
            var errors = Bytes64(repeating: 0)
            var left = nonASCII
            while left != 0 {
                let start = segmentStart &+ left.trailingZeroBitCount &<< 7
                left &= left &- 1
                for block in 0..<2 {
                    let at = start &+ block &<< 6
                    let current = Bytes64(loading: text, at: at)
                    let high = current.highNibbles
                    errors = errors | blockErrors(
                        current: current, high: high, before1: Bytes64(loading: text, at: at &- 1),
                        before2: Bytes64(loading: text, at: at &- 2), before3: Bytes64(loading: text, at: at &- 3))
                    if counts {
                        continuations &+= current.continuationLanes.nonzeroBitCount
                        fourByteLeads &+= (high .== fourByteLead).nonzeroBitCount
                    }
                }
            }
            guard errors.nonZeroLanes == 0 else { return invalid }
            // An ASCII group that follows one that is not (or starts the segment) must not start where a lead wants a
            // continuation; one that follows an ASCII group cannot.
            let taken: UInt64 = (1 &<< UInt64(groups)) &- 1
            var entries = ~nonASCII & (nonASCII &<< 1 | 1) & taken
            while entries != 0 {
                if wantsContinuation(bytes, at: segmentStart &+ entries.trailingZeroBitCount &<< 7) { return invalid }
                entries &= entries &- 1
            }
            if let landmarks {
                let slot = landmarks + landmarkCount &* 4
                slot[0] = position
                slot[1] = lineFeeds
                slot[2] = continuations
                slot[3] = fourByteLeads
                landmarkCount &+= 1
            }
        }
        // Fewer than 128 bytes: a block of sixty-four, then one of thirty-two in a vector's low half (its high lanes
        // are zeros, and what they show is not looked at), so that the loop stops where thirty-two at a time would.
        for width in [64, 32] where count &- position >= width {
            let lanes: UInt64 = width == 64 ? ~0 : 0xFFFF_FFFF
            func load(_ offset: Int) -> Bytes64 {
                width == 64 ? Bytes64(loading: text, at: offset) : Bytes64(loadingHalf: text, at: offset)
            }
            let block = load(position)
            let high = block.highNibbles
            let errors = blockErrors(
                current: block, high: high, before1: load(position &- 1), before2: load(position &- 2),
                before3: load(position &- 3))
            guard errors.nonZeroLanes & lanes == 0 else { return invalid }
            if counts {
                lineFeeds &+= ((block .== lineFeed) & lanes).nonzeroBitCount
                returns |= (block .== carriageReturn) & lanes
                continuations &+= (block.continuationLanes & lanes).nonzeroBitCount
                fourByteLeads &+= ((high .== fourByteLead) & lanes).nonzeroBitCount
            }
            position &+= width
        }
        // A byte that never occurs (0xC0, 0xC1, 0xF5 and above) is found by the byte after it, as a lead that byte
        // does not fit; the last byte checked has no byte after it in a block.
        if position > from, neverOccurs(bytes[position &- 1]) { return invalid }
        // A character that starts in the last three bytes and ends beyond them is the caller's to check and count:
        // its bytes (a lead and continuations, none a line break) come off the counts.
        if let start = characterCut(bytes, at: position) {
            if counts {
                if bytes[start] >= 0xF0 { fourByteLeads &-= 1 }
                continuations &-= position &- start &- 1
            }
            position = start
        }
        return (position, lineFeeds, continuations, fourByteLeads, returns != 0, landmarkCount)
    }
}
#endif

#if arch(x86_64)
extension AVX512 {
    /// Whether a lead in the three bytes before `position` wants a continuation byte at `position` or after.
    @inline(__always)
    private static func wantsContinuation(_ bytes: UnsafePointer<UInt8>, at position: Int) -> Bool {
        bytes[position &- 1] >= 0xC0 || bytes[position &- 2] >= 0xE0 || bytes[position &- 3] >= 0xF0
    }

    /// The start of the character that begins in the three bytes before `position` and ends after it, if one does.
    @inline(__always)
    private static func characterCut(_ bytes: UnsafePointer<UInt8>, at position: Int) -> Int? {
        var back = position &- 1
        while back >= position &- 3 {
            let lead = bytes[back]
            if lead >= 0xC0 {
                let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
                return back &+ length > position ? back : nil
            }
            back &-= 1
        }
        return nil
    }

    /// Whether `byte` occurs nowhere in UTF-8.
    @inline(__always)
    private static func neverOccurs(_ byte: UInt8) -> Bool { byte == 0xC0 || byte == 0xC1 || byte >= 0xF5 }

    /// The lanes of `current` (`high`: its high nibbles) that break a rule they and the three bytes before each
    /// (`before1`, `before2`, `before3`: the vectors one, two and three bytes back) show: zero where none does. The
    /// tables are AVX2+UTF8.swift's, where each bit is explained.
    @inline(__always)
    private static func blockErrors(current: Bytes64, high: Bytes64, before1: Bytes64, before2: Bytes64, before3: Bytes64)
        -> Bytes64
    {
        let tables = AVX2.utf8PairTables
        let firstHigh = Bytes64(table: tables.firstHigh)
        let firstLow = Bytes64(table: tables.firstLow)
        let secondHigh = Bytes64(table: tables.secondHigh)
        let found = firstHigh.shuffled(by: before1.highNibbles) & firstLow.shuffled(by: before1.lowNibbles)
            & secondHigh.shuffled(by: high)
        // Where a continuation must follow a continuation (two bytes after a lead of three or four bytes, three after
        // one of four), bit 7 is set, and the XOR clears the two continuations' bit or sets it where it is missing.
        let thirdOrFourth = (before2.subtractingToZero(Bytes64(repeating: 0x60))
            | before3.subtractingToZero(Bytes64(repeating: 0x70))) & Bytes64(repeating: 0x80)
        return found ^ thirdOrFourth
    }
}
#endif
