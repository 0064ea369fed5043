// Skipping quickly over bytes that cannot start a literal match.
//
// When the automaton is in its start state, no match is in progress, and the
// next match must contain certain bytes at certain places. A prefilter finds
// the next place faster than stepping the automaton byte by byte:
//
// - rare bytes: every word (every case variant) picks one position whose
//   bytes are rare in typical text (by a rough frequency table of source
//   text; both cases for a folded letter), greedily so that the words share
//   as few distinct bytes as possible, at most eight in all. The scan tests
//   sixteen bytes at a time against each of them with `SIMD16<UInt8>`
//   comparisons. A hit at `h` on byte `b` means a match may start from
//   `h - offset(b)` on, where `offset(b)` is the furthest position at which
//   some word picked `b`; hits up to the largest offset further on may give
//   an earlier start, so they are checked too. The automaton resumes at the
//   earliest such start and is not interrupted again before it has passed
//   `h`. The choice weighs each byte's frequency by the automaton steps a hit
//   costs (a few, plus its offset), and is dropped when stepping the automaton
//   over every byte would be cheaper;
// - rare byte pairs: the same, with two adjacent bytes per word (`Qu`,
//   `ff`, `eR`), up to sixteen pairs: two loads per sixteen positions, then
//   three or four comparisons per pair. Pairs are far rarer than single bytes
//   in identifiers made of common letters, which is where single bytes fail;
// - more first bytes, when they are rare in typical text: a loop over a
//   256-entry table, unrolled by four. Its iterations do not depend on each
//   other, unlike the automaton's steps (each a load that depends on the
//   previous one), so it is several times faster than the automaton over
//   bytes that leave the start state alone;
// - otherwise none: when every choice is common, leaving the automaton's
//   loop for the prefilter's at every stop costs more than it saves.
//
//     words  "parseQuery", "xmlNode"      rare picks: Q at 5, x at 0
//     text   . . . . x m l N o d e . . . . p a r s e Q u e r y
//                    ^ hit: start here               ^ hit: start 5 bytes before

/// Finds the next position where a literal match could start.
///
/// A class, as are its scans: the automaton asks it for a candidate at every stop of a search, and as
/// structs (192 bytes with the rare-byte vectors) each ask would copy the optional prefilter and its scan
/// to read their tags, a `memmove` and a retain per array each time. Immutable.
final class LiteralPrefilter: Sendable {
    /// How to look for candidates.
    enum Scan: Sendable {
        /// Any of up to eight bytes, each at most `maxOffset` bytes after the start of a match.
        case rareBytes(RareByteScan)
        /// Any of up to sixteen adjacent byte pairs, each at most `maxOffset` bytes after the start of a match.
        case rarePairs(RarePairScan)
        /// Any byte marked in `firstBytes`.
        case table
    }

    /// Where a match may start, and the hit that proved it (the automaton is not interrupted before passing it).
    struct Candidate {
        /// The earliest position where a match may start.
        var start: Int
        /// The position of the byte found; the search needs no new candidate before passing it.
        var hit: Int
    }

    let scan: Scan
    /// The estimated cost of searching with this prefilter, in automaton steps per text byte (1 is the bare automaton).
    let estimatedStepsPerByte: Double
    /// `firstBytes[b] != 0` when a match can start with `b`.
    let firstBytes: [UInt8]

    /// The most distinct bytes a rare-byte scan compares against.
    static let maximumRareBytes = 8
    /// The furthest position inside a word that a rare-byte scan may pick.
    static let maximumRareOffset = 15
    /// Above this many variants the rare-byte choice is not tried (it would not fit in eight bytes).
    static let maximumRareVariants = 256
    /// Automaton steps a hit costs besides the bytes between the candidate start and the hit.
    static let stepsPerHit = 6.0
    /// Above this many estimated automaton steps per text byte, stepping the automaton over every byte is as fast.
    static let maximumStepsPerByte = 0.5
    /// How far a single-byte scan's estimate is trusted next to the fingerprints' (LiteralAutomaton.swift): it rests
    /// on single bytes' frequencies in the background table, which real trees miss by far more than they miss two
    /// bytes at a fixed distance: on real trees (`/opt/swift/usr/lib`, `/usr/include`) a scan estimated cheaper than
    /// the fingerprints ran slower than them (`scripts/bench-list.py`). Pair scans, as selective as fingerprints, are
    /// taken at their word.
    static let singleByteEstimateMargin = 2.5

