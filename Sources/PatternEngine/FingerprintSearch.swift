// Finding a few literal words without the automaton: SIMD fingerprints, then a direct check.
//
// Each variant (one byte string of one word; see LiteralPatterns.swift) picks
// a *fingerprint*: two of its positions whose bytes are the rarest in source
// code by the background table (ByteFrequency.swift), not the rarest within
// the words. A side of a fingerprint is "the byte at offset k from the start,
// OR 0x20, equals b": with 0x20 it accepts both cases of an ASCII letter (a
// case-insensitive word), without it exactly one byte. Sixteen candidate
// starts are tested at once, one unaligned load per side:
//
//     word "parseQuery", fingerprint Q@5 y@9 (rare in code)
//     text  . . . x p a r s e Q u e r y . . . . . .
//     lanes p  ─────────────▶ load at p+5, compare with Q  ┐ AND ─▶ lanes where a
//           p  ─────────────▶ load at p+9, compare with y  ┘       match may start
//
// Several fingerprints are combined (identical ones merged) as differences: a
// lane-wise minimum of ORed XORs is zero where one holds; one fingerprint is
// the packed-pair search (PackedPairSearch.swift), kept in registers and
// unrolled. Each fingerprint costs its own comparisons, so where the CPU has
// AVX2, Teddy's nibble tables (NibbleTables.swift), whose cost does not grow
// with the words, replace them when estimated cheaper; the fingerprints then
// search only the last bytes of a text, where Teddy's loads would run past it.
//
// A lane that survives is a start to check in text order. The variants that
// can start with its byte are tried longest first, then by priority (rule
// order, then word order), eight bytes at a time, and the first that passes
// its whole-word and `accept` checks is the match: the earliest start wins,
// then the longest, then the first rule — the automaton's leftmost-longest
// order, without its states.

import CPUFeatures
import VectorKernels
import VectorKernels512

/// A search for a few literal words: fingerprints compared sixteen starts at a time, then each hit checked directly.
struct FingerprintSearch: Sendable {
    /// One side of a fingerprint: the byte at `offset` from a match's start, ORed with `foldMask`, equals `byte`.
    struct Side: Sendable, Hashable, Comparable {
        var offset: Int
        var byte: UInt8
        /// 0x20 for both cases of an ASCII letter (`byte` is then lowercase), 0 for exactly `byte`.
        var foldMask: UInt8

        static func < (a: Side, b: Side) -> Bool {
            (a.offset, a.byte, a.foldMask) < (b.offset, b.byte, b.foldMask)
        }
    }

    /// Two sides that every occurrence of some variant has (the same side twice for a one-byte variant).
    struct Fingerprint: Sendable, Hashable, Comparable {
        var first: Side
        var second: Side

        static func < (a: Fingerprint, b: Fingerprint) -> Bool {
            (a.first, a.second) < (b.first, b.second)
        }
    }

    /// One byte string to check at a candidate start.
    struct Variant: Sendable {
        /// Where its bytes and masks begin in `needleBytes` and `foldMaskBytes`.
        var byteStart: Int
        var utf8Count: Int
        var patternIndex: Int
        var ruleIndex: Int
        var wholeWord: Bool
    }

    /// The most variants searched this way; well above the point where the automaton is cheaper per byte.
    static let maximumVariants = 24
    /// The cost of one fingerprint in the loop, in automaton steps per text byte, set where `scripts/bench-list.py`'s
    /// ten-word cases find the fingerprints and the automaton with its pair prefilter about even; one fingerprint,
    /// unrolled in registers, costs about as much.
    static let stepsPerFingerprint = 0.042
    /// The cost of checking one hit, in automaton steps.
    static let stepsPerHit = 3.0
    /// The furthest position inside a word a fingerprint may use (loads stay within sixteen bytes of a start).
    static let maximumOffset = 15

