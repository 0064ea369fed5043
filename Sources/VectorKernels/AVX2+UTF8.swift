// The UTF-8 check, thirty-two bytes a step (see AVX2.swift for the rules of this module).
//
// The same rules as WorkspaceScan's sixteen-byte check, on twice the lanes:
// a continuation byte exactly where a lead in the three bytes before wants
// one, no byte that never occurs, the narrow second-byte ranges of 0xE0,
// 0xED, 0xF0 and 0xF4. ASCII goes 128 bytes a step (one `vpmovmskb` of four
// ORed loads), once no lead just before wants a continuation.
//
// `validUTF8Counts` checks the same way and, while the bytes are in
// registers, counts what TextIndex's walk would count (line feeds,
// continuation bytes, four-byte leads) and notes any `\r`: a streamed piece
// is then checked and measured in one pass, and walked only up to its last
// match.

import Swift

extension AVX2 {
    /// Checks the UTF-8 of `text[from..<count]` in blocks; returns where the caller should go on (a character's start,
    /// at most 34 bytes before `count`, every byte before it checked), or -1 when a byte breaks a rule.
    ///
    /// `from` is at least 3 and a character's start, and the bytes before it are valid: each block reads the three
    /// before it. Call only where `VectorUnit` reports AVX2.
    @inline(never)
    public static func validUTF8Prefix(text: UnsafeRawPointer, from: Int, count: Int) -> Int {
        #if arch(x86_64)
        let bytes = text.assumingMemoryBound(to: UInt8.self)
        var position = from
        while count &- position >= 32 {
            if count &- position >= 128 {
                let any = Bytes32(loading: text, at: position) | Bytes32(loading: text, at: position &+ 32)
                    | Bytes32(loading: text, at: position &+ 64) | Bytes32(loading: text, at: position &+ 96)
                if any.highBits == 0 {
                    // All ASCII: valid unless a lead just before wants a continuation.
                    if wantsContinuation(bytes, at: position) {
                        return -1
                    }
                    position &+= 128
                    continue
                }
            }
            guard blockIsValid(text, position) else { return -1 }
            position &+= 32
        }
        // A character that starts in the last three bytes and ends beyond them is the caller's to check.
        return characterCut(bytes, at: position) ?? position
        #else
        return from
        #endif
    }
}

extension AVX2 {
    /// Checks `text[from..<count]` as `validUTF8Prefix` does, and counts in the bytes it checked (up to the returned
    /// position) the line feeds, continuation bytes and four-byte leads, and whether any byte is a `\r`; the position
    /// is -1 when a byte breaks a rule.
    ///
    /// The same conditions as `validUTF8Prefix`. Call only where `VectorUnit` reports AVX2.
    @inline(never)
    public static func validUTF8Counts(text: UnsafeRawPointer, from: Int, count: Int) -> (
        position: Int, lineFeeds: Int, continuations: Int, fourByteLeads: Int, hasCarriageReturn: Bool
    ) {
        #if arch(x86_64)
        let bytes = text.assumingMemoryBound(to: UInt8.self)
        let lineFeed = Bytes32(repeating: 0x0A)
        let carriageReturn = Bytes32(repeating: 0x0D)
        let fourByteLead = Bytes32(repeating: 0xF0)
        var position = from
        var lineFeeds = 0
        var continuations = 0
        var fourByteLeads = 0
        var returns = Bytes32(repeating: 0)
        // ASCII steps count line feeds lane by lane (each compare is 0xFF, minus one, where it holds): at most four a
        // step, so the lanes are summed every 63 steps, before they could wrap.
        var tally = Bytes32(repeating: 0)
        var tallied = 0
        while count &- position >= 32 {
            if count &- position >= 128 {
                let a = Bytes32(loading: text, at: position)
                let b = Bytes32(loading: text, at: position &+ 32)
                let c = Bytes32(loading: text, at: position &+ 64)
                let d = Bytes32(loading: text, at: position &+ 96)
                if (a | b | c | d).highBits == 0 {
                    // All ASCII: valid unless a lead just before wants a continuation; only line breaks to count.
                    if wantsContinuation(bytes, at: position) {
                        return (-1, 0, 0, 0, false)
                    }
                    tally = tally &- (a .== lineFeed) &- (b .== lineFeed) &- (c .== lineFeed) &- (d .== lineFeed)
                    tallied &+= 1
                    if tallied == 63 {
                        lineFeeds &+= tally.sumOfLanes
                        tally = Bytes32(repeating: 0)
                        tallied = 0
                    }
                    returns = returns | (a .== carriageReturn) | (b .== carriageReturn) | (c .== carriageReturn)
                        | (d .== carriageReturn)
                    position &+= 128
                    continue
                }
            }
            guard blockIsValid(text, position) else { return (-1, 0, 0, 0, false) }
            let block = Bytes32(loading: text, at: position)
            lineFeeds &+= (block .== lineFeed).highBits.nonzeroBitCount
            returns = returns | (block .== carriageReturn)
            if block.highBits != 0 {
                continuations &+= block.continuationLanes.highBits.nonzeroBitCount
                fourByteLeads &+= (block .>= fourByteLead).highBits.nonzeroBitCount
            }
            position &+= 32
        }
        lineFeeds &+= tally.sumOfLanes
        // A character that starts in the last three bytes and ends beyond them is the caller's to check and count:
        // its bytes (a lead and continuations, none a line break) come off the counts.
        if let start = characterCut(bytes, at: position) {
            if bytes[start] >= 0xF0 { fourByteLeads &-= 1 }
            continuations &-= position &- start &- 1
            position = start
        }
        return (position, lineFeeds, continuations, fourByteLeads, !returns.isZero)
        #else
        return (from, 0, 0, 0, false)
        #endif
    }
}

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

    /// Whether the thirty-two bytes at `position` break no rule that they and the three bytes before them show.
    @inline(__always)
    private static func blockIsValid(_ text: UnsafeRawPointer, _ position: Int) -> Bool {
        let current = Bytes32(loading: text, at: position)
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
        return ((current.continuationLanes ^ wantsContinuation) | never | outOfRange).isZero
    }
}
#endif