    /// The estimate to weigh against the fingerprints' (see `singleByteEstimateMargin`).
    var comparableStepsPerByte: Double {
        if case .rarePairs = scan { return estimatedStepsPerByte }
        return estimatedStepsPerByte * Self.singleByteEstimateMargin
    }
    /// Above this estimated share of first bytes (in percent), the table loop stops so often that stepping the automaton is faster.
    static let maximumTableFrequency = 12.0

    /// Chooses a prefilter for matches whose first byte is in `firstBytes`.
    ///
    /// `variants` gives, for each byte string the automaton indexes, the bytes that can occur at each of
    /// its positions (both cases of a folded letter); nil when there are too many to consider.
    init?(firstBytes: [Bool], variants: [[[UInt8]]]?) {
        self.firstBytes = firstBytes.map { $0 ? 1 : 0 }
        if let variants {
            // Each scan's own cost is counted in automaton steps per byte, next to the steps its hits cause.
            let bytes = RareByteScan(variants: variants)
            let pairs = RarePairScan(variants: variants)
            let bytesCost = bytes.map { $0.estimatedStepsPerByte + 0.05 } ?? .infinity
            let pairsCost = pairs.map { $0.estimatedStepsPerByte + 0.1 + 0.02 * Double($0.pairCount) } ?? .infinity
            if let bytes, bytesCost <= pairsCost, bytesCost <= Self.maximumStepsPerByte {
                scan = .rareBytes(bytes)
                estimatedStepsPerByte = bytesCost
                return
            }
            if let pairs, pairsCost <= Self.maximumStepsPerByte {
                scan = .rarePairs(pairs)
                estimatedStepsPerByte = pairsCost
                return
            }
        }
        var estimatedFrequency = 0.0
        for value in 0..<256 where firstBytes[value] {
            estimatedFrequency += ByteFrequency.estimatedPercentage(of: UInt8(truncatingIfNeeded: value))
        }
        if estimatedFrequency <= Self.maximumTableFrequency {
            scan = .table
            // A quarter step per byte for the loop, plus the steps its stops cost.
            estimatedStepsPerByte = 0.25 + estimatedFrequency / 100 * Self.stepsPerHit
        } else {
            return nil
        }
    }

    /// The first place in `utf8Offset..<startLimit` where a match could start, or nil.
    ///
    /// - Complexity: O(n) in the bytes skipped: sixteen bytes per step for a rare-byte scan, four for the table.
    @inline(__always)
    func firstCandidate(
        in text: UnsafeBufferPointer<UInt8>, from utf8Offset: Int, startLimit: Int, firstBytes table: UnsafeBufferPointer<UInt8>
    ) -> Candidate? {
        switch scan {
        case .rareBytes(let rare):
            let end = min(text.count, startLimit &+ rare.maxOffset)
            guard let hit = rare.firstIndex(in: text, from: utf8Offset, to: end) else { return nil }
            let start = max(utf8Offset, rare.earliestStart(in: text, hit: hit))
            guard start < startLimit else { return nil }
            return Candidate(start: start, hit: hit)
        case .rarePairs(let pairs):
            let end = min(text.count, startLimit &+ pairs.maxOffset &+ 1)
            var from = utf8Offset
            // Hits are verified against the words that picked the pair, so most never reach the automaton.
            while let hit = pairs.firstIndex(in: text, from: from, to: end) {
                if let start = pairs.earliestVerifiedStart(in: text, hit: hit, searchStart: utf8Offset, startLimit: startLimit) {
                    return Candidate(start: start, hit: hit)
                }
                from = hit &+ 1
            }
            return nil
        case .table:
            var position = utf8Offset
            while startLimit &- position >= 4 {
                let found = table[Int(text[position])] | table[Int(text[position &+ 1])]
                    | table[Int(text[position &+ 2])] | table[Int(text[position &+ 3])]
                if found != 0 { break }
                position &+= 4
            }
            while position < startLimit {
                if table[Int(text[position])] != 0 { return Candidate(start: position, hit: position) }
                position &+= 1
            }
            return nil
        }
    }

