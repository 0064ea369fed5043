// Loops that need AVX2, built for it, and run only where the CPU has it.
//
// Swift's SIMD types have no byte shuffle (`pshufb`), the instruction behind
// Teddy, and the standard library's SIMD operators, compiled in this module,
// go lane by lane. So the loops here are written on `Builtin` vectors, LLVM's
// own, with its x86 intrinsics (`-parse-stdlib`), and the module is compiled
// with `-mavx2 -mpopcnt` (Package.swift): every instruction in it may be an
// AVX2 one, so it holds nothing that could run before the CPU check
// (CPUFeatures' `VectorUnit`) or be shared with the rest of the program: no
// globals, no generic code of its own, only loops over raw pointers, results
// as tuples. On other architectures the entry points exist and do nothing.
//
// - AVX2+Search.swift: Teddy's nibble tables and the packed pair (PatternEngine);
// - AVX2+UTF8.swift: the UTF-8 check (WorkspaceScan);
// - AVX2+Lines.swift: line feeds and UTF-16/32 units counted (TextIndex).
// - AVX2+JSON.swift: the end of a JSON string's plain bytes (JSONValue).

import Swift

/// The AVX2 loops. Call none of them unless `VectorUnit.hasAVX2`.
public enum AVX2 {
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
/// Thirty-two bytes in one AVX2 register, with the few operations the loops need, each one or two instructions.
///
/// Written on `Builtin` vectors rather than `SIMD32<UInt8>`: in a module built with `-parse-stdlib`, the standard
/// library's generic SIMD operators are compiled lane by lane through the stack.
struct Bytes32 {
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

    /// Stores the thirty-two bytes at `pointer + offset`, unaligned.
    @inline(__always)
    func store(to pointer: UnsafeMutableRawPointer, at offset: Int) {
        pointer.storeBytes(of: value, toByteOffset: offset, as: Builtin.Vec32xInt8.self)
    }

    /// `table` in each 128-bit half: a table for `shuffled(by:)`.
    @inline(__always)
    init(table: SIMD16<UInt8>) { value = SIMD32<UInt8>(lowHalf: table, highHalf: table)._storage._value }

    @inline(__always)
    static func & (a: Bytes32, b: Bytes32) -> Bytes32 { Bytes32(Builtin.and_Vec32xInt8(a.value, b.value)) }

    @inline(__always)
    static func | (a: Bytes32, b: Bytes32) -> Bytes32 { Bytes32(Builtin.or_Vec32xInt8(a.value, b.value)) }

    /// 0xFF where the lanes are equal, 0 elsewhere.
    @inline(__always)
    static func .== (a: Bytes32, b: Bytes32) -> Bytes32 {
        Bytes32(Builtin.sext_Vec32xInt1_Vec32xInt8(Builtin.cmp_eq_Vec32xInt8(a.value, b.value)))
    }

    @inline(__always)
    static func ^ (a: Bytes32, b: Bytes32) -> Bytes32 { Bytes32(Builtin.xor_Vec32xInt8(a.value, b.value)) }

    /// 0xFF where `a >= b` as unsigned bytes, 0 elsewhere.
    @inline(__always)
    static func .>= (a: Bytes32, b: Bytes32) -> Bytes32 {
        Bytes32(Builtin.sext_Vec32xInt1_Vec32xInt8(Builtin.cmp_uge_Vec32xInt8(a.value, b.value)))
    }

    /// 0xFF where `a < b` as unsigned bytes, 0 elsewhere.
    @inline(__always)
    static func .< (a: Bytes32, b: Bytes32) -> Bytes32 {
        Bytes32(Builtin.sext_Vec32xInt1_Vec32xInt8(Builtin.cmp_ult_Vec32xInt8(a.value, b.value)))
    }

    /// 0xFF where `a > b` as unsigned bytes, 0 elsewhere.
    @inline(__always)
    static func .> (a: Bytes32, b: Bytes32) -> Bytes32 {
        Bytes32(Builtin.sext_Vec32xInt1_Vec32xInt8(Builtin.cmp_ugt_Vec32xInt8(a.value, b.value)))
    }

    /// 0xFF where the byte is a UTF-8 continuation byte (0x80...0xBF: below -64 as a signed byte), 0 elsewhere.
    @inline(__always)
    var continuationLanes: Bytes32 {
        Bytes32(Builtin.sext_Vec32xInt1_Vec32xInt8(Builtin.cmp_slt_Vec32xInt8(value, Bytes32(repeating: 0xC0).value)))
    }

    /// Bit `i` set where bit 7 of lane `i` is (`vpmovmskb`).
    @inline(__always)
    var highBits: UInt32 { UInt32(bitPattern: Int32(Builtin.int_x86_avx2_pmovmskb(value))) }

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

    /// Lane-wise wrapping subtraction (`vpsubb`).
    @inline(__always)
    static func &- (a: Bytes32, b: Bytes32) -> Bytes32 { Bytes32(Builtin.sub_Vec32xInt8(a.value, b.value)) }

    /// Lane-wise subtraction of unsigned bytes that stops at zero (`vpsubusb`).
    @inline(__always)
    func subtractingToZero(_ other: Bytes32) -> Bytes32 { Bytes32(Builtin.int_usub_sat_Vec32xInt8(value, other.value)) }

    /// The sum of the thirty-two lanes as unsigned bytes (`vpsadbw` against zero, then the four partial sums).
    @inline(__always)
    var sumOfLanes: Int {
        var sums: Builtin.Vec4xInt64 = Builtin.int_x86_avx2_psad_bw(value, Builtin.zeroInitializer())
        return withUnsafeBytes(of: &sums) { raw in
            Int(truncatingIfNeeded: raw.loadUnaligned(as: UInt64.self) &+ raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                &+ raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self) &+ raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
        }
    }

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
#endif
