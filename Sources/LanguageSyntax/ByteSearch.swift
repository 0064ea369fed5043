// Finding the next of a few bytes, sixteen bytes at a time.
//
// The line scanner spends most of its time skipping bytes that cannot start anything: in code,
// every byte that opens no comment or string (`#`, `"`, `'` in Python); between lines, every
// byte that is not a line terminator. Up to eight such bytes are compared with sixteen bytes of
// text at once (one vector compare per byte, or-ed together); the first lane that matched is
// read from the mask as two words, without a reduction that does not inline.
//
//     text   | l | e | t |   | s |   | = |   | " | a | " |   | # |   | n | o |
//     == "   | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 1 | 0 | 1 | 0 | 0 | 0 | 0 | 0 |
//     == #   | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 1 | 0 | 0 | 0 |
//     or     first non-zero lane: 8

/// A set of at most eight bytes to search for; more fall back to a table, a byte at a time.
struct ByteSearch: Sendable, Hashable {
    /// Each byte of the set repeated in every lane; unused slots repeat the first byte.
    private let needles: [SIMD16<UInt8>]
    /// Whether each byte is in the set.
    private let table: [Bool]
    /// Whether the set is small enough for the vector compares.
    private let vectorised: Bool

    /// The search for `bytes` (duplicates are ignored).
    init(_ bytes: [UInt8]) {
        var table = [Bool](repeating: false, count: 256)
        var distinct: [UInt8] = []
        for byte in bytes where !table[Int(byte)] {
            table[Int(byte)] = true
            distinct.append(byte)
        }
        self.table = table
        vectorised = !distinct.isEmpty && distinct.count <= 8
        needles = distinct.prefix(8).map { SIMD16<UInt8>(repeating: $0) }
    }

    /// The offset of the first byte of the set in `bytes[start..<end]`, or `end` when there is none.
    ///
    /// - Complexity: O(n), sixteen bytes per step for a set of at most eight bytes.
    @inline(__always)
    func firstIndex(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var position = start
        if vectorised, let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            let zero = SIMD16<UInt8>(repeating: 0)
            needles.withUnsafeBufferPointer { needles in
                while end - position >= 16 {
                    let chunk = raw.loadUnaligned(fromByteOffset: position, as: SIMD16<UInt8>.self)
                    var hits = zero
                    for needle in needles { hits |= zero.replacing(with: 0xFF, where: chunk .== needle) }
                    if let lane = Self.firstHit(hits) {
                        position += lane
                        return
                    }
                    position += 16
                }
            }
            if end - position >= 16 { return position }
        }
        table.withUnsafeBufferPointer { table in
            while position < end, !table[Int(bytes[position])] { position += 1 }
        }
        return position
    }

    /// The offset of the first line terminator (`\n` or `\r`) in `bytes[start..<end]`, or `end` when there is none:
    /// as a `ByteSearch` of the two, with the bytes as constants, so that a line costs no lookup of a shared search
    /// (a global's check and a retain of its arrays), which a text of short lines pays at every line.
    ///
    /// - Complexity: O(n), sixteen bytes per step.
    @inline(__always)
    static func firstLineTerminator(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var position = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            let zero = SIMD16<UInt8>(repeating: 0)
            while end - position >= 16 {
                let chunk = raw.loadUnaligned(fromByteOffset: position, as: SIMD16<UInt8>.self)
                let hits = zero.replacing(with: 0xFF, where: (chunk .== SIMD16(repeating: 0x0A)) .| (chunk .== SIMD16(repeating: 0x0D)))
                if let lane = firstHit(hits) { return position + lane }
                position += 16
            }
        }
        while position < end, bytes[position] != 0x0A, bytes[position] != 0x0D { position += 1 }
        return position
    }

    /// The first lane of `hits` (0xFF or 0 each) that is set, read from the lanes as two words, without a reduction
    /// that does not inline; nil when none is.
    @inline(__always)
    private static func firstHit(_ hits: SIMD16<UInt8>) -> Int? {
        let (low, high) = withUnsafeBytes(of: hits) { lanes in
            (UInt64(littleEndian: lanes.loadUnaligned(as: UInt64.self)),
             UInt64(littleEndian: lanes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
        if low != 0 { return low.trailingZeroBitCount / 8 }
        if high != 0 { return 8 + high.trailingZeroBitCount / 8 }
        return nil
    }
}