    /// The lanes as two 64-bit words, lanes 0-7 in `low` (lane `i` in bits `8i..<8i+8`) and 8-15 in `high`.
    @inline(__always)
    static func words(_ lanes: SIMD16<UInt8>) -> (low: UInt64, high: UInt64) {
        withUnsafeBytes(of: lanes) { bytes in
            (UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self)),
             UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }
}

/// Up to eight bytes, one of which every match contains within its first `maxOffset + 1` bytes, found sixteen bytes at a time.
final class RareByteScan: Sendable, CustomStringConvertible {
    /// The distinct bytes, sorted.
    let bytes: [UInt8]
    /// The largest position (from a match's start) of a chosen byte.
    let maxOffset: Int
    /// The estimated share of text bytes that are hits, in percent.
    let estimatedFrequency: Double
    /// The estimated automaton steps per text byte that hits cause (see `LiteralPrefilter.stepsPerHit`).
    let estimatedStepsPerByte: Double
    /// The bytes, each repeated across a vector; the list is padded to eight by repeating the first.
    private let needles: (SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>,
                          SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>)
    /// Whether the last four needles repeat the first (four comparisons suffice).
    private let fitsInFour: Bool
    /// For each byte: one more than the furthest position at which a word picked it, 0 when none did.
    private let offsetPlusOne: [UInt8]

    /// Greedily picks one position per variant so that the union of their bytes is rare and small; nil if it would exceed eight bytes.
    ///
    /// Each variant takes the position that adds the least estimated cost (frequency times the steps
    /// a hit costs, which grow with the position) to what is already chosen, ties going to the earlier
    /// position, so words that share a rare byte share it in the scan.
    init?(variants: [[[UInt8]]]) {
        guard !variants.isEmpty, variants.count <= LiteralPrefilter.maximumRareVariants else { return nil }
        // offsets[b]: the furthest position at which `b` was picked, or -1.
        var offsets = [Int](repeating: -1, count: 256)
        var chosenCount = 0
        func cost(_ byte: UInt8, _ offset: Int) -> Double {
            ByteFrequency.estimatedPercentage(of: byte) * (LiteralPrefilter.stepsPerHit + Double(offset))
        }
        // The variants with the costliest best choice go first, so the shared bytes suit them.
        let order = variants.indices.sorted { Self.bestCost(variants[$0]) > Self.bestCost(variants[$1]) }
        for variantIndex in order {
            var bestOffset = -1
            var bestAdded = Double.infinity
            for (offset, bytes) in variants[variantIndex].enumerated() where offset <= LiteralPrefilter.maximumRareOffset {
                var added = 0.0
                for byte in bytes {
                    let current = offsets[Int(byte)]
                    if current < 0 {
                        added += cost(byte, offset)
                    } else if current < offset {
                        added += cost(byte, offset) - cost(byte, current)
                    }
                }
                if added < bestAdded {
                    bestAdded = added
                    bestOffset = offset
                }
            }
            guard bestOffset >= 0 else { return nil }
            for byte in variants[variantIndex][bestOffset] {
                if offsets[Int(byte)] < 0 { chosenCount += 1 }
                offsets[Int(byte)] = max(offsets[Int(byte)], bestOffset)
            }
            if chosenCount > LiteralPrefilter.maximumRareBytes { return nil }
        }
        var bytes: [UInt8] = []
        var frequency = 0.0
        var steps = 0.0
        for value in 0..<256 where offsets[value] >= 0 {
            let byte = UInt8(truncatingIfNeeded: value)
            bytes.append(byte)
            frequency += ByteFrequency.estimatedPercentage(of: byte)
            steps += cost(byte, offsets[value]) / 100
        }
        guard let first = bytes.first else { return nil }
        self.bytes = bytes
        self.maxOffset = offsets.max() ?? 0
        self.estimatedFrequency = frequency
        self.estimatedStepsPerByte = steps
        func needle(_ index: Int) -> SIMD16<UInt8> {
            SIMD16<UInt8>(repeating: index < bytes.count ? bytes[index] : first)
        }
        needles = (needle(0), needle(1), needle(2), needle(3), needle(4), needle(5), needle(6), needle(7))
        fitsInFour = bytes.count <= 4
        // Offsets are at most `maximumRareOffset`, so one more still fits a byte.
        offsetPlusOne = offsets.map { UInt8(truncatingIfNeeded: $0 + 1) }
    }

