// Loops that need AVX-512 (F and BW), built for it, and run only where the CPU has it.
//
// The same rules as VectorKernels (AVX2.swift): `Builtin` vectors with LLVM's
// x86 intrinsics (`-parse-stdlib`), no globals, no generic code of its own,
// only loops over raw pointers, results as tuples. This module is compiled
// with `-mavx512f -mavx512bw -mavx512vl -mpopcnt` (Package.swift), which is
// why it is not part of VectorKernels: that one runs on CPUs with AVX2 only,
// and nothing here may run before the CPU check (CPUFeatures' `VectorUnit`).
// On other architectures the entry points exist and do nothing.
//
// - AVX512+UTF8.swift: the UTF-8 check (WorkspaceScan), sixty-four bytes a step.
// - `firstPairBlock` and `firstNibbleBlock` below: the packed pair and Teddy (PatternEngine's
//   FingerprintSearch), sixty-four starts a step, with the AVX2 loops' contracts.

import Swift

/// The AVX-512 loops. Call none of them unless `VectorUnit.hasAVX512`.
public enum AVX512 {
    /// Whether this build has the loops (x86-64; whether the CPU runs them is `VectorUnit`'s question).
    public static var isCompiled: Bool {
        #if arch(x86_64)
        return true
        #else
        return false
        #endif
    }
}

#if arch(x86_64)
/// Sixty-four bytes in one AVX-512 register, with the few operations the UTF-8 check needs. Compares give a mask,
/// bit `i` for lane `i`.
struct Bytes64 {
    var value: Builtin.Vec64xInt8

    @inline(__always)
    init(_ value: Builtin.Vec64xInt8) { self.value = value }

    /// Sixty-four bytes from `pointer + offset`, unaligned.
    @inline(__always)
    init(loading pointer: UnsafeRawPointer, at offset: Int) {
        value = pointer.loadUnaligned(fromByteOffset: offset, as: SIMD64<UInt8>.self)._storage._value
    }

    /// Thirty-two bytes from `pointer + offset` in the low half, zeros in the high half.
    @inline(__always)
    init(loadingHalf pointer: UnsafeRawPointer, at offset: Int) {
        let half = pointer.loadUnaligned(fromByteOffset: offset, as: SIMD32<UInt8>.self)
        value = SIMD64<UInt8>(lowHalf: half, highHalf: SIMD32(repeating: 0))._storage._value
    }

    /// `byte` in every lane.
    @inline(__always)
    init(repeating byte: UInt8) { value = SIMD64<UInt8>(repeating: byte)._storage._value }

    /// `table` in each 128-bit quarter: a table for `shuffled(by:)`.
    @inline(__always)
    init(table: SIMD16<UInt8>) {
        let half = SIMD32<UInt8>(lowHalf: table, highHalf: table)
        value = SIMD64<UInt8>(lowHalf: half, highHalf: half)._storage._value
    }

    @inline(__always)
    static func & (a: Bytes64, b: Bytes64) -> Bytes64 { Bytes64(Builtin.and_Vec64xInt8(a.value, b.value)) }

    @inline(__always)
    static func | (a: Bytes64, b: Bytes64) -> Bytes64 { Bytes64(Builtin.or_Vec64xInt8(a.value, b.value)) }

    @inline(__always)
    static func ^ (a: Bytes64, b: Bytes64) -> Bytes64 { Bytes64(Builtin.xor_Vec64xInt8(a.value, b.value)) }

    /// Bit `i` set where lane `i` of `a` and `b` are equal (`vpcmpeqb` into a mask register).
    @inline(__always)
    static func .== (a: Bytes64, b: Bytes64) -> UInt64 {
        UInt64(bitPattern: Int64(Builtin.bitcast_Vec64xInt1_Int64(Builtin.cmp_eq_Vec64xInt8(a.value, b.value))))
    }

