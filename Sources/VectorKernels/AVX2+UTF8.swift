// The UTF-8 check, thirty-two bytes a step (see AVX2.swift for the rules of this module).
//
// The same rules as WorkspaceScan's sixteen-byte check, on twice the lanes:
// a continuation byte exactly where a lead in the three bytes before wants
// one, no byte that never occurs, the narrow second-byte ranges of 0xE0,
// 0xED, 0xF0 and 0xF4.
//
// Text goes in segments of up to 16 groups of 128 bytes. A first loop over a
// segment reads each group once (four loads), and only notes whether it is
// all ASCII (one bit a group, with no branch: where non-ASCII groups fall at
// random, a branch on each was mispredicted at every other one); the groups
// that are not are then checked block by block while the segment is still in
// the core's first cache, and an ASCII group that follows one must not start
// where a lead wants a continuation. `validUTF8Counts` also counts, while the
// bytes are in registers, what TextIndex's walk would count (line feeds,
// lane by lane, summed at each segment's end; continuation bytes and
// four-byte leads, in the groups that are not ASCII), notes any `\r`, and
// leaves a landmark at each segment's end: a streamed chunk is then checked
// and measured in one pass, and its matches are located from the landmark
// before each rather than by a walk from the one before.

import Swift

extension AVX2 {
    /// Checks the UTF-8 of `text[from..<count]`; returns where the caller should go on (a character's start, at most
    /// 34 bytes before `count`, every byte before it checked), or -1 when a byte breaks a rule.
    ///
    /// `from` is at least 3 and a character's start, and the bytes before it are valid: each block reads the three
    /// before it. Call only where `VectorUnit` reports AVX2.
    @inline(never)
    public static func validUTF8Prefix(text: UnsafeRawPointer, from: Int, count: Int) -> Int {
        #if arch(x86_64)
        return checkSegments(text: text, from: from, count: count, counts: false, landmarks: nil).position
        #else
        return from
        #endif
    }

    /// The bytes of a full segment (16 groups of 128): `validUTF8Counts` leaves a landmark after each.
    public static var segmentBytes: Int { 16 * 128 }