    /// The estimated cost of a variant's cheapest position on its own.
    private static func bestCost(_ positions: [[UInt8]]) -> Double {
        var best = Double.infinity
        for (offset, bytes) in positions.enumerated() where offset <= LiteralPrefilter.maximumRareOffset {
            let frequency = bytes.reduce(0) { $0 + ByteFrequency.estimatedPercentage(of: $1) }
            best = min(best, frequency * (LiteralPrefilter.stepsPerHit + Double(offset)))
        }
        return best
    }

    /// The earliest start a match can have given the first hit at `hit`: later hits within `maxOffset` may lie further back.
    @inline(__always)
    func earliestStart(in text: UnsafeBufferPointer<UInt8>, hit: Int) -> Int {
        var start = hit &- (Int(offsetPlusOne[Int(text[hit])]) &- 1)
        let end = min(text.count, hit &+ maxOffset &+ 1)
        var position = hit &+ 1
        while position < end {
            let offset = Int(offsetPlusOne[Int(text[position])])
            if offset != 0 { start = min(start, position &- (offset &- 1)) }
            position &+= 1
        }
        return start
    }

    var description: String { "rareBytes(\(bytes), maxOffset: \(maxOffset))" }

    /// The first position in `utf8Offset..<utf8EndOffset` holding one of the bytes, or nil.
    ///
    /// - Complexity: O(n), sixteen bytes per step.
    @inline(__always)
    func firstIndex(in text: UnsafeBufferPointer<UInt8>, from utf8Offset: Int, to utf8EndOffset: Int) -> Int? {
        let end = min(utf8EndOffset, text.count)
        var position = max(utf8Offset, 0)
        guard position < end, let base = text.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        let zero = SIMD16<UInt8>(repeating: 0)
        while end &- position >= 16 {
            let chunk = raw.loadUnaligned(fromByteOffset: position, as: SIMD16<UInt8>.self)
            var found = (chunk .== needles.0) .| (chunk .== needles.1) .| (chunk .== needles.2) .| (chunk .== needles.3)
            if !fitsInFour {
                found = found .| (chunk .== needles.4) .| (chunk .== needles.5) .| (chunk .== needles.6)
                    .| (chunk .== needles.7)
            }
            if let lane = SIMDLanes.firstNonZero(zero.replacing(with: 0xFF, where: found)) {
                return position &+ lane
            }
            position &+= 16
        }
        while position < end {
            if offsetPlusOne[Int(text[position])] != 0 { return position }
            position &+= 1
        }
        return nil
    }
}

/// Up to sixteen adjacent byte pairs, one of which every match contains within its first `maxOffset + 2` bytes.
///
/// Each side of a pair is one byte or the two cases of a folded letter.
final class RarePairScan: Sendable, CustomStringConvertible {
    /// One pair: the bytes allowed at each side (the second of a side repeats the first when there is one byte).
    struct Pair: Hashable, Sendable {
        var first: UInt8
        var firstOther: UInt8
        var second: UInt8
        var secondOther: UInt8
    }

    /// The most pairs compared.
    static let maximumPairs = 16