    let fingerprints: [Fingerprint]
    /// The largest offset of any side.
    let maximumSideOffset: Int
    /// The estimated share of text positions where some fingerprint holds, in percent.
    let estimatedHitPercentage: Double
    /// The estimated cost per text byte, in automaton steps, to compare with the automaton's (1 bare, less with a prefilter).
    var estimatedStepsPerByte: Double {
        nibbleTables?.estimatedStepsPerByte ?? fingerprintStepsPerByte
    }
    /// The same for the fingerprints' own loop.
    private var fingerprintStepsPerByte: Double {
        let loop = fingerprints.count == 1 ? 0.05 : Self.stepsPerFingerprint * Double(fingerprints.count)
        return loop + estimatedHitPercentage / 100 * Self.stepsPerHit
    }
    /// Whether the AVX2 loops run (the CPU has them, and the configuration did not turn them off).
    let usesAVX2: Bool
    /// Teddy's tables, searched instead of two or more fingerprints where the AVX2 loops run and they are estimated
    /// cheaper.
    private(set) var nibbleTables: NibbleTables?
    /// Whether some side folds case (an OR before its comparison); without any, the loop skips the ORs.
    let hasFoldedSides: Bool
    let variants: [Variant]
    /// Per variant, its bytes as compared: the exact bytes, or the folded bytes (ASCII letters lowercase).
    private let needleBytes: [UInt8]
    /// Per variant byte, 0x20 where either case of an ASCII letter matches, else 0.
    private let foldMaskBytes: [UInt8]
    /// The variants a start byte can begin: `candidateList[candidateStart[b]..<candidateStart[b + 1]]`, longest
    /// first, then by priority.
    private let candidateStart: [Int32]
    private let candidateList: [Int32]
    /// Per fingerprint: fold mask and needle of the first side, then of the second side.
    private let vectors: [SIMD16<UInt8>]
    /// Per fingerprint: the offsets of the first and second side.
    private let sideOffsets: [Int]

    /// Picks a fingerprint per variant of `patternSet`; nil when there are no variants or more than `maximumVariants`.
    ///
    /// Where the CPU has AVX2 and `usesAVX2` allows, one fingerprint is searched thirty-two starts a step, and two or
    /// more by Teddy's tables when those are estimated cheaper (always with `forcesNibbleTables`).
    init?(
        patternSet: LiteralPatternSet, maximumVariants: Int = FingerprintSearch.maximumVariants,
        usesAVX2: Bool = true, forcesNibbleTables: Bool = false
    ) {
        guard !patternSet.variants.isEmpty, patternSet.variants.count <= maximumVariants else { return nil }
        var variants: [Variant] = []
        var needles: [UInt8] = []
        var masks: [UInt8] = []
        var chosen: Set<Fingerprint> = []
        var words: [(bytes: [UInt8], foldMask: [UInt8])] = []
        for variant in patternSet.variants {
            let bytes: [UInt8]
            let mask: [UInt8]
            if let exact = variant.exactBytes {
                // A case-sensitive word over folded letters: its exact bytes decide, and they imply the folded ones.
                bytes = exact
                mask = [UInt8](repeating: 0, count: exact.count)
            } else {
                bytes = variant.foldedBytes
                mask = bytes.map { patternSet.foldedLetters[Int($0)] ? 0x20 : 0 }
            }
            guard !bytes.isEmpty else { return nil }
            let pattern = patternSet.patterns[variant.patternIndex]
            variants.append(Variant(
                byteStart: needles.count, utf8Count: bytes.count, patternIndex: variant.patternIndex,
                ruleIndex: pattern.ruleIndex, wholeWord: pattern.wholeWord))
            needles += bytes
            masks += mask
            words.append((bytes, mask))
            chosen.insert(Self.fingerprint(bytes: bytes, foldMask: mask))
        }
        let sorted = chosen.sorted()
        fingerprints = sorted
        maximumSideOffset = sorted.reduce(0) { max($0, $1.first.offset, $1.second.offset) }
        estimatedHitPercentage = sorted.reduce(0.0) { total, fingerprint in
            let first = Self.estimatedPercentage(fingerprint.first)
            if fingerprint.first == fingerprint.second { return total + first }
            return total + first * Self.estimatedPercentage(fingerprint.second) / 100
        }
        self.variants = variants
        needleBytes = needles
        foldMaskBytes = masks

        // Candidates per start byte: a folded first byte lists the variant under both cases.
        var lists = [[Int32]](repeating: [], count: 256)
        let order = variants.indices.sorted {
            (variants[$1].utf8Count, variants[$0].patternIndex) < (variants[$0].utf8Count, variants[$1].patternIndex)
        }
        for index in order {
            let variant = variants[index]
            let first = needles[variant.byteStart]
            lists[Int(first)].append(Int32(truncatingIfNeeded: index))
            if masks[variant.byteStart] != 0 {
                lists[Int(first & ~0x20)].append(Int32(truncatingIfNeeded: index))
            }
        }
        var starts: [Int32] = [0]
        var flat: [Int32] = []
        for list in lists {
            flat += list
            starts.append(Int32(truncatingIfNeeded: flat.count))
        }
        candidateStart = starts
        candidateList = flat

        var vectors: [SIMD16<UInt8>] = []
        var offsets: [Int] = []
        for fingerprint in sorted {
            for side in [fingerprint.first, fingerprint.second] {
                vectors.append(SIMD16(repeating: side.foldMask))
                vectors.append(SIMD16(repeating: side.byte))
                offsets.append(side.offset)
            }
        }
        self.vectors = vectors
        sideOffsets = offsets
        hasFoldedSides = sorted.contains { $0.first.foldMask != 0 || $0.second.foldMask != 0 }
        self.usesAVX2 = usesAVX2 && VectorUnit.hasAVX2
        if self.usesAVX2, sorted.count > 1, let tables = NibbleTables(words: words),
           forcesNibbleTables || tables.estimatedStepsPerByte < fingerprintStepsPerByte {
            nibbleTables = tables
        }
    }

