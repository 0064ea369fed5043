// Line feeds and UTF-16/UTF-32 units counted sixty-four bytes a step (see AVX2.swift for the rules of this module).
//
// TextIndex's TextPoint walker hands over its runs of blocks without a `\r`:
// per block two loads, `vpcmpeqb` against `\r` and `\n`, the line feeds as
// one 64-bit mask counted with `popcnt`, and, where a block is not all ASCII,
// its continuation bytes (no unit) and four-byte leads (a second UTF-16 unit)
// counted the same way. Any other step (shorter than a block, or with a `\r`)
// takes the block's four masks and counts the lanes it needs.
//
// The line index's scanner (LineIndex+Scanning.swift) hands over its runs of
// blocks without a `\r` or a non-ASCII byte, and takes back where their lines start.

import Swift

extension AVX2 {
    /// Counts over the sixty-four-byte blocks from `from` while a whole block fits before `end` and holds no `\r`:
    /// where the run stopped, its line feeds, continuation bytes and four-byte leads, and the start of its last block
    /// with a line feed and of its last block that is not all ASCII (-1 for none).
    ///
    /// Call only where `VectorUnit` reports AVX2.
    @inline(never)
    public static func lineRun(text: UnsafeRawPointer, from: Int, end: Int) -> (
        position: Int, lineFeeds: Int, continuations: Int, fourByteLeads: Int, lastBlockWithLineFeed: Int,
        lastNonASCIIBlock: Int
    ) {
        var position = from
        var lineFeeds = 0
        var continuations = 0
        var fourByteLeads = 0
        var lastBlockWithLineFeed = -1
        var lastNonASCIIBlock = -1
        #if arch(x86_64)
        let carriageReturn = Bytes32(repeating: 0x0D)
        let lineFeed = Bytes32(repeating: 0x0A)
        let fourByteLead = Bytes32(repeating: 0xF0)
        while end &- position >= 64 {
            let low = Bytes32(loading: text, at: position)
            let high = Bytes32(loading: text, at: position &+ 32)
            guard ((low .== carriageReturn) | (high .== carriageReturn)).isZero else { break }
            let feeds = Self.mask(low .== lineFeed, high .== lineFeed)
            if feeds != 0 {
                lineFeeds &+= feeds.nonzeroBitCount
                lastBlockWithLineFeed = position
            }
            if (low | high).highBits != 0 {
                continuations &+= Self.mask(low.continuationLanes, high.continuationLanes).nonzeroBitCount
                fourByteLeads &+= Self.mask(low .>= fourByteLead, high .>= fourByteLead).nonzeroBitCount
                lastNonASCIIBlock = position
            }
            position &+= 64
        }
        #endif
        return (position, lineFeeds, continuations, fourByteLeads, lastBlockWithLineFeed, lastNonASCIIBlock)
    }
}

extension AVX2 {
    /// The sixty-four bytes at `text + position` as masks, bit `i` for byte `position + i`: line feeds, carriage
    /// returns, continuation bytes and four-byte leads. The walker's steps that are shorter than a block, or hold a
    /// `\r`, are counted from these.
    ///
    /// Call only where `VectorUnit` reports AVX2.
    @inline(never)
    public static func lineMasks(text: UnsafeRawPointer, at position: Int) -> (
        lineFeeds: UInt64, carriageReturns: UInt64, continuations: UInt64, fourByteLeads: UInt64
    ) {
        #if arch(x86_64)
        let low = Bytes32(loading: text, at: position)
        let high = Bytes32(loading: text, at: position &+ 32)
        let lineFeed = Bytes32(repeating: 0x0A)
        let carriageReturn = Bytes32(repeating: 0x0D)
        let fourByteLead = Bytes32(repeating: 0xF0)
        return (
            mask(low .== lineFeed, high .== lineFeed), mask(low .== carriageReturn, high .== carriageReturn),
            mask(low.continuationLanes, high.continuationLanes), mask(low .>= fourByteLead, high .>= fourByteLead))
        #else
        return (0, 0, 0, 0)
        #endif
    }
}

extension AVX2 {
    /// The line starts in the plain sixty-four-byte blocks from `from` (blocks without `\r` and without a byte at or
    /// above 0x80, so that their line feeds are all their line breaks and every byte a character of its own): writes
    /// the offset just past each `\n` to `starts` and stops at the first block that is not plain, where a whole block
    /// no longer fits before `end`, or where `starts` has room for fewer than sixty-four more. Returns where it
    /// stopped and how many starts it wrote. The line index takes plain runs this way.
    ///
    /// Call only where `VectorUnit` reports AVX2.
    @inline(never)
    public static func plainLineStarts(
        text: UnsafeRawPointer, from: Int, end: Int, starts: UnsafeMutablePointer<Int>, capacity: Int
    ) -> (position: Int, count: Int) {
        var position = from
        var count = 0
        #if arch(x86_64)
        let carriageReturn = Bytes32(repeating: 0x0D)
        let lineFeed = Bytes32(repeating: 0x0A)
        while end &- position >= 64, capacity &- count >= 64 {
            let low = Bytes32(loading: text, at: position)
            let high = Bytes32(loading: text, at: position &+ 32)
            guard (low | high).highBits == 0, ((low .== carriageReturn) | (high .== carriageReturn)).isZero else { break }
            var lineFeeds = mask(low .== lineFeed, high .== lineFeed)
            while lineFeeds != 0 {
                starts[count] = position &+ lineFeeds.trailingZeroBitCount &+ 1
                count &+= 1
                lineFeeds &= lineFeeds &- 1
            }
            position &+= 64
        }
        #endif
        return (position, count)
    }
}

#if arch(x86_64)
extension AVX2 {
    /// Two blocks' lanes (0xFF or 0) as one 64-bit mask, `low` in bits 0-31.
    @inline(__always)
    static func mask(_ low: Bytes32, _ high: Bytes32) -> UInt64 {
        UInt64(low.highBits) | UInt64(high.highBits) &<< 32
    }
}
#endif