    /// The lane-wise minimum of unsigned bytes (`vpminub`).
    @inline(__always)
    func minimum(_ other: Bytes64) -> Bytes64 { Bytes64(Builtin.int_umin_Vec64xInt8(value, other.value)) }

    /// Lane-wise wrapping addition (`vpaddb`).
    @inline(__always)
    static func &+ (a: Bytes64, b: Bytes64) -> Bytes64 { Bytes64(Builtin.add_Vec64xInt8(a.value, b.value)) }

    /// The sum of the sixty-four lanes as unsigned bytes (`vpsadbw` against zero, then the eight partial sums).
    @inline(__always)
    var sumOfLanes: Int {
        var sums: Builtin.Vec8xInt64 = Builtin.int_x86_avx512_psad_bw_512(value, Builtin.zeroInitializer())
        return withUnsafeBytes(of: &sums) { raw in
            var total: UInt64 = 0
            for index in 0..<8 { total &+= raw.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self) }
            return Int(truncatingIfNeeded: total)
        }
    }

    /// Bit `i` set where lane `i` is a UTF-8 continuation byte (0x80...0xBF: below -64 as a signed byte).
    @inline(__always)
    var continuationLanes: UInt64 {
        UInt64(bitPattern: Int64(Builtin.bitcast_Vec64xInt1_Int64(
            Builtin.cmp_slt_Vec64xInt8(value, Bytes64(repeating: 0xC0).value))))
    }

    /// Bit `i` set where bit 7 of lane `i` is (`vpmovb2m`).
    @inline(__always)
    var highBits: UInt64 {
        UInt64(bitPattern: Int64(Builtin.bitcast_Vec64xInt1_Int64(
            Builtin.cmp_slt_Vec64xInt8(value, Builtin.zeroInitializer()))))
    }

    /// Bit `i` set where lane `i` is not zero.
    @inline(__always)
    var nonZeroLanes: UInt64 {
        UInt64(bitPattern: Int64(Builtin.bitcast_Vec64xInt1_Int64(
            Builtin.cmp_ne_Vec64xInt8(value, Builtin.zeroInitializer()))))
    }

    /// Each byte's low nibble.
    @inline(__always)
    var lowNibbles: Bytes64 { self & Bytes64(repeating: 0x0F) }

    /// Each byte's high nibble (a 16-bit shift, then the mask: there is no byte shift).
    @inline(__always)
    var highNibbles: Bytes64 {
        let words: Builtin.Vec32xInt16 = Builtin.bitcast_Vec64xInt8_Vec32xInt16(value)
        let shifted: Builtin.Vec32xInt16 = Builtin.int_x86_avx512_psrli_w_512(words, Int32(4)._value)
        return Bytes64(Builtin.bitcast_Vec32xInt16_Vec64xInt8(shifted)).lowNibbles
    }

    /// `vpshufb`: per 128-bit quarter, lane `i` takes lane `index[i] & 15` of this table's quarter (0 when bit 7 is
    /// set).
    @inline(__always)
    func shuffled(by index: Bytes64) -> Bytes64 { Bytes64(Builtin.int_x86_avx512_pshuf_b_512(value, index.value)) }

    /// Lane-wise subtraction of unsigned bytes that stops at zero (`vpsubusb`).
    @inline(__always)
    func subtractingToZero(_ other: Bytes64) -> Bytes64 { Bytes64(Builtin.int_usub_sat_Vec64xInt8(value, other.value)) }
}
#endif