    let pairs: [Pair]
    /// The furthest position (from a match's start) at which each pair was picked.
    let offsets: [Int]
    /// Per pair, the variants that picked it and where: a hit is verified against them.
    private let pickers: [[(variant: Int, offset: Int)]]
    /// Per variant and position, the (one or two) bytes allowed there.
    private let variantBytes: [[(UInt8, UInt8)]]
    let maxOffset: Int
    /// The estimated automaton steps per text byte that hits cause.
    let estimatedStepsPerByte: Double
    /// Per pair, the vectors to compare with: the first side's byte then the second's; with `hasFoldedSides`, each
    /// side's fold bit (0, or the one bit in which its two bytes differ) before its byte with that bit set.
    private let needles: [SIMD16<UInt8>]
    /// Whether some side allows two bytes (a folded letter); without any, the loop skips the ORs.
    private let hasFoldedSides: Bool
    /// `isFirstByte[b] != 0` when some pair starts with `b`.
    private let isFirstByte: [UInt8]

    var pairCount: Int { pairs.count }

    /// Greedily picks one pair per variant (as `RareByteScan` picks bytes); nil for a variant shorter than two bytes or above sixteen pairs.
    init?(variants: [[[UInt8]]]) {
        guard !variants.isEmpty, variants.count <= LiteralPrefilter.maximumRareVariants else { return nil }
        var chosen: [Pair: Int] = [:]
        var picks: [(variant: Int, offset: Int, pair: Pair)] = []
        func candidates(_ positions: [[UInt8]]) -> [(offset: Int, pair: Pair, frequency: Double)] {
            var result: [(offset: Int, pair: Pair, frequency: Double)] = []
            for offset in 0..<max(0, positions.count - 1) where offset <= LiteralPrefilter.maximumRareOffset {
                let left = positions[offset]
                let right = positions[offset + 1]
                guard let a = left.first, let b = right.first, left.count <= 2, right.count <= 2,
                      Self.differInOneBit(left), Self.differInOneBit(right) else { continue }
                let pair = Pair(first: a, firstOther: left.last ?? a, second: b, secondOther: right.last ?? b)
                result.append((offset, pair, Self.estimatedPercentage(left, right)))
            }
            return result
        }
        func cost(_ frequency: Double, _ offset: Int) -> Double {
            frequency * (LiteralPrefilter.stepsPerHit + Double(offset))
        }
        let options = variants.map(candidates)
        guard options.allSatisfy({ !$0.isEmpty }) else { return nil }
        let best = options.map { $0.map { cost($0.frequency, $0.offset) }.min() ?? .infinity }
        for variantIndex in options.indices.sorted(by: { best[$0] > best[$1] }) {
            var pick: (offset: Int, pair: Pair)?
            var pickAdded = Double.infinity
            for option in options[variantIndex] {
                let added: Double
                if let current = chosen[option.pair] {
                    added = current >= option.offset ? 0 : cost(option.frequency, option.offset) - cost(option.frequency, current)
                } else {
                    added = cost(option.frequency, option.offset)
                }
                if added < pickAdded {
                    pickAdded = added
                    pick = (option.offset, option.pair)
                }
            }
            guard let pick else { return nil }
            chosen[pick.pair] = max(chosen[pick.pair] ?? 0, pick.offset)
            picks.append((variantIndex, pick.offset, pick.pair))
            if chosen.count > Self.maximumPairs { return nil }
        }
        let sorted = chosen.sorted { ($0.key.first, $0.key.second, $0.key.firstOther, $0.key.secondOther) < ($1.key.first, $1.key.second, $1.key.firstOther, $1.key.secondOther) }
        let sortedPairs = sorted.map(\.key)
        let sortedOffsets = sorted.map(\.value)
        pairs = sortedPairs
        offsets = sortedOffsets
        var pickerLists = [[(variant: Int, offset: Int)]](repeating: [], count: sorted.count)
        for pick in picks {
            if let index = sortedPairs.firstIndex(of: pick.pair) { pickerLists[index].append((pick.variant, pick.offset)) }
        }
        pickers = pickerLists
        variantBytes = variants.map { positions in positions.map { ($0.first ?? 0, $0.last ?? 0) } }
        maxOffset = sortedOffsets.max() ?? 0
        var steps = 0.0
        var vectors: [SIMD16<UInt8>] = []
        var firstBytes = [UInt8](repeating: 0, count: 256)
        let folds = sorted.contains { $0.key.first != $0.key.firstOther || $0.key.second != $0.key.secondOther }
        for (pair, offset) in sorted {
            let left: [UInt8] = pair.first == pair.firstOther ? [pair.first] : [pair.first, pair.firstOther]
            let right: [UInt8] = pair.second == pair.secondOther ? [pair.second] : [pair.second, pair.secondOther]
            steps += cost(Self.estimatedPercentage(left, right), offset) / 100
            // A side's two bytes differ in one bit at most: ORing that bit into both makes them one value.
            let firstFold = pair.first ^ pair.firstOther
            let secondFold = pair.second ^ pair.secondOther
            let sides = folds
                ? [firstFold, pair.first | firstFold, secondFold, pair.second | secondFold] : [pair.first, pair.second]
            vectors += sides.map { SIMD16<UInt8>(repeating: $0) }
            firstBytes[Int(pair.first)] = 1
            firstBytes[Int(pair.firstOther)] = 1
        }
        estimatedStepsPerByte = steps
        needles = vectors
        hasFoldedSides = folds
        isFirstByte = firstBytes
    }

