// Skipping quickly over bytes that cannot start a literal match.
//
// When the automaton is in its start state, no match is in progress, and the
// next match must contain certain bytes at certain places. A prefilter finds
// the next place faster than stepping the automaton byte by byte:
//
// - a single word: the rarest of its bytes (by a rough frequency table of
//   source text; both cases for a folded letter), found with a memchr-style
//   scan that tests eight bytes at a time with the "has a zero byte" bit trick
//   on `UInt64` words; the match would start `offset` bytes before it;
// - one to three distinct first bytes: the same scan for those bytes;
// - more first bytes, when they are rare in typical text: a loop over a
//   256-entry table, unrolled by four. Its iterations do not depend on each
//   other, unlike the automaton's steps (each a load that depends on the
//   previous one), so it is several times faster than the automaton over
//   bytes that leave the start state alone;
// - otherwise none: when first bytes are common, leaving the automaton's loop
//   for the table's at every stop costs more than it saves.
//
//     text   . . . . x . . . . . . . . y . .
//                    ^ candidate        ^ candidate        (x, y are first bytes)

/// Finds the next position where a literal match could start.
struct LiteralPrefilter: Sendable {
    /// How to look for candidates.
    enum Scan: Sendable {
        /// Any of up to three bytes (repeated to fill), `offset` bytes after the start of a match.
        case bytes(UInt8, UInt8, UInt8, offset: Int)
        /// Any byte marked in `firstBytes`.
        case table
    }

    let scan: Scan
    /// `firstBytes[b] != 0` when a match can start with `b`.
    let firstBytes: [UInt8]

    /// Chooses a prefilter for matches whose first byte is in `firstBytes`; `singleWord` gives the byte sets of a lone word, position by position.
    init?(firstBytes: [Bool], singleWord: [[UInt8]]?) {
        self.firstBytes = firstBytes.map { $0 ? 1 : 0 }
        if let singleWord {
            var bestOffset = 0
            var bestScore = Double.infinity
            for (offset, bytes) in singleWord.enumerated() where bytes.count <= 3 {
                let score = bytes.reduce(0) { $0 + ByteFrequency.estimatedPercentage(of: $1) }
                if score < bestScore {
                    bestScore = score
                    bestOffset = offset
                }
            }
            if bestScore.isFinite, let bytes = singleWord.indices.contains(bestOffset) ? singleWord[bestOffset] : nil,
               let first = bytes.first {
                scan = .bytes(first, bytes.count > 1 ? bytes[1] : first, bytes.last ?? first, offset: bestOffset)
                return
            }
        }
        var bytes: [UInt8] = []
        var estimatedFrequency = 0.0
        for value in 0..<256 where firstBytes[value] {
            let byte = UInt8(truncatingIfNeeded: value)
            bytes.append(byte)
            estimatedFrequency += ByteFrequency.estimatedPercentage(of: byte)
        }
        if let first = bytes.first, bytes.count <= 3 {
            scan = .bytes(first, bytes.count > 1 ? bytes[1] : first, bytes.last ?? first, offset: 0)
        } else if estimatedFrequency <= Self.maximumTableFrequency {
            scan = .table
        } else {
            return nil
        }
    }

    /// Above this estimated share of first bytes (in percent), the table loop stops so often that stepping the automaton is faster.
    static let maximumTableFrequency = 12.0

    /// The first position in `utf8Offset..<startLimit` where a match could start, or nil.
    ///
    /// - Complexity: O(n) in the bytes skipped: eight bytes per step for a byte scan, four per step for the table.
    @inline(__always)
    func firstCandidate(
        in text: UnsafeBufferPointer<UInt8>, from utf8Offset: Int, startLimit: Int, firstBytes table: UnsafeBufferPointer<UInt8>
    ) -> Int? {
        switch scan {
        case .bytes(let a, let b, let c, let offset):
            let end = min(text.count, startLimit &+ offset)
            guard let hit = ByteScan.first(in: text, from: utf8Offset &+ offset, to: end, a, b, c) else { return nil }
            return hit &- offset
        case .table:
            var position = utf8Offset
            while startLimit &- position >= 4 {
                let found = table[Int(text[position])] | table[Int(text[position &+ 1])]
                    | table[Int(text[position &+ 2])] | table[Int(text[position &+ 3])]
                if found != 0 { break }
                position &+= 4
            }
            while position < startLimit {
                if table[Int(text[position])] != 0 { return position }
                position &+= 1
            }
            return nil
        }
    }
}

/// A memchr-style scan for up to three bytes, eight bytes at a time.
enum ByteScan {
    private static let lowBits: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Marks the zero bytes of `word`; the lowest marked byte is always a true zero.
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- lowBits) & ~word & highBits
    }

    /// The first position in `utf8Offset..<utf8EndOffset` holding `a`, `b` or `c` (repeat a byte to look for fewer).
    ///
    /// - Complexity: O(n), eight bytes per step.
    @inline(__always)
    static func first(
        in text: UnsafeBufferPointer<UInt8>, from utf8Offset: Int, to utf8EndOffset: Int, _ a: UInt8, _ b: UInt8, _ c: UInt8
    ) -> Int? {
        let end = min(utf8EndOffset, text.count)
        var position = max(utf8Offset, 0)
        guard position < end, let base = text.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        let splatA = UInt64(a) &* lowBits
        let splatB = UInt64(b) &* lowBits
        let splatC = UInt64(c) &* lowBits
        while end &- position >= 8 {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            let found = zeroBytes(word ^ splatA) | zeroBytes(word ^ splatB) | zeroBytes(word ^ splatC)
            if found != 0 {
                return position &+ (found.trailingZeroBitCount &>> 3)
            }
            position &+= 8
        }
        while position < end {
            let byte = text[position]
            if byte == a || byte == b || byte == c { return position }
            position &+= 1
        }
        return nil
    }
}

/// A rough byte frequency of source code and prose, used only to pick the rarest byte of a lone word.
enum ByteFrequency {
    /// The estimated share of `byte` in typical text, in percent.
    static func estimatedPercentage(of byte: UInt8) -> Double {
        switch byte {
        case 0x20: return 14
        case UInt8(ascii: "e"): return 7
        case UInt8(ascii: "t"), UInt8(ascii: "a"), UInt8(ascii: "o"), UInt8(ascii: "i"), UInt8(ascii: "n"),
             UInt8(ascii: "s"), UInt8(ascii: "r"):
            return 4
        case UInt8(ascii: "l"), UInt8(ascii: "c"), UInt8(ascii: "d"), UInt8(ascii: "u"), 0x0A:
            return 2.5
        case UInt8(ascii: "q"), UInt8(ascii: "z"), UInt8(ascii: "j"), UInt8(ascii: "x"):
            return 0.2
        case UInt8(ascii: "a")...UInt8(ascii: "z"):
            return 1.2
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ";"),
             UInt8(ascii: "="), UInt8(ascii: "\""), UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: ":"):
            return 1
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return 0.5
        case 0x80...0xFF:
            return 0.2
        default:
            return 0.1
        }
    }
}
