import CPUFeatures
import Seeded
import Testing
import VectorKernels
import VectorKernels512

/// The AVX-512 UTF-8 check against the AVX2 one, where the CPU has AVX-512BW: the same position, counts, `\r` and
/// landmarks on every text of the AVX2 test's cases and on random texts.
@Suite(.enabled(if: VectorUnit.hasAVX512 && VectorUnit.hasAVX2)) struct AVX512Tests {
    /// Both checks of `text[from...]`: `validUTF8Prefix`, then `validUTF8Counts` with its landmarks.
    struct Run: Equatable, CustomStringConvertible {
        var prefix: Int
        var position: Int
        var counts: [Int]
        var hasCarriageReturn: Bool
        var landmarks: [Int]

        var description: String { "prefix \(prefix), position \(position), counts \(counts), \\r \(hasCarriageReturn), landmarks \(landmarks)" }

        init(text: [UInt8], from: Int, wide: Bool) {
            var slots = [Int](repeating: -7, count: ((text.count - from) / AVX2.segmentBytes + 1) * 4)
            (prefix, position, counts, hasCarriageReturn, landmarks) = text.withUnsafeBytes { raw in
                slots.withUnsafeMutableBufferPointer { slots in
                    let base = raw.baseAddress!
                    let prefix = wide
                        ? AVX512.validUTF8Prefix(text: base, from: from, count: raw.count)
                        : AVX2.validUTF8Prefix(text: base, from: from, count: raw.count)
                    let run = wide
                        ? AVX512.validUTF8Counts(text: base, from: from, count: raw.count, landmarks: slots.baseAddress)
                        : AVX2.validUTF8Counts(text: base, from: from, count: raw.count, landmarks: slots.baseAddress)
                    return (prefix, run.position, [run.lineFeeds, run.continuations, run.fourByteLeads, run.landmarkCount],
                            run.hasCarriageReturn, Array(slots[..<(run.landmarkCount * 4)]))
                }
            }
        }
    }

    /// Teddy sixty-four starts a step, on AVX2Tests' cases.
    @Test func nibbleBlocksAgreeWithTheTablesReadByteByByte() {
        AVX2Tests.forEachNibbleCase { text, from, lastBlock, tables, positions in
            AVX512.firstNibbleBlock(text: text, from: from, lastBlock: lastBlock, tables: tables, positions: positions)
        }
    }

    /// The packed pair sixty-four starts a step, on AVX2Tests' cases.
    @Test func pairBlocksAgreeWithTheBytes() {
        AVX2Tests.forEachPairCase { text, from, lastBlock, first, second in
            AVX512.firstPairBlock(text: text, from: from, lastBlock: lastBlock, first: first, second: second)
        }
    }

    @Test func segmentsAreTheAVX2Loops() {
        #expect(AVX512.segmentBytes == AVX2.segmentBytes)
    }

    /// Every pair of bytes, and the triples and quadruples around each lead's limits, cut at each edge the loops have
    /// (AVX2Tests' cases).
    @Test func utf8CheckAgreesWithAVX2OnEverySequence() {
        var disagreements: [String] = []
        var cases = 0
        AVX2Tests.forEachUTF8SequenceCase { text, sequence, place, _ in
            let wide = Run(text: text, from: 3, wide: true), narrow = Run(text: text, from: 3, wide: false)
            cases += 1
            if wide != narrow, disagreements.count < 10 {
                disagreements.append("\(sequence.map { String($0, radix: 16) }) at \(place): \(wide) against \(narrow)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
        #expect(cases > 700_000)
    }

    /// Random texts, mostly ASCII with characters of two to four bytes, some `\r`s and line feeds, some with bytes that
    /// break a rule, 64 to 40,000 bytes long, checked from a character's start at 3 or after.
    @Test(arguments: UInt64(1)...4)
    func utf8CheckAgreesWithAVX2OnRandomTexts(seed: UInt64) {
        var random = SplitMix64(seed: 0x41_56_58_35_31_32 &+ seed)
        let characters = ["é", "\u{7FF}", "\u{800}", "中", "\u{FFFF}", "\u{10000}", "🔥", "\u{10FFFF}", "\r", "\r\n"]
            .map { Array($0.utf8) }
        let defects: [UInt8] = [0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF]
        var invalid = 0
        var landmarks = 0
        var stops: Set<Int> = []
        for round in 0..<1_500 {
            let length = 64 + random.next(below: round % 10 == 0 ? 40_000 - 64 : round % 2 == 0 ? 300 : 3_000)
            // One character in `density` is not ASCII: from none to one in two.
            let density = [0, 2, 8, 40, 200, 2_000][random.next(below: 6)]
            var text: [UInt8] = []
            while text.count < length {
                if density > 0, random.next(below: density) == 0 {
                    text += characters[random.next(below: round % 3 == 0 ? characters.count : characters.count - 2)]
                } else {
                    text.append(random.next(below: 12) == 0 ? 0x0A : UInt8(0x20 + random.next(below: 0x5F)))
                }
            }
            var from = 3 + random.next(below: min(70, text.count - 40))
            while from < text.count, text[from] & 0xC0 == 0x80 { from += 1 }
            if round % 3 == 0 {
                for _ in 0...random.next(below: 2) {
                    text.insert(defects[random.next(below: defects.count)], at: from + random.next(below: text.count - from + 1))
                }
            }
            let wide = Run(text: text, from: from, wide: true), narrow = Run(text: text, from: from, wide: false)
            #expect(wide == narrow, "round \(round), from \(from), \(text.count) bytes: \(wide) against \(narrow)")
            if narrow.position < 0 { invalid += 1 }
            landmarks += narrow.landmarks.count / 4
            stops.insert(narrow.position < 0 ? -1 : (text.count - narrow.position))
        }
        #expect(invalid > 100)
        #expect(landmarks > 1_000)
        #expect(stops.count > 20)
    }
}
