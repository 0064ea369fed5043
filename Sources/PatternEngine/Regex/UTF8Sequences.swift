// Turning a set of scalars into UTF-8 byte-range sequences.
//
// A scalar range is split until each piece is a product of byte ranges, e.g.
//
//     U+0000...U+07FF  ->  [00-7F]
//                          [C2-DF][80-BF]
//     U+0800...U+FFFF  ->  [E0][A0-BF][80-BF]
//                          [E1-EC][80-BF][80-BF]   (and so on)
//
// First the range is split where the encoded length changes (after U+007F,
// U+07FF, U+FFFF); then, for each continuation position, where the low bits
// are not aligned to a full block. Once neither split applies, the scalars of
// the piece are exactly the byte-wise product of the encodings of its ends.
// Sequences come out sorted, and two sequences are equal up to some position
// and disjoint there, which lets the compiler merge them into a trie.

/// An inclusive range of byte values.
struct ByteRange: Hashable, Sendable {
    var low: UInt8
    var high: UInt8

    /// Whether `byte` lies in the range.
    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        byte >= low && byte <= high
    }
}

/// Splits scalar sets into UTF-8 byte-range sequences.
enum UTF8Sequences {
    /// The byte-range sequences (each one to four ranges long) whose union encodes exactly `set`.
    ///
    /// - Complexity: O(r) sequences for r ranges (at most a few dozen sequences per range).
    static func sequences(for set: ScalarSet) -> [[ByteRange]] {
        var result: [[ByteRange]] = []
        for range in set.ranges {
            split(range.lowerBound, range.upperBound, into: &result)
        }
        return result
    }

    private static func split(_ low: UInt32, _ high: UInt32, into result: inout [[ByteRange]]) {
        // Later pieces are pushed first so that pieces come out in ascending order.
        var stack: [(UInt32, UInt32)] = [(low, high)]
        pieces: while let (start, end) = stack.popLast() {
            for boundary: UInt32 in [0x7F, 0x7FF, 0xFFFF] where start <= boundary && end > boundary {
                stack.append((boundary + 1, end))
                stack.append((start, boundary))
                continue pieces
            }
            if end < 0x80 {
                result.append([ByteRange(low: UInt8(truncatingIfNeeded: start), high: UInt8(truncatingIfNeeded: end))])
                continue
            }
            let length = encodedLength(start)
            for continuationCount in 1..<length {
                let mask: UInt32 = (1 << (6 * UInt32(continuationCount))) - 1
                guard start & ~mask != end & ~mask else { continue }
                if start & mask != 0 {
                    stack.append(((start | mask) + 1, end))
                    stack.append((start, start | mask))
                    continue pieces
                }
                if end & mask != mask {
                    stack.append((end & ~mask, end))
                    stack.append((start, (end & ~mask) - 1))
                    continue pieces
                }
            }
            let lowBytes = encode(start)
            let highBytes = encode(end)
            var sequence: [ByteRange] = []
            for index in 0..<min(lowBytes.count, highBytes.count) {
                sequence.append(ByteRange(low: lowBytes[index], high: highBytes[index]))
            }
            result.append(sequence)
        }
    }

    /// The number of UTF-8 bytes that encode `value`.
    static func encodedLength(_ value: UInt32) -> Int {
        switch value {
        case 0..<0x80: return 1
        case 0x80..<0x800: return 2
        case 0x800..<0x1_0000: return 3
        default: return 4
        }
    }

    /// The UTF-8 encoding of a scalar value (which must not be a surrogate).
    static func encode(_ value: UInt32) -> [UInt8] {
        switch encodedLength(value) {
        case 1:
            return [UInt8(truncatingIfNeeded: value)]
        case 2:
            return [UInt8(truncatingIfNeeded: 0xC0 | (value >> 6)), UInt8(truncatingIfNeeded: 0x80 | (value & 0x3F))]
        case 3:
            return [
                UInt8(truncatingIfNeeded: 0xE0 | (value >> 12)), UInt8(truncatingIfNeeded: 0x80 | ((value >> 6) & 0x3F)),
                UInt8(truncatingIfNeeded: 0x80 | (value & 0x3F)),
            ]
        default:
            return [
                UInt8(truncatingIfNeeded: 0xF0 | (value >> 18)), UInt8(truncatingIfNeeded: 0x80 | ((value >> 12) & 0x3F)),
                UInt8(truncatingIfNeeded: 0x80 | ((value >> 6) & 0x3F)), UInt8(truncatingIfNeeded: 0x80 | (value & 0x3F)),
            ]
        }
    }
}
