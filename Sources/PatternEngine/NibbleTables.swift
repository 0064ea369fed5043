// Teddy: a few literal words found by nibble tables, thirty-two starts a step.
//
// The first `positions` bytes (up to three, no more than the shortest word
// has) of every word are described by two sixteen-entry tables per position,
// indexed by a byte's low and high nibble. Each word belongs to one of eight
// buckets, one bit per table entry: lo_k[n] has a bucket's bit when some word
// of the bucket can have low nibble n at position k. A start passes when, for
// some bucket, every position keeps its bit. Both cases of a folded letter
// enter both of their nibble pairs. The tables over-approximate (a bucket
// accepts every pairing of its nibbles), so a passing start is only a
// candidate: FingerprintSearch's StartChecker decides.
//
//     words "parse", "Query" (buckets 0, 1), positions 3
//     lo_0['p' & 15] = {0}   hi_0['p' >> 4] = {0, 1}   ('p' 0x70, 'Q' 0x51: high nibbles 7 and 5)
//     start s passes bucket 0 when lo_k, hi_k of text[s+k] all hold bit 0, k = 0, 1, 2
//
// The loop (VectorKernels' AVX2) needs a byte shuffle, so it runs only where
// the CPU has AVX2 (CPUFeatures' VectorUnit); elsewhere the fingerprints stay.
// With eight buckets and up to FingerprintSearch.maximumVariants words its
// cost does not grow with the words, unlike the fingerprints', only its false
// candidates do; the buckets are filled greedily to keep those few.

import VectorKernels

/// Teddy tables for a few words: per prefix position, the buckets allowed by each low and high nibble.
struct NibbleTables: Sendable {
    /// How many leading bytes of each word the tables describe (1 to 3).
    let positions: Int
    /// Per position, 32 bytes of low-nibble table then 32 of high-nibble table (each 16 entries twice, one per
    /// 128-bit half, as the shuffle reads them).
    let bytes: [UInt8]
    /// The estimated share of text positions that pass, in percent (the buckets' shares added).
    let estimatedHitPercentage: Double

    /// The buckets, one bit each in a table entry.
    static let bucketCount = 8
    /// The cost of the loop alone per text byte, in automaton steps per prefix position (see `FingerprintSearch`):
    /// the loop's speed over the bare automaton's (one step a byte) in `highlight-bench`, divided by the positions
    /// it tests. Calibrated with `highlight-bench`; BENCHMARKS.md has today's figures.
    static let stepsPerPosition = 0.02

    /// The estimated cost per text byte, in automaton steps.
    var estimatedStepsPerByte: Double {
        Self.stepsPerPosition * Double(positions) + estimatedHitPercentage / 100 * FingerprintSearch.stepsPerHit
    }

    /// Tables for `words` (each its bytes and, per byte, 0x20 where both cases of an ASCII letter match); nil
    /// for none or an empty word.
    init?(words: [(bytes: [UInt8], foldMask: [UInt8])]) {
        guard let shortest = words.map(\.bytes.count).min(), shortest > 0 else { return nil }
        let positions = min(shortest, AVX2.maximumNibblePositions)
        // Per word and position, the bytes it allows there.
        let allowed: [[[UInt8]]] = words.map { word in
            (0..<positions).map { k in
                word.foldMask[k] == 0 ? [word.bytes[k]] : [word.bytes[k], word.bytes[k] & ~word.foldMask[k]]
            }
        }
        // Per bucket and position, the low and high nibbles allowed, as 16-bit sets.
        var low = [[UInt16]](repeating: [UInt16](repeating: 0, count: positions), count: Self.bucketCount)
        var high = low
        var members = [Int](repeating: 0, count: Self.bucketCount)
        // The rarest words first, each into the bucket its nibbles widen least; ties to the emptier bucket.
        let nibbles = allowed.map(Self.nibbles)
        let shares = nibbles.map { Self.share($0, positions) }
        let order = allowed.indices.sorted { (shares[$0], $0) < (shares[$1], $1) }
        for index in order {
            let own = nibbles[index]
            var best = 0
            var bestAdded = Double.infinity
            for bucket in 0..<Self.bucketCount {
                let before = members[bucket] == 0 ? 0 : Self.share((low[bucket], high[bucket]), positions)
                let merged = (zip(low[bucket], own.low).map { $0 | $1 }, zip(high[bucket], own.high).map { $0 | $1 })
                let added = Self.share(merged, positions) - before
                if (added, members[bucket]) < (bestAdded, members[best]) {
                    best = bucket
                    bestAdded = added
                }
            }
            for k in 0..<positions {
                low[best][k] |= own.low[k]
                high[best][k] |= own.high[k]
            }
            members[best] += 1
        }
        var tables = [UInt8](repeating: 0, count: positions * AVX2.nibbleTableBytesPerPosition)
        for k in 0..<positions {
            for bucket in 0..<Self.bucketCount where members[bucket] > 0 {
                let bit = UInt8(1) << UInt8(bucket)
                for nibble in 0..<16 {
                    let base = k * AVX2.nibbleTableBytesPerPosition + nibble
                    if low[bucket][k] & (1 << nibble) != 0 {
                        tables[base] |= bit
                        tables[base + 16] |= bit
                    }
                    if high[bucket][k] & (1 << nibble) != 0 {
                        tables[base + 32] |= bit
                        tables[base + 48] |= bit
                    }
                }
            }
        }
        self.positions = positions
        bytes = tables
        estimatedHitPercentage = 100 * (0..<Self.bucketCount).reduce(0.0) { total, bucket in
            members[bucket] == 0 ? total : total + Self.share((low[bucket], high[bucket]), positions)
        }
    }

    /// A word's allowed nibbles per position.
    private static func nibbles(_ allowed: [[UInt8]]) -> (low: [UInt16], high: [UInt16]) {
        (allowed.map { $0.reduce(0) { $0 | UInt16(1) << ($1 & 15) } },
         allowed.map { $0.reduce(0) { $0 | UInt16(1) << ($1 >> 4) } })
    }

    /// The estimated share (0...1) of text positions whose next `positions` bytes pass the nibble sets, taking
    /// bytes as independent, by the background table.
    private static func share(_ sets: (low: [UInt16], high: [UInt16]), _ positions: Int) -> Double {
        var product = 1.0
        for k in 0..<positions {
            var sum = 0.0
            for value in 0..<256 where sets.low[k] & (1 << (value & 15)) != 0 && sets.high[k] & (1 << (value >> 4)) != 0 {
                sum += ByteFrequency.estimatedPercentage(of: UInt8(truncatingIfNeeded: value)) / 100
            }
            product *= sum
        }
        return product
    }
}
