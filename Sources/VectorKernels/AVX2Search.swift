// Loops that need AVX2, built for it, and run only where the CPU has it.
//
// Swift's SIMD types have no byte shuffle (`pshufb`), the instruction behind
// Teddy, the search for a few literals through nibble tables. This module
// reaches it through `Builtin`'s LLVM intrinsics (`-parse-stdlib`), and is
// compiled with `-mavx2` (Package.swift): every instruction in it may be an
// AVX2 one, so it holds nothing that could run before the CPU check
// (PatternEngine's `VectorUnit`) or be shared with the rest of the program:
// no globals, no generic code of its own, only loops over raw pointers. On
// other architectures the entry points exist and report that they do nothing.
//
//     tables, per prefix position k: lo_k[n] = buckets whose word at k can have low nibble n, hi_k likewise
//     text  . . p a r s e Q u e r y . . .     lane i, byte c at p+i+k:   lo_k[c & 15] & hi_k[c >> 4]
//     lane i passes when, for some bucket, every position k < positions keeps its bit (an AND over k)
//
// Thirty-two starts per step: per position one unaligned load, two shuffles,
// a shift and three ANDs; a `vptest` skips blocks where no lane passes.

import Swift

/// The block searches: nibble tables (Teddy) and the packed pair.
public enum AVX2Search {
    /// The bytes of one position's tables: 32 for the low nibbles, then 32 for the high ones (each 16 twice).
    public static var nibbleTableBytesPerPosition: Int { 64 }
    /// The most prefix positions the tables may describe.
    public static var maximumNibblePositions: Int { 3 }

    /// Whether this build has the search (x86-64; whether the CPU runs it is `VectorUnit`'s question).
    public static var isCompiled: Bool {
        #if arch(x86_64)
        return true
        #else
        return false
        #endif
    }

    /// The first block start `p` in `from`, `from + 32`, … up to `lastBlock` where some of the 32 starts
    /// `p..<p+32` passes the tables, and those starts as bits (bit `i` for `p + i`); `(p, 0)` with
    /// `p > lastBlock` when none does.
    ///
    /// Reads `text[p ..< p + 32 + positions - 1]` for each block: the caller keeps `lastBlock + 31 + positions - 1`
    /// inside the text. `tables` holds `positions * bytesPerPosition` bytes, `positions` is 1, 2 or 3.
    /// Call only where `VectorUnit` reports AVX2.
    @inline(never)
    public static func firstNibbleBlock(
        text: UnsafeRawPointer, from: Int, lastBlock: Int, tables: UnsafeRawPointer, positions: Int
    ) -> (start: Int, lanes: UInt32) {
        #if arch(x86_64)
        switch positions {
        case 1: return search(text, from, lastBlock, tables, count: 1)
        case 2: return search(text, from, lastBlock, tables, count: 2)
        default: return search(text, from, lastBlock, tables, count: 3)
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
/// Thirty-two bytes in one AVX2 register, with the few operations the search needs, each one instruction.
///
/// Written on `Builtin` vectors rather than `SIMD32<UInt8>`: in a module built with `-parse-stdlib`, the standard
/// library's generic SIMD operators are compiled lane by lane through the stack.
private struct Bytes32 {
    var value: Builtin.Vec32xInt8

    @inline(__always)
    init(_ value: Builtin.Vec32xInt8) { self.value = value }

    /// Thirty-two bytes from `pointer + offset`, unaligned.
    @inline(__always)
    init(loading pointer: UnsafeRawPointer, at offset: Int) {
        value = pointer.loadUnaligned(fromByteOffset: offset, as: SIMD32<UInt8>.self)._storage._value
    }

    /// `byte` in every lane.
    @inline(__always)
    init(repeating byte: UInt8) { value = SIMD32<UInt8>(repeating: byte)._storage._value }

    @inline(__always)
    static func & (a: Bytes32, b: Bytes32) -> Bytes32 { Bytes32(Builtin.and_Vec32xInt8(a.value, b.value)) }

    @inline(__always)
    static func | (a: Bytes32, b: Bytes32) -> Bytes32 { Bytes32(Builtin.or_Vec32xInt8(a.value, b.value)) }

    /// 0xFF where the lanes are equal, 0 elsewhere.
    @inline(__always)
    static func .== (a: Bytes32, b: Bytes32) -> Bytes32 {
        Bytes32(Builtin.sext_Vec32xInt1_Vec32xInt8(Builtin.cmp_eq_Vec32xInt8(a.value, b.value)))
    }

    /// Each byte's low nibble.
    @inline(__always)
    var lowNibbles: Bytes32 { self & Bytes32(Self.nibbleMask) }

    /// Each byte's high nibble (a 16-bit shift, then the mask: AVX2 has no byte shift).
    @inline(__always)
    var highNibbles: Bytes32 {
        let words: Builtin.Vec16xInt16 = Builtin.bitcast_Vec32xInt8_Vec16xInt16(value)
        let shifted: Builtin.Vec16xInt16 = Builtin.int_x86_avx2_psrli_w(words, Int32(4)._value)
        return Bytes32(Builtin.bitcast_Vec16xInt16_Vec32xInt8(shifted)).lowNibbles
    }

    /// `vpshufb`: per 128-bit half, lane `i` takes lane `index[i] & 15` of this table's half (0 when bit 7 is set).
    @inline(__always)
    func shuffled(by index: Bytes32) -> Bytes32 { Bytes32(Builtin.int_x86_avx2_pshuf_b(value, index.value)) }

    /// Whether every lane is zero (`vptest`).
    @inline(__always)
    var isZero: Bool {
        let vector: Builtin.Vec4xInt64 = Builtin.bitcast_Vec32xInt8_Vec4xInt64(value)
        return Int32(Builtin.int_x86_avx_ptestz_256(vector, vector)) != 0
    }

    /// Bit `i` set where lane `i` is not zero (`vpcmpeqb`, `vpmovmskb`).
    @inline(__always)
    var nonZeroLanes: UInt32 {
        let equal: Builtin.Vec32xInt8 = Builtin.sext_Vec32xInt1_Vec32xInt8(
            Builtin.cmp_eq_Vec32xInt8(value, Builtin.zeroInitializer()))
        return ~UInt32(bitPattern: Int32(Builtin.int_x86_avx2_pmovmskb(equal)))
    }

    /// 0x0F in every lane.
    @inline(__always)
    private static var nibbleMask: Builtin.Vec32xInt8 { Bytes32(repeating: 0x0F).value }
}

extension AVX2Search {
    @inline(__always)
    private static func search(
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