    /// The estimated share of text positions holding the pair, in percent.
    ///
    /// Adjacent letters are far from independent (`th`, `er`), so the product is scaled up, and never
    /// above the rarer side.
    private static func estimatedPercentage(_ left: [UInt8], _ right: [UInt8]) -> Double {
        let leftFrequency = left.reduce(0) { $0 + ByteFrequency.estimatedPercentage(of: $1) }
        let rightFrequency = right.reduce(0) { $0 + ByteFrequency.estimatedPercentage(of: $1) }
        return min(min(leftFrequency, rightFrequency), leftFrequency * rightFrequency / 100 * 8)
    }

    var description: String {
        "rarePairs(" + zip(pairs, offsets).map { pair, offset in
            "\(String(decoding: [pair.first, pair.second], as: UTF8.self))@\(offset)"
        }.joined(separator: " ") + ")"
    }

    @inline(__always)
    private func matches(_ pair: Pair, _ text: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        let a = text[position]
        let b = text[position &+ 1]
        return (a == pair.first || a == pair.firstOther) && (b == pair.second || b == pair.secondOther)
    }

    /// The first position `p` in `utf8Offset..<utf8EndOffset - 1` where one of the pairs starts, or nil.
    ///
    /// - Complexity: O(n · pairs / 16).
    @inline(__always)
    func firstIndex(in text: UnsafeBufferPointer<UInt8>, from utf8Offset: Int, to utf8EndOffset: Int) -> Int? {
        let end = min(utf8EndOffset, text.count)
        var position = max(utf8Offset, 0)
        guard end &- position >= 2, let base = text.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        let folds = hasFoldedSides
        let found: Int? = needles.withUnsafeBufferPointer { needles in
            let count = needles.count
            while end &- position >= 17 {
                let left = raw.loadUnaligned(fromByteOffset: position, as: SIMD16<UInt8>.self)
                let right = raw.loadUnaligned(fromByteOffset: position &+ 1, as: SIMD16<UInt8>.self)
                // Per lane, the smallest difference from any pair (see SIMDLanes): zero where one holds.
                var closest = SIMD16<UInt8>(repeating: 0xFF)
                var index = 0
                if folds {
                    while index < count {
                        let difference = ((left | needles[index]) ^ needles[index &+ 1])
                            | ((right | needles[index &+ 2]) ^ needles[index &+ 3])
                        closest = SIMDLanes.minimum(closest, difference)
                        index &+= 4
                    }
                } else {
                    while index < count {
                        closest = SIMDLanes.minimum(closest, (left ^ needles[index]) | (right ^ needles[index &+ 1]))
                        index &+= 2
                    }
                }
                if let lane = SIMDLanes.firstZero(closest) {
                    return position &+ lane
                }
                position &+= 16
            }
            return nil
        }
        if let found { return found }
        while end &- position >= 2 {
            for pair in pairs where matches(pair, text, at: position) { return position }
            position &+= 1
        }
        return nil
    }