extension AVX512 {
    /// `AVX2.firstPairBlock`'s search and contract, sixty-four starts a step.
    @inline(never)
    public static func firstPairBlock(
        text: UnsafeRawPointer, from: Int, lastBlock: Int,
        first: (offset: Int, mask: UInt8, byte: UInt8), second: (offset: Int, mask: UInt8, byte: UInt8)
    ) -> (start: Int, lanes: UInt32) {
        #if arch(x86_64)
        let firstMask = Bytes64(repeating: first.mask)
        let firstByte = Bytes64(repeating: first.byte)
        let secondMask = Bytes64(repeating: second.mask)
        let secondByte = Bytes64(repeating: second.byte)
        var position = from
        while lastBlock &- position >= 32 {
            let a = Bytes64(loading: text, at: position &+ first.offset)
            let b = Bytes64(loading: text, at: position &+ second.offset)
            let lanes = ((a | firstMask) .== firstByte) & ((b | secondMask) .== secondByte)
            if lanes != 0 {
                let low = UInt32(truncatingIfNeeded: lanes)
                return low != 0 ? (position, low) : (position &+ 32, UInt32(truncatingIfNeeded: lanes &>> 32))
            }
            position &+= 64
        }
        // One block of thirty-two left at most, in a vector's low half (what its high lanes show is not looked at).
        if position <= lastBlock {
            let a = Bytes64(loadingHalf: text, at: position &+ first.offset)
            let b = Bytes64(loadingHalf: text, at: position &+ second.offset)
            let lanes = UInt32(truncatingIfNeeded: ((a | firstMask) .== firstByte) & ((b | secondMask) .== secondByte))
            if lanes != 0 { return (position, lanes) }
            position &+= 32
        }
        return (position, 0)
        #else
        return (lastBlock &+ 1, 0)
        #endif
    }
}

extension AVX512 {
    /// `AVX2.firstNibbleBlock`'s search (Teddy) and contract, on the same tables, sixty-four starts a step.
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
}

#if arch(x86_64)
extension AVX512 {
    @inline(__always)
    private static func nibbleSearch(
        _ text: UnsafeRawPointer, _ from: Int, _ lastBlock: Int, _ tables: UnsafeRawPointer, count: Int
    ) -> (start: Int, lanes: UInt32) {
        // Each position's tables are 64 bytes, the low nibbles' 16 twice, then the high nibbles' (AVX2's layout).
        func table(_ position: Int, high: Bool) -> Bytes64 {
            Bytes64(table: tables.loadUnaligned(fromByteOffset: position &* 64 &+ (high ? 32 : 0), as: SIMD16<UInt8>.self))
        }
        let low0 = table(0, high: false), high0 = table(0, high: true)
        let low1 = count > 1 ? table(1, high: false) : low0, high1 = count > 1 ? table(1, high: true) : high0
        let low2 = count > 2 ? table(2, high: false) : low0, high2 = count > 2 ? table(2, high: true) : high0
        /// Per lane of the sixty-four (or thirty-two: `half`) starts at `position`, the buckets that pass every position.
        @inline(__always)
        func passing(_ position: Int, half: Bool) -> UInt64 {
            @inline(__always)
            func buckets(_ at: Int, _ low: Bytes64, _ high: Bytes64) -> Bytes64 {
                let bytes = half ? Bytes64(loadingHalf: text, at: at) : Bytes64(loading: text, at: at)
                return low.shuffled(by: bytes.lowNibbles) & high.shuffled(by: bytes.highNibbles)
            }
            var found = buckets(position, low0, high0)
            if count > 1 { found = found & buckets(position &+ 1, low1, high1) }
            if count > 2 { found = found & buckets(position &+ 2, low2, high2) }
            return found.nonZeroLanes
        }
        var position = from
        while lastBlock &- position >= 32 {
            let lanes = passing(position, half: false)
            if lanes != 0 {
                let low = UInt32(truncatingIfNeeded: lanes)
                return low != 0 ? (position, low) : (position &+ 32, UInt32(truncatingIfNeeded: lanes &>> 32))
            }
            position &+= 64
        }
        // One block of thirty-two left at most, in a vector's low half (its high lanes are not looked at).
        if position <= lastBlock {
            let lanes = UInt32(truncatingIfNeeded: passing(position, half: true))
            if lanes != 0 { return (position, lanes) }
            position &+= 32
        }
        return (position, 0)
    }
}
#endif
