// Skipping quickly over bytes that cannot start a literal match.
//
// When the automaton is in its start state, no match is in progress, and the
// next match must begin with one of the words' first bytes. A prefilter finds
// the next such byte faster than stepping the automaton byte by byte:
//
// - one to three distinct bytes: a memchr-style scan that tests eight bytes at
//   a time with the classic "has a zero byte" bit trick on `UInt64` words;
// - more bytes, when they are rare in typical text: a loop over a 256-entry
//   table;
// - otherwise no prefilter: the automaton's own loop is as fast.

/// Finds the next position where a literal match could start.
enum LiteralPrefilter: Sendable {
    case oneByte(UInt8)
    case twoBytes(UInt8, UInt8)
    case threeBytes(UInt8, UInt8, UInt8)
    /// `table[b] != 0` when `b` can start a match.
    case table([UInt8])

    /// Chooses a prefilter for matches that start with one of `firstBytes`, or nil when none would pay off.
    static func make(firstBytes: [Bool]) -> LiteralPrefilter? {
        var bytes: [UInt8] = []
        var estimatedFrequency = 0.0
        for value in 0..<256 where firstBytes[value] {
            let byte = UInt8(truncatingIfNeeded: value)
            bytes.append(byte)
            estimatedFrequency += ByteFrequency.estimatedPercentage(of: byte)
        }
        switch bytes.count {
        case 0: return nil
        case 1: return .oneByte(bytes[0])
        case 2: return .twoBytes(bytes[0], bytes[1])
        case 3: return .threeBytes(bytes[0], bytes[1], bytes[2])
        default:
            // A table scan stops too often to beat the automaton when first bytes are common.
            guard estimatedFrequency <= 12 else { return nil }
            return .table(firstBytes.map { $0 ? 1 : 0 })
        }
    }

    /// The first position in `utf8Offset..<utf8EndOffset` whose byte can start a match, or nil.
    ///
    /// - Complexity: O(n) in the bytes skipped, about eight bytes per step for the byte scans.
    @inline(__always)
    func firstCandidate(in text: UnsafeBufferPointer<UInt8>, from utf8Offset: Int, to utf8EndOffset: Int) -> Int? {
        switch self {
        case .oneByte(let a):
            return ByteScan.first(in: text, from: utf8Offset, to: utf8EndOffset, a, a, a)
        case .twoBytes(let a, let b):
            return ByteScan.first(in: text, from: utf8Offset, to: utf8EndOffset, a, b, b)
        case .threeBytes(let a, let b, let c):
            return ByteScan.first(in: text, from: utf8Offset, to: utf8EndOffset, a, b, c)
        case .table(let table):
            return table.withUnsafeBufferPointer { table in
                var position = utf8Offset
                while position < utf8EndOffset {
                    if table[Int(text[position])] != 0 { return position }
                    position &+= 1
                }
                return nil
            }
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

/// A rough byte frequency of source code and prose, used only to decide whether a prefilter pays off.
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
        case UInt8(ascii: "a")...UInt8(ascii: "z"):
            return 1.2
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ";"),
             UInt8(ascii: "="), UInt8(ascii: "\""), UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: ":"):
            return 1
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return 0.4
        case 0x80...0xFF:
            return 0.2
        default:
            return 0.1
        }
    }
}