    /// Whether a side's allowed bytes (one, or two) differ in one bit at most, as the scan's fold needs.
    private static func differInOneBit(_ side: [UInt8]) -> Bool {
        guard let first = side.first, let last = side.last else { return false }
        return (first ^ last).nonzeroBitCount <= 1
    }

    /// Whether variant `variant` occurs at `start`.
    @inline(__always)
    private func verifies(_ variant: Int, in text: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        let bytes = variantBytes[variant]
        guard start >= 0, text.count &- start >= bytes.count else { return false }
        for (index, allowed) in bytes.enumerated() {
            let byte = text[start &+ index]
            if byte != allowed.0 && byte != allowed.1 { return false }
        }
        return true
    }

    /// The earliest start in `searchStart..<startLimit` of a variant verified at a pair hit at `position`, or nil.
    @inline(__always)
    private func verifiedStart(in text: UnsafeBufferPointer<UInt8>, at position: Int, searchStart: Int, startLimit: Int) -> Int? {
        var best: Int?
        for (index, pair) in pairs.enumerated() where matches(pair, text, at: position) {
            for picker in pickers[index] {
                let start = position &- picker.offset
                if start >= searchStart, start < startLimit, start < (best ?? Int.max),
                   verifies(picker.variant, in: text, at: start) {
                    best = start
                }
            }
        }
        return best
    }

    /// The earliest verified start given a hit at `hit`, or nil when no variant occurs there.
    ///
    /// A later hit (within `maxOffset`) may verify a variant that starts earlier, so those are checked too;
    /// no variant starts in `searchStart..<result` (the first hit is the first in the text after `searchStart`).
    func earliestVerifiedStart(in text: UnsafeBufferPointer<UInt8>, hit: Int, searchStart: Int, startLimit: Int) -> Int? {
        guard var start = verifiedStart(in: text, at: hit, searchStart: searchStart, startLimit: startLimit) else {
            return nil
        }
        let end = min(text.count &- 1, start &+ maxOffset &+ 1)
        var position = hit &+ 1
        while position < end {
            if isFirstByte[Int(text[position])] != 0,
               let earlier = verifiedStart(in: text, at: position, searchStart: searchStart, startLimit: startLimit) {
                start = min(start, earlier)
            }
            position &+= 1
        }
        return start
    }
}

/// Reading a comparison result: lanes are 0xFF where it held, 0 elsewhere.
///
/// Several comparisons are best combined as differences rather than as masks: `(x ^ b)` is zero exactly where
/// `x` holds `b`, an OR of differences is zero where all hold, and the lane-wise minimum of differences is zero where any
/// holds. A loop that ORs comparison masks instead keeps them as vectors of booleans, which the compiler turns
/// back into bytes (a shift, an AND and a compare) at every step.
enum SIMDLanes {
    /// The smaller of each pair of lanes (`pminub`); the standard library's `pointwiseMin` is not inlined.
    @inline(__always)
    static func minimum(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>) -> SIMD16<UInt8> {
        a.replacing(with: b, where: b .< a)
    }

    /// The first lane that is zero, or nil.
    @inline(__always)
    static func firstZero(_ lanes: SIMD16<UInt8>) -> Int? {
        let zero = SIMD16<UInt8>(repeating: 0)
        return firstNonZero(zero.replacing(with: 0xFF, where: lanes .== zero))
    }

    /// The first lane that is not zero, or nil; read as two 64-bit words, which is cheaper than a lane-by-lane reduction.
    @inline(__always)
    static func firstNonZero(_ lanes: SIMD16<UInt8>) -> Int? {
        withUnsafeBytes(of: lanes) { bytes in
            let low = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
            let high = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            if low != 0 { return low.trailingZeroBitCount &>> 3 }
            if high != 0 { return 8 &+ (high.trailingZeroBitCount &>> 3) }
            return nil
        }
    }

    /// The lanes as two 64-bit words, lanes 0-7 in `low` (lane `i` in bits `8i..<8i+8`) and 8-15 in `high`.
    @inline(__always)
    static func words(_ lanes: SIMD16<UInt8>) -> (low: UInt64, high: UInt64) {
        withUnsafeBytes(of: lanes) { bytes in
            (UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self)),
             UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }
}
