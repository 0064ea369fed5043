// The UTF-8 check, thirty-two bytes a step (see AVX2.swift for the rules of this module).
//
// The same rules as WorkspaceScan's sixteen-byte check (a continuation byte
// exactly where a lead in the three bytes before wants one, no byte that
// never occurs, the narrow second-byte ranges of 0xE0, 0xED, 0xF0 and 0xF4),
// found another way: each byte is judged with the byte before it by three
// table lookups (`vpshufb`). The byte before's high nibble, its low nibble and
// the byte's own high nibble each give the ways, a bit each, the pair could
// be wrong (a lead then no continuation, ASCII then a continuation, two
// continuations, an overlong, surrogate or too large second byte), and the
// pair is wrong where a bit is in all three. Two continuations in a row are right
// exactly where the byte two before is 0xE0 or above or the one three before
// 0xF0 or above: their bit (0x80) is XORed with that, so it clears where
// expected and sets where a lead's third or fourth byte is missing. A byte
// that never occurs (0xC0, 0xC1, 0xF5 and above) shows as a lead the byte
// after it does not fit; the last byte checked has none after it in a block,
// and is tested on its own.
//
// Text goes in segments of up to 16 groups of 128 bytes. A first loop over a
// segment reads each group once (four loads), and only notes whether it is
// all ASCII (one bit a group, with no branch: where non-ASCII groups fall at
// random, a branch on each was mispredicted at every other one); the groups
// that are not are then checked block by block while the segment is still in
// the core's first cache, and an ASCII group that follows one must not start
// where a lead wants a continuation. `validUTF8Counts` also counts, while the
// bytes are in registers, what TextIndex's walk would count (line feeds,
// and continuation bytes and four-byte leads in the groups that are not
// ASCII, lane by lane, summed at each segment's end), notes any `\r`, and
// leaves a landmark at each segment's end: a streamed chunk is then checked
// and measured in one pass, and its matches are located from the landmark
// before each rather than by a walk from the one before.
//
// Where the CPU has AVX-512BW, VectorKernels512's AVX512+UTF8.swift does the
// same, sixty-four bytes a step, with the same results.

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