    /// The share of text bytes that can pass `side`, in percent, by the background table.
    static func estimatedPercentage(_ side: Side) -> Double {
        let exact = ByteFrequency.estimatedPercentage(of: side.byte)
        return side.foldMask == 0 ? exact : exact + ByteFrequency.estimatedPercentage(of: side.byte & ~side.foldMask)
    }

    /// The two positions (of the first sixteen) whose bytes are rarest in source code; ties go to the earlier position.
    static func fingerprint(bytes: [UInt8], foldMask: [UInt8]) -> Fingerprint {
        let sides = (0..<min(bytes.count, maximumOffset + 1)).map {
            Side(offset: $0, byte: bytes[$0], foldMask: foldMask[$0])
        }
        let ranked = sides.sorted { (estimatedPercentage($0), $0.offset) < (estimatedPercentage($1), $1.offset) }
        let rarest = ranked[0]
        let second = ranked.count > 1 ? ranked[1] : rarest
        // The earlier offset first, so merged fingerprints compare equal whatever their ranking.
        return rarest.offset <= second.offset
            ? Fingerprint(first: rarest, second: second) : Fingerprint(first: second, second: rarest)
    }

    /// A description for tests: each fingerprint as `byte@offset` pairs, `~` marking both cases.
    var fingerprintDescription: String {
        func side(_ side: Side) -> String {
            String(decoding: [side.byte], as: UTF8.self) + (side.foldMask == 0 ? "" : "~") + "@\(side.offset)"
        }
        return fingerprints.map { $0.first == $0.second ? side($0.first) : side($0.first) + "+" + side($0.second) }
            .joined(separator: " ")
    }
}

// MARK: - Searching