    /// Checks `text[from..<count]` as `validUTF8Prefix` does, and counts in the bytes it checked (up to the returned
    /// position) the line feeds, continuation bytes and four-byte leads, and whether any byte is a `\r`; the position
    /// is -1 when a byte breaks a rule. With `landmarks` (room for `(count - from) / segmentBytes + 1` of them, four
    /// `Int`s each), it writes after each segment where it ends and the counts before it (from `from`), and returns
    /// how many it wrote.
    ///
    /// The same conditions as `validUTF8Prefix`. Call only where `VectorUnit` reports AVX2.
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
extension AVX2 {
    /// The loop behind `validUTF8Prefix` (`counts` false: only the check) and `validUTF8Counts`.
    @inline(__always)
    private static func checkSegments(
        text: UnsafeRawPointer, from: Int, count: Int, counts: Bool, landmarks: UnsafeMutablePointer<Int>?
    ) -> (position: Int, lineFeeds: Int, continuations: Int, fourByteLeads: Int, hasCarriageReturn: Bool, landmarkCount: Int) {
        let invalid = (-1, 0, 0, 0, false, 0)
        let bytes = text.assumingMemoryBound(to: UInt8.self)
        let lineFeed = Bytes32(repeating: 0x0A)
        let carriageReturn = Bytes32(repeating: 0x0D)
        let fourByteLead = Bytes32(repeating: 0xF0)
        var position = from
        var lineFeeds = 0
        var continuations = 0
        var fourByteLeads = 0
        var landmarkCount = 0
        var returns = Bytes32(repeating: 0)
        while count &- position >= 128 {
            let segmentStart = position
            // At most 16 groups, so that a landmark falls every 2 KiB (each group adds at most four to a lane of the line
            // feeds' tally, which must not wrap: 63 groups would be the most).
            let groups = min(16, (count &- position) &>> 7)
            var nonASCII: UInt64 = 0
            var tally = Bytes32(repeating: 0)
            for group in 0..<groups {
                let a = Bytes32(loading: text, at: position)
                let b = Bytes32(loading: text, at: position &+ 32)
                let c = Bytes32(loading: text, at: position &+ 64)
                let d = Bytes32(loading: text, at: position &+ 96)
                if counts {
                    // Each compare is 0xFF (minus one) where it holds.
                    tally = tally &- (a .== lineFeed) &- (b .== lineFeed) &- (c .== lineFeed) &- (d .== lineFeed)
                    returns = returns | (a .== carriageReturn) | (b .== carriageReturn) | (c .== carriageReturn)
                        | (d .== carriageReturn)
                }
                nonASCII |= UInt64((a | b | c | d).highBits != 0 ? 1 : 0) &<< UInt64(group)
                position &+= 128
            }
            if counts { lineFeeds &+= tally.sumOfLanes }
            // The groups that are not all ASCII, block by block (each block reads the three bytes before it).
            var errors = Bytes32(repeating: 0)
            var left = nonASCII
            while left != 0 {
                let start = segmentStart &+ left.trailingZeroBitCount &<< 7
                left &= left &- 1
                for block in 0..<4 {
                    let at = start &+ block &<< 5
                    let current = Bytes32(loading: text, at: at)
                    errors = errors | blockErrors(text, at, current)
                    if counts {
                        continuations &+= current.continuationLanes.highBits.nonzeroBitCount
                        fourByteLeads &+= (current .>= fourByteLead).highBits.nonzeroBitCount
                    }
                }
            }
            guard errors.isZero else { return invalid }
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
        // Fewer than 128 bytes: thirty-two at a time.
        while count &- position >= 32 {
            let block = Bytes32(loading: text, at: position)
            guard blockErrors(text, position, block).isZero else { return invalid }
            if counts {
                lineFeeds &+= (block .== lineFeed).highBits.nonzeroBitCount
                returns = returns | (block .== carriageReturn)
                continuations &+= block.continuationLanes.highBits.nonzeroBitCount
                fourByteLeads &+= (block .>= fourByteLead).highBits.nonzeroBitCount
            }
            position &+= 32
        }
        // A character that starts in the last three bytes and ends beyond them is the caller's to check and count:
        // its bytes (a lead and continuations, none a line break) come off the counts.
        if let start = characterCut(bytes, at: position) {
            if counts {
                if bytes[start] >= 0xF0 { fourByteLeads &-= 1 }
                continuations &-= position &- start &- 1
            }
            position = start
        }
        return (position, lineFeeds, continuations, fourByteLeads, !returns.isZero, landmarkCount)
    }
}
#endif

#if arch(x86_64)
extension AVX2 {
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

    /// The lanes of the thirty-two bytes at `position` (`current`) that break a rule they and the three bytes before
    /// them show: zero where none does.
    @inline(__always)
    private static func blockErrors(_ text: UnsafeRawPointer, _ position: Int, _ current: Bytes32) -> Bytes32 {
        let before1 = Bytes32(loading: text, at: position &- 1)
        let before2 = Bytes32(loading: text, at: position &- 2)
        let before3 = Bytes32(loading: text, at: position &- 3)
        let wantsContinuation = (before1 .>= Bytes32(repeating: 0xC0)) | (before2 .>= Bytes32(repeating: 0xE0))
            | (before3 .>= Bytes32(repeating: 0xF0))
        let never = (current .>= Bytes32(repeating: 0xF5))
            | ((current & Bytes32(repeating: 0xFE)) .== Bytes32(repeating: 0xC0))
        let outOfRange = ((before1 .== Bytes32(repeating: 0xE0)) & (current .< Bytes32(repeating: 0xA0)))
            | ((before1 .== Bytes32(repeating: 0xED)) & (current .> Bytes32(repeating: 0x9F)))
            | ((before1 .== Bytes32(repeating: 0xF0)) & (current .< Bytes32(repeating: 0x90)))
            | ((before1 .== Bytes32(repeating: 0xF4)) & (current .> Bytes32(repeating: 0x8F)))
        return (current.continuationLanes ^ wantsContinuation) | never | outOfRange
    }
}
#endif