extension AVX2 {
    /// The UTF-8 check's three nibble tables: for the byte before, the ways a pair can be wrong that its high nibble
    /// allows and those its low nibble allows, and for the byte, those its high nibble allows (a bit each; bit 7, two
    /// continuations, is the one the third and fourth bytes' test flips). VectorKernels512's check reads them too.
    @inlinable
    public static var utf8PairTables: (firstHigh: SIMD16<UInt8>, firstLow: SIMD16<UInt8>, secondHigh: SIMD16<UInt8>) {
        // A lane keeps the bits all three tables allow for its byte and the one before it.
        let tooShort: UInt8 = 0x01  // a lead, then no continuation byte
        let tooLong: UInt8 = 0x02  // ASCII, then a continuation byte
        let overlong2: UInt8 = 0x04  // 0xC0 or 0xC1, then a continuation byte
        let overlong3: UInt8 = 0x08  // 0xE0, then 0x80...0x9F
        let surrogate: UInt8 = 0x10  // 0xED, then 0xA0...0xBF
        let lowAfterF0: UInt8 = 0x20  // 0xF0 (overlong) or 0xF5...0xFF (too large), then 0x80...0x8F
        let tooLarge: UInt8 = 0x40  // 0xF4...0xFF, then 0x90...0xBF
        let twoContinuations: UInt8 = 0x80  // a continuation byte, then another
        let ascii = tooLong, continuation = twoContinuations
        let firstHigh = SIMD16<UInt8>(
            ascii, ascii, ascii, ascii, ascii, ascii, ascii, ascii,
            continuation, continuation, continuation, continuation,
            tooShort | overlong2, tooShort, tooShort | overlong3 | surrogate, tooShort | lowAfterF0 | tooLarge)
        let every = tooShort | tooLong | twoContinuations
        let f5Up = every | lowAfterF0 | tooLarge  // the low nibbles of 0xF5...0xFF
        let firstLow = SIMD16<UInt8>(
            every | overlong2 | overlong3 | lowAfterF0, every | overlong2, every, every,
            every | tooLarge, f5Up, f5Up, f5Up, f5Up, f5Up, f5Up, f5Up, f5Up, f5Up | surrogate, f5Up, f5Up)
        let notContinuation = tooShort, anyContinuation = tooLong | twoContinuations | overlong2
        let secondHigh = SIMD16<UInt8>(
            notContinuation, notContinuation, notContinuation, notContinuation,
            notContinuation, notContinuation, notContinuation, notContinuation,
            anyContinuation | overlong3 | lowAfterF0, anyContinuation | overlong3 | tooLarge,
            anyContinuation | surrogate | tooLarge, anyContinuation | surrogate | tooLarge,
            notContinuation, notContinuation, notContinuation, notContinuation)
        return (firstHigh, firstLow, secondHigh)
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
        // A four-byte lead's high nibble.
        let fourByteLead = Bytes32(repeating: 0x0F)
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
            // The groups that are not all ASCII, block by block (each block reads the three bytes before it). Their
            // continuation bytes and four-byte leads are tallied lane by lane too (at most 64 blocks a segment).
            var errors = Bytes32(repeating: 0)
            var continuationTally = Bytes32(repeating: 0)
            var fourByteLeadTally = Bytes32(repeating: 0)
            var left = nonASCII
            while left != 0 {
                let start = segmentStart &+ left.trailingZeroBitCount &<< 7
                left &= left &- 1
                for block in 0..<4 {
                    let at = start &+ block &<< 5
                    let current = Bytes32(loading: text, at: at)
                    let high = current.highNibbles
                    errors = errors | blockErrors(text, at, high)
                    if counts {
                        continuationTally = continuationTally &- current.continuationLanes
                        fourByteLeadTally = fourByteLeadTally &- (high .== fourByteLead)
                    }
                }
            }
            guard errors.isZero else { return invalid }
            if counts && nonASCII != 0 {
                continuations &+= continuationTally.sumOfLanes
                fourByteLeads &+= fourByteLeadTally.sumOfLanes
            }
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
            let high = block.highNibbles
            guard blockErrors(text, position, high).isZero else { return invalid }
            if counts {
                lineFeeds &+= (block .== lineFeed).highBits.nonzeroBitCount
                returns = returns | (block .== carriageReturn)
                continuations &+= block.continuationLanes.highBits.nonzeroBitCount
                fourByteLeads &+= (high .== fourByteLead).highBits.nonzeroBitCount
            }
            position &+= 32
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

    /// Whether `byte` occurs nowhere in UTF-8.
    @inline(__always)
    private static func neverOccurs(_ byte: UInt8) -> Bool { byte == 0xC0 || byte == 0xC1 || byte >= 0xF5 }

    /// The lanes of the thirty-two bytes at `position` (`high`: their high nibbles) that break a rule they and the
    /// three bytes before them show: zero where none does.
    @inline(__always)
    private static func blockErrors(_ text: UnsafeRawPointer, _ position: Int, _ high: Bytes32) -> Bytes32 {
        let tables = utf8PairTables
        let firstHigh = Bytes32(table: tables.firstHigh)
        let firstLow = Bytes32(table: tables.firstLow)
        let secondHigh = Bytes32(table: tables.secondHigh)
        let before1 = Bytes32(loading: text, at: position &- 1)
        let found = firstHigh.shuffled(by: before1.highNibbles) & firstLow.shuffled(by: before1.lowNibbles)
            & secondHigh.shuffled(by: high)
        // Two bytes after a lead of three or four bytes, or three after a lead of four, a continuation must follow a
        // continuation: bit 7 is set there (0xE0 and above less 0x60, 0xF0 and above less 0x70, are 0x80 or more),
        // and the XOR clears the two continuations' bit where it is expected and sets it where it is missing.
        let before2 = Bytes32(loading: text, at: position &- 2)
        let before3 = Bytes32(loading: text, at: position &- 3)
        let thirdOrFourth = (before2.subtractingToZero(Bytes32(repeating: 0x60))
            | before3.subtractingToZero(Bytes32(repeating: 0x70))) & Bytes32(repeating: 0x80)
        return found ^ thirdOrFourth
    }
}
#endif