extension FingerprintSearch {
    /// The leftmost-longest match that starts in `utf8Offset..<startLimit` (earlier bytes are context), or nil.
    ///
    /// - Complexity: O(n · fingerprints / 16) over the bytes skipped, plus O(word length) per fingerprint hit.
    func nextMatch(
        in text: UnsafeBufferPointer<UInt8>, from utf8Offset: Int, startLimit: Int, accept: RuleSet.MatchFilter?
    ) -> Match? {
        let limit = min(startLimit, text.count)
        guard utf8Offset >= 0, utf8Offset < limit, let base = text.baseAddress else { return nil }
        return needleBytes.withUnsafeBufferPointer { needles in
            foldMaskBytes.withUnsafeBufferPointer { masks in
                candidateStart.withUnsafeBufferPointer { candidateStart in
                    candidateList.withUnsafeBufferPointer { candidateList in
                        variants.withUnsafeBufferPointer { variants in
                            let checker = StartChecker(
                                text: text, needles: needles, masks: masks, candidateStart: candidateStart,
                                candidateList: candidateList, variants: variants, accept: accept)
                            var from = utf8Offset
                            if let nibbleTables {
                                switch nibbleSearch(
                                    UnsafeRawPointer(base), tables: nibbleTables, checker: checker, from: from, limit: limit)
                                {
                                case .found(let match): return match
                                case .searchedUpTo(let position): from = position
                                }
                            }
                            if fingerprints.count == 1 {
                                return packedPairSearch(UnsafeRawPointer(base), checker: checker, from: from, limit: limit)
                            }
                            return vectors.withUnsafeBufferPointer { vectors in
                                sideOffsets.withUnsafeBufferPointer { offsets in
                                    fingerprintSearch(
                                        UnsafeRawPointer(base), vectors: vectors, offsets: offsets, checker: checker,
                                        from: from, limit: limit)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Teddy's loop (NibbleTables.swift) over the blocks whose loads stay inside the text; the rest is left to the
    /// fingerprints.
    @inline(__always)
    private func nibbleSearch(
        _ raw: UnsafeRawPointer, tables: NibbleTables, checker: StartChecker, from: Int, limit: Int
    ) -> StartChecker.BlockOutcome {
        // A block at `p` reads `p ..< p + 32 + positions - 1`; no block needs to start at or past the limit.
        let lastBlock = min(checker.text.count &- 31 &- tables.positions, limit &- 1)
        return tables.bytes.withUnsafeBytes { table in
            guard let tableBase = table.baseAddress else { return .searchedUpTo(from) }
            let wide = VectorUnit.hasAVX512
            return checker.firstMatch(inBlocksFrom: from, through: lastBlock, limit: limit) { position in
                wide
                    ? AVX512.firstNibbleBlock(
                        text: raw, from: position, lastBlock: lastBlock, tables: tableBase, positions: tables.positions)
                    : AVX2.firstNibbleBlock(
                        text: raw, from: position, lastBlock: lastBlock, tables: tableBase, positions: tables.positions)
            }
        }
    }

    /// Several fingerprints, ORed sixteen starts at a time.
    @inline(__always)
    private func fingerprintSearch(
        _ raw: UnsafeRawPointer, vectors: UnsafeBufferPointer<SIMD16<UInt8>>, offsets: UnsafeBufferPointer<Int>,
        checker: StartChecker, from: Int, limit: Int
    ) -> Match? {
        var position = from
        // Every load of a block starting at `position` stays inside the text while `position <= lastBlock`.
        let lastBlock = checker.text.count &- maximumSideOffset &- 16
        let count = fingerprints.count
        let folds = hasFoldedSides
        let zero = SIMD16<UInt8>(repeating: 0)
        while position < limit, position <= lastBlock {
            // Per lane, the smallest difference from any fingerprint (see SIMDLanes): zero where one holds.
            var closest = SIMD16<UInt8>(repeating: 0xFF)
            var index = 0
            if folds {
                while index < count {
                    let side = index &<< 1
                    let vector = index &<< 2
                    let first = raw.loadUnaligned(fromByteOffset: position &+ offsets[side], as: SIMD16<UInt8>.self)
                    let second = raw.loadUnaligned(fromByteOffset: position &+ offsets[side &+ 1], as: SIMD16<UInt8>.self)
                    let difference = ((first | vectors[vector]) ^ vectors[vector &+ 1])
                        | ((second | vectors[vector &+ 2]) ^ vectors[vector &+ 3])
                    closest = SIMDLanes.minimum(closest, difference)
                    index &+= 1
                }
            } else {
                // Exact bytes only: the masks are zero, so the ORs are left out.
                while index < count {
                    let side = index &<< 1
                    let vector = index &<< 2
                    let first = raw.loadUnaligned(fromByteOffset: position &+ offsets[side], as: SIMD16<UInt8>.self)
                    let second = raw.loadUnaligned(fromByteOffset: position &+ offsets[side &+ 1], as: SIMD16<UInt8>.self)
                    closest = SIMDLanes.minimum(closest, (first ^ vectors[vector &+ 1]) | (second ^ vectors[vector &+ 3]))
                    index &+= 1
                }
            }
            let lanes = zero.replacing(with: 0xFF, where: closest .== zero)
            if let found = checker.firstMatch(inLanes: lanes, blockStart: position, limit: limit) {
                return found.match
            }
            position &+= 16
        }
        return checker.firstMatch(from: position, limit: limit)
    }
}

/// Checks candidate starts against the variants that can begin there, in the automaton's order of preference.
struct StartChecker {
    let text: UnsafeBufferPointer<UInt8>
    let needles: UnsafeBufferPointer<UInt8>
    let masks: UnsafeBufferPointer<UInt8>
    let candidateStart: UnsafeBufferPointer<Int32>
    let candidateList: UnsafeBufferPointer<Int32>
    let variants: UnsafeBufferPointer<FingerprintSearch.Variant>
    let accept: RuleSet.MatchFilter?

    /// The outcome of checking one block's lanes: a match, or the end of the search (a start at or past the limit).
    struct Found {
        var match: Match?
    }

    /// The first match at a lane marked 0xFF in `lanes` (starts `blockStart + lane`); nil when none matches.
    ///
    /// A `Found` with no match means a marked start reached `limit`: no match can start later.
    @inline(__always)
    func firstMatch(inLanes lanes: SIMD16<UInt8>, blockStart: Int, limit: Int) -> Found? {
        let words = SIMDLanes.words(lanes)
        if words.low | words.high == 0 { return nil }
        var word = words.low
        var laneBase = 0
        for half in 0..<2 {
            if half == 1 {
                word = words.high
                laneBase = 8
            }
            while word != 0 {
                let lane = laneBase &+ (word.trailingZeroBitCount &>> 3)
                word &= ~(UInt64(0xFF) &<< UInt64((lane &- laneBase) &<< 3))
                let start = blockStart &+ lane
                if start >= limit { return Found(match: nil) }
                if let match = match(at: start) { return Found(match: match) }
            }
        }
        return nil
    }

    /// How far an AVX2 block loop got: a match (or nil, none before the limit), or the first start it did not search.
    enum BlockOutcome {
        case found(Match?)
        case searchedUpTo(Int)
    }

    /// The first match among the starts an AVX2 block loop marks from `from` through `lastBlock`: `nextBlock(p)` is
    /// the first block at or after `p` with a marked start (its start and its lanes), or no lanes and where the loop
    /// stopped; the caller's loop goes on from there.
    @inline(__always)
    func firstMatch(
        inBlocksFrom from: Int, through lastBlock: Int, limit: Int, _ nextBlock: (Int) -> (start: Int, lanes: UInt32)
    ) -> BlockOutcome {
        var position = from
        while position <= lastBlock {
            let block = nextBlock(position)
            if block.lanes == 0 { return .searchedUpTo(block.start) }
            if let found = firstMatch(inLanes: block.lanes, blockStart: block.start, limit: limit) { return .found(found.match) }
            position = block.start &+ 32
        }
        return .searchedUpTo(position)
    }

    /// The same for up to thirty-two starts given as bits, bit `i` for `blockStart + i` (the AVX2 loops).
    @inline(__always)
    func firstMatch(inLanes lanes: UInt32, blockStart: Int, limit: Int) -> Found? {
        var lanes = lanes
        while lanes != 0 {
            let start = blockStart &+ lanes.trailingZeroBitCount
            lanes &= lanes &- 1
            if start >= limit { return Found(match: nil) }
            if let match = match(at: start) { return Found(match: match) }
        }
        return nil
    }

    /// The first match starting in `from..<limit`, checking every start (the last few bytes of a text).
    func firstMatch(from: Int, limit: Int) -> Match? {
        var start = from
        while start < limit {
            if let match = match(at: start) { return match }
            start &+= 1
        }
        return nil
    }

    /// The preferred variant that occurs at `start` and passes its checks, as a match; nil when none does.
    @inline(__always)
    func match(at start: Int) -> Match? {
        let first = Int(text[start])
        var index = Int(candidateStart[first])
        let end = Int(candidateStart[first &+ 1])
        while index < end {
            let variant = variants[Int(candidateList[index])]
            index &+= 1
            guard text.count &- start >= variant.utf8Count, occurs(variant, at: start) else { continue }
            let range = start..<(start &+ variant.utf8Count)
            if variant.wholeWord, !WordBoundary.accepts(text, utf8Range: range) { continue }
            // A rejected word is skipped like one failing its boundaries, so it hides nothing.
            if let accept, !accept(variant.ruleIndex, range) { continue }
            return Match(ruleIndex: variant.ruleIndex, utf8Range: range)
        }
        return nil
    }

    /// Whether the variant's bytes (folded where its mask says) are at `start`; the caller checked the length.
    @inline(__always)
    private func occurs(_ variant: FingerprintSearch.Variant, at start: Int) -> Bool {
        guard let textBase = text.baseAddress, let needleBase = needles.baseAddress, let maskBase = masks.baseAddress
        else { return false }
        let textRaw = UnsafeRawPointer(textBase)
        let needleRaw = UnsafeRawPointer(needleBase)
        let maskRaw = UnsafeRawPointer(maskBase)
        let count = variant.utf8Count
        var offset = 0
        while count &- offset >= 8 {
            let bytes = textRaw.loadUnaligned(fromByteOffset: start &+ offset, as: UInt64.self)
            let mask = maskRaw.loadUnaligned(fromByteOffset: variant.byteStart &+ offset, as: UInt64.self)
            let needle = needleRaw.loadUnaligned(fromByteOffset: variant.byteStart &+ offset, as: UInt64.self)
            if bytes | mask != needle { return false }
            offset &+= 8
        }
        while offset < count {
            let index = variant.byteStart &+ offset
            if text[start &+ offset] | masks[index] != needles[index] { return false }
            offset &+= 1
        }
        return true
    }
}
