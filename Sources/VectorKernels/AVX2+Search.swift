// Teddy and the packed pair, thirty-two starts a step (see AVX2.swift for the rules of this module).
//
//     tables, per prefix position k: lo_k[n] = buckets whose word at k can have low nibble n, hi_k likewise
//     text  . . p a r s e Q u e r y . . .     lane i, byte c at p+i+k:   lo_k[c & 15] & hi_k[c >> 4]
//     lane i passes when, for some bucket, every position k < positions keeps its bit (an AND over k)
//
// Per position one unaligned load, two shuffles, a shift and three ANDs; a
// `vptest` skips blocks where no lane passes. The packed pair: per side a
// load, an OR and a comparison (PatternEngine's PackedPairSearch.swift).

import Swift

extension AVX2 {
    /// The bytes of one position's tables: 32 for the low nibbles, then 32 for the high ones (each 16 twice).
    public static var nibbleTableBytesPerPosition: Int { 64 }
    /// The most prefix positions the tables may describe.
    public static var maximumNibblePositions: Int { 3 }

    /// The first block start `p` in `from`, `from + 32`, … up to `lastBlock` where some of the 32 starts
    /// `p..<p+32` passes the tables, and those starts as bits (bit `i` for `p + i`); `(p, 0)` with
    /// `p > lastBlock` when none does.
    ///
    /// Reads `text[p ..< p + 32 + positions - 1]` for each block: the caller keeps `lastBlock + 31 + positions - 1`
    /// inside the text. `tables` holds `positions * nibbleTableBytesPerPosition` bytes, `positions` is 1, 2 or 3.
    /// Call only where `VectorUnit` reports AVX2.
    @inline(never)
    public static func firstNibbleBlock(
        text: UnsafeRawPointer, from: Int, lastBlock: Int, tables: UnsafeRawPointer, positions: Int
    ) -> (start: Int, lanes: UInt32) {
        #if arch(x86_64)
        switch positions {
        case 1: return nibbleSearch(text, from, lastBlock, tables, count: 1)
        case 2: return nibbleSearch(text, from, lastBlock, tables, count: 2)
        default: return nibbleSearch(text, from, lastBlock, tables, count: 3)
        }
        #else
        return (lastBlock &+ 1, 0)
        #endif
    }

    /// The packed-pair search (PatternEngine's PackedPairSearch.swift) thirty-two starts a step: the first block start
    /// `p` from `from` up to `lastBlock` where some start `s` in `p..<p+32` has `text[s + firstOffset] | firstMask ==
    /// firstByte` and the same for the second side, and those starts as bits; `(p, 0)` with `p > lastBlock` when none.
    ///
    /// Reads `text[p + offset ..< p + offset + 32]` for both offsets: the caller keeps them inside the text.
    /// Call only where `VectorUnit` reports AVX2.
    @inline(never)
    public static func firstPairBlock(
        text: UnsafeRawPointer, from: Int, lastBlock: Int,
        first: (offset: Int, mask: UInt8, byte: UInt8), second: (offset: Int, mask: UInt8, byte: UInt8)
    ) -> (start: Int, lanes: UInt32) {
        #if arch(x86_64)
        let firstMask = Bytes32(repeating: first.mask)
        let firstByte = Bytes32(repeating: first.byte)
        let secondMask = Bytes32(repeating: second.mask)
        let secondByte = Bytes32(repeating: second.byte)
        var position = from
        while position <= lastBlock {
            let a = Bytes32(loading: text, at: position &+ first.offset)
            let b = Bytes32(loading: text, at: position &+ second.offset)
            let lanes = ((a | firstMask) .== firstByte) & ((b | secondMask) .== secondByte)
            if !lanes.isZero { return (position, lanes.nonZeroLanes) }
            position &+= 32
        }
        return (position, 0)
        #else
        return (lastBlock &+ 1, 0)
        #endif
    }
}

#if arch(x86_64)
extension AVX2 {
    @inline(__always)
    private static func nibbleSearch(
        _ text: UnsafeRawPointer, _ from: Int, _ lastBlock: Int, _ tables: UnsafeRawPointer, count: Int
    ) -> (start: Int, lanes: UInt32) {
        let low0 = Bytes32(loading: tables, at: 0)
        let high0 = Bytes32(loading: tables, at: 32)
        let low1 = count > 1 ? Bytes32(loading: tables, at: 64) : low0
        let high1 = count > 1 ? Bytes32(loading: tables, at: 96) : high0
        let low2 = count > 2 ? Bytes32(loading: tables, at: 128) : low0
        let high2 = count > 2 ? Bytes32(loading: tables, at: 160) : high0
        var position = from
        while position <= lastBlock {
            var passing = buckets(text, position, low0, high0)
            if count > 1 { passing = passing & buckets(text, position &+ 1, low1, high1) }
            if count > 2 { passing = passing & buckets(text, position &+ 2, low2, high2) }
            if !passing.isZero { return (position, passing.nonZeroLanes) }
            position &+= 32
        }
        return (position, 0)
    }

    /// Per lane, the buckets whose word can have the byte at `text[at + lane]` at this table's position.
    @inline(__always)
    private static func buckets(_ text: UnsafeRawPointer, _ at: Int, _ low: Bytes32, _ high: Bytes32) -> Bytes32 {
        let bytes = Bytes32(loading: text, at: at)
        return low.shuffled(by: bytes.lowNibbles) & high.shuffled(by: bytes.highNibbles)
    }
}
#endif
