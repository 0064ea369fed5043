import CPUFeatures
import Seeded
import Testing
import VectorKernels

/// The AVX2 loops against the same questions answered byte by byte, where the CPU has AVX2 (elsewhere nothing runs
/// them). Their callers' differential tests run them again, with and without, on whole searches and texts.
@Suite(.enabled(if: VectorUnit.hasAVX2)) struct AVX2Tests {
    /// The AVX2 loop against the tables read byte by byte: random tables (1 to 3 positions, any bucket bits) over random
    /// texts, every block start and last block, so each lane, each position's load and the end of the range are seen.
    @Test func nibbleBlocksAgreeWithTheTablesReadByteByByte() {
        Self.forEachNibbleCase { text, from, lastBlock, tables, positions in
            AVX2.firstNibbleBlock(text: text, from: from, lastBlock: lastBlock, tables: tables, positions: positions)
        }
    }

    /// Runs `search` (a `firstNibbleBlock`: text, from, last block, tables, positions) on 300 random cases and expects
    /// what reading the tables byte by byte finds.
    static func forEachNibbleCase(
        _ search: (UnsafeRawPointer, Int, Int, UnsafeRawPointer, Int) -> (start: Int, lanes: UInt32)
    ) {
        var generator = SplitMix64(seed: 0x54_45_44_44)
        var found = 0
        for _ in 0..<300 {
            let positions = Int.random(in: 1...AVX2.maximumNibblePositions, using: &generator)
            // Sparse bits, so that some blocks pass and most do not.
            var tables = [UInt8](repeating: 0, count: positions * AVX2.nibbleTableBytesPerPosition)
            for k in 0..<positions {
                for nibble in 0..<16 {
                    for half in 0..<2 {
                        let value = UInt8.random(in: 0...255, using: &generator) & UInt8.random(in: 0...255, using: &generator)
                        tables[k * 64 + half * 32 + nibble] = value
                        tables[k * 64 + half * 32 + nibble + 16] = value
                    }
                }
            }
            let text = (0..<Int.random(in: 40...400, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            func passes(_ start: Int) -> Bool {
                var bits: UInt8 = 0xFF
                for k in 0..<positions {
                    let byte = text[start + k]
                    bits &= tables[k * 64 + Int(byte & 15)] & tables[k * 64 + 32 + Int(byte >> 4)]
                }
                return bits != 0
            }
            let lastBlock = text.count - 31 - positions
            let from = Int.random(in: 0...max(0, lastBlock), using: &generator)
            var expected: (start: Int, lanes: UInt32) = (lastBlock + 1, 0)
            var block = from
            while block <= lastBlock {
                let lanes = (0..<32).reduce(UInt32(0)) { passes(block + $1) ? $0 | 1 << UInt32($1) : $0 }
                if lanes != 0 {
                    expected = (block, lanes)
                    break
                }
                block += 32
            }
            if expected.lanes == 0 { expected.start = block } else { found += 1 }
            let actual = text.withUnsafeBytes { text in
                tables.withUnsafeBytes { tables -> (start: Int, lanes: UInt32)? in
                    guard let textBase = text.baseAddress, let tableBase = tables.baseAddress else { return nil }
                    return search(textBase, from, lastBlock, tableBase, positions)
                }
            }
            guard let actual else {
                Issue.record("empty buffers")
                return
            }
            #expect(actual.start == expected.start && actual.lanes == expected.lanes,
                    "positions \(positions), text of \(text.count) from \(from): \(actual) != \(expected)")
        }
        // Both outcomes, often.
        #expect(found > 30 && found < 270)
    }

    /// The packed pair against a byte-by-byte test: random sides (offsets, fold masks) over texts of a few letters, so
    /// that both sides hold often, from every kind of start to the last block.
    @Test func pairBlocksAgreeWithTheBytes() {
        Self.forEachPairCase { text, from, lastBlock, first, second in
            AVX2.firstPairBlock(text: text, from: from, lastBlock: lastBlock, first: first, second: second)
        }
    }

    /// Runs `search` (a `firstPairBlock`) on 400 random cases and expects what a byte-by-byte test finds.
    static func forEachPairCase(
        _ search: (UnsafeRawPointer, Int, Int, (offset: Int, mask: UInt8, byte: UInt8), (offset: Int, mask: UInt8, byte: UInt8))
            -> (start: Int, lanes: UInt32)
    ) {
        var generator = SplitMix64(seed: 0x50_41_49_52)
        let letters: [UInt8] = Array("abAB-x\n".utf8)
        var found = 0
        for _ in 0..<400 {
            let text = (0..<(40 + generator.next(below: 300))).map { _ in letters[generator.next(below: letters.count)] }
            func side() -> (offset: Int, mask: UInt8, byte: UInt8) {
                let mask: UInt8 = generator.next(below: 2) == 0 ? 0 : 0x20
                let byte = letters[generator.next(below: letters.count)] | mask
                return (generator.next(below: 8), mask, byte)
            }
            let first = side()
            let second = side()
            let lastBlock = text.count - max(first.offset, second.offset) - 32
            guard lastBlock >= 0 else { continue }
            let from = generator.next(below: lastBlock + 1)
            func holds(_ start: Int) -> Bool {
                text[start + first.offset] | first.mask == first.byte && text[start + second.offset] | second.mask == second.byte
            }
            var expected: (start: Int, lanes: UInt32) = (from, 0)
            while expected.start <= lastBlock {
                let start = expected.start
                expected.lanes = (0..<32).reduce(UInt32(0)) { holds(start + $1) ? $0 | 1 << UInt32($1) : $0 }
                if expected.lanes != 0 { break }
                expected.start += 32
            }
            if expected.lanes != 0 { found += 1 }
            let actual = text.withUnsafeBytes { text in
                text.baseAddress.map { search($0, from, lastBlock, first, second) }
            }
            #expect(actual?.start == expected.start && actual?.lanes == expected.lanes,
                    "sides \(first) \(second), \(text.count) bytes from \(from)")
        }
        // Both outcomes, often.
        #expect(found > 50 && found < 350)
    }

    /// The UTF-8 check against the standard library, on texts with one defect or none, from a character start past the
    /// first three bytes; where it stops, the rest must be a whole character's start.
    @Test func utf8PrefixesAgreeWithTheStandardLibrary() {
        var generator = SplitMix64(seed: 0x55_54_46_38)
        let characters = ["a", "let x = 1; ", "é", "中", "🔥", "\u{7FF}", "\u{800}", "\u{FFFF}", "\u{10000}",
                          String(repeating: "-", count: 130)].map { Array($0.utf8) }
        let defects: [UInt8] = [0x80, 0xBF, 0xC0, 0xC1, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF]
        var invalid = 0
        for round in 0..<3_000 {
            var text: [UInt8] = Array("abc".utf8)
            while text.count < 40 + generator.next(below: 400) {
                text += characters[generator.next(below: characters.count)]
            }
            if round % 3 != 0 { text.insert(defects[generator.next(below: defects.count)], at: 3 + generator.next(below: text.count - 3)) }
            let valid = String(validating: text, as: UTF8.self) != nil
            if !valid { invalid += 1 }
            let stop = text.withUnsafeBytes { text in
                text.baseAddress.map { AVX2.validUTF8Prefix(text: $0, from: 3, count: text.count) }
            } ?? 0
            if valid {
                #expect(stop >= 3 && stop <= text.count && text.count - stop < 35, "valid text stopped at \(stop)")
                #expect(stop == text.count || text[stop] & 0xC0 != 0x80, "stopped inside a character at \(stop)")
            } else if stop >= 0 {
                // Nothing wrong before the stop: the defect is in the last bytes, left to the caller.
                #expect(String(validating: text[..<stop], as: UTF8.self) != nil, "reported \(stop) over a defect")
                #expect(String(validating: text[stop...], as: UTF8.self) == nil, "the defect is not after \(stop)")
            }
        }
        #expect(invalid > 1_000)
    }

    /// The UTF-8 check against the standard library on every pair of bytes, and on triples and quadruples around
    /// each lead's limits, among ASCII: inside a block, cut by a block's, a group's (the next group ASCII or not) or a
    /// segment's edge after each of its bytes, in the last block of thirty-two and in the last bytes. Both loops
    /// (`validUTF8Prefix`, `validUTF8Counts`) must agree with the standard library, and where the text is valid the
    /// counts must be those of the bytes checked.
    @Test func utf8ChecksEverySequenceAsTheStandardLibraryDoes() {
        var disagreements: [String] = []
        var cases = 0
        Self.forEachUTF8SequenceCase { text, sequence, place, valid in
            let (prefix, counted) = text.withUnsafeBytes { raw in
                (AVX2.validUTF8Prefix(text: raw.baseAddress!, from: 3, count: raw.count),
                 AVX2.validUTF8Counts(text: raw.baseAddress!, from: 3, count: raw.count))
            }
            cases += 1
            for stop in Set([prefix, counted.position]) {
                // Where the loop stops, the rest is the caller's: the whole is valid exactly when the rest is,
                // and nothing before the stop may be wrong.
                let checked = stop >= 0 && String(validating: text[stop...], as: UTF8.self) != nil
                if checked != valid || (stop >= 0 && !valid && String(validating: text[..<stop], as: UTF8.self) == nil),
                   disagreements.count < 10 {
                    disagreements.append("\(sequence.map { String($0, radix: 16) }) at \(place): stop \(stop), valid \(valid)")
                }
            }
            guard valid else { return }
            let bytes = text[3..<max(3, counted.position)]
            let expected = (bytes.count { $0 == 0x0A }, bytes.count { $0 & 0xC0 == 0x80 }, bytes.count { $0 >= 0xF0 })
            if prefix != counted.position || counted.lineFeeds != expected.0 || counted.continuations != expected.1
                || counted.fourByteLeads != expected.2, disagreements.count < 10 {
                disagreements.append("\(sequence) at \(place): \(prefix), counted \(counted), expected \(expected)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
        #expect(cases > 700_000)
    }

    /// The texts of `utf8ChecksEverySequenceAsTheStandardLibraryDoes` (also AVX512Tests'), each checked from 3: `body`
    /// is given the text, the sequence put in it, where, and whether the text is valid UTF-8.
    static func forEachUTF8SequenceCase(_ body: (_ text: [UInt8], _ sequence: [UInt8], _ place: Int, _ valid: Bool) -> Void) {
        var sequences: [[UInt8]] = []
        for first in UInt8.min...UInt8.max {
            for second in UInt8.min...UInt8.max where first >= 0x80 || second >= 0x80 { sequences.append([first, second]) }
        }
        let seconds = Array(UInt8(0x7E)...0xC2) + [0xDF, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF]
        let thirds: [UInt8] = [0x41, 0x80, 0xBF, 0xC2, 0xE0, 0xF0, 0xFF]
        let fourths: [UInt8] = [0x41, 0x80, 0xC2]
        for first in [UInt8(0xC0), 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xFF] {
            for second in seconds {
                for third in thirds {
                    sequences.append([first, second, third])
                    if first >= 0xE0, third < 0xE0 { for fourth in fourths { sequences.append([first, second, third, fourth]) } }
                }
            }
        }
        // The short text, from 3: a segment of two groups (3..<131, 131..<259), a block of thirty-two (..<291) and
        // eight bytes. Each edge (of blocks, 35 and 195, of groups, of the last block) is cut after each byte of a
        // sequence but its last; other places: inside blocks and the text's last bytes. The long one: a segment of
        // 16 groups (3..<2051), one more group and eight bytes, for the segment's edge, with the sequences that
        // start with a lead (every other pair is ASCII, or wrong at its first byte, there as anywhere).
        let short = (length: 3 + 2 * 128 + 32 + 8, edges: [35, 131, 195, 259, 291], inside: [43, 270])
        let long = (length: 3 + 17 * 128 + 8, edges: [2051], inside: [Int]())
        for (length, edges, inside) in [short, long] {
            var text = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            for index in stride(from: 60, to: length - 8, by: 97) { text[index] = 0x0A }
            let ends = length == short.length ? [length - 4, length - 3, length - 2] : []
            for sequence in sequences where length == short.length || sequence[0] >= 0xC0 {
                // Among ASCII, the text is valid exactly when the sequence is.
                let valid = String(validating: sequence, as: UTF8.self) != nil
                let cuts = edges.flatMap { edge in (1..<sequence.count).map { edge - $0 } }
                for place in cuts + inside + ends where place + sequence.count <= length {
                    let saved = Array(text[place..<place + sequence.count])
                    text.replaceSubrange(place..<place + sequence.count, with: sequence)
                    body(text, sequence, place, valid)
                    text.replaceSubrange(place..<place + sequence.count, with: saved)
                }
            }
        }
    }

    /// A character cut short, or whole, where a group of 128 bytes or a segment of 63 groups ends, and ASCII after it:
    /// the loop notes only which groups are not ASCII, so an ASCII group must still be seen to follow a lead that
    /// wants a continuation. Both loops (`validUTF8Prefix`, `validUTF8Counts`) agree with the standard library.
    @Test func charactersCutWhereGroupsAndSegmentsEnd() {
        guard VectorUnit.hasAVX2 else { return }
        let sequences: [[UInt8]] = [[0xC3], [0xE2], [0xE2, 0x82], [0xF0], [0xF0, 0x9F], [0xF0, 0x9F, 0x98], [0xC3, 0xA9],
                                    [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80]]
        var cases = 0
        for group in [1, 2, 15, 16, 17, 32, 62, 63, 64, 125, 126, 127] {
            // Groups start at 3, where the loops start.
            let boundary = 3 + group * 128
            for sequence in sequences {
                for shift in 0...sequence.count {
                    var text = [UInt8](repeating: UInt8(ascii: "a"), count: 3 + 130 * 128)
                    let start = boundary - sequence.count + shift
                    text.replaceSubrange(start..<start + sequence.count, with: sequence)
                    let valid = String(validating: text, as: UTF8.self) != nil
                    let verdicts = text.withUnsafeBytes { raw -> [Bool] in
                        guard let base = raw.baseAddress else { return [] }
                        let prefix = AVX2.validUTF8Prefix(text: base, from: 3, count: raw.count)
                        let counted = AVX2.validUTF8Counts(text: base, from: 3, count: raw.count).position
                        return [prefix, counted].map { $0 >= 0 && String(validating: text[$0...], as: UTF8.self) != nil }
                    }
                    #expect(verdicts == [valid, valid], "\(sequence) at \(start), group \(group)")
                    cases += 1
                }
            }
        }
        #expect(cases > 200)
    }

    /// The line masks against the bytes: every lane of random blocks of line feeds, carriage returns, continuation
    /// bytes and four-byte leads among ASCII.
    @Test func lineMasksAgreeWithTheBytes() {
        var generator = SplitMix64(seed: 0x4C_49_4E_45)
        let bytes: [UInt8] = [0x0A, 0x0D, 0x41, 0x20, 0x80, 0xBF, 0xC3, 0xE2, 0xF0, 0xF4, 0xFF]
        for _ in 0..<500 {
            let text = (0..<(64 + generator.next(below: 64))).map { _ in bytes[generator.next(below: bytes.count)] }
            let position = generator.next(below: text.count - 63)
            func mask(_ test: (UInt8) -> Bool) -> UInt64 {
                (0..<64).reduce(UInt64(0)) { test(text[position + $1]) ? $0 | 1 << UInt64($1) : $0 }
            }
            let masks = text.withUnsafeBytes { text in text.baseAddress.map { AVX2.lineMasks(text: $0, at: position) } }
            #expect(masks?.lineFeeds == mask { $0 == 0x0A })
            #expect(masks?.carriageReturns == mask { $0 == 0x0D })
            #expect(masks?.continuations == mask { $0 & 0xC0 == 0x80 })
            #expect(masks?.fourByteLeads == mask { $0 >= 0xF0 })
        }
    }

    /// The end of a JSON string's plain bytes against the bytes: every kind of byte at every lane, ranges of any length.
    @Test func jsonStringSpecialsAgreeWithTheBytes() {
        var generator = SplitMix64(seed: 0x4A_53_4F_4E)
        let bytes: [UInt8] = [0x41, 0x20, 0x7E, 0x22, 0x5C, 0x00, 0x1F, 0x0A, 0x80, 0xC3, 0xFF]
        for _ in 0..<2_000 {
            // Mostly plain bytes, so that the byte looked for falls anywhere, or nowhere.
            let text = (0..<generator.next(below: 200)).map { _ in
                generator.next(below: 12) == 0 ? bytes[generator.next(below: bytes.count)] : UInt8(ascii: "a")
            }
            let from = generator.next(below: text.count + 1)
            let found = text.withUnsafeBytes { text in
                text.baseAddress.map { AVX2.jsonStringSpecial(text: $0, from: from, end: text.count) }
            }
            guard let found else { continue }
            let special = text[from...].firstIndex { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }
            if let special, found.position == special {
                #expect(found.sawNonASCII == text[from..<special].contains { $0 >= 0x80 })
            } else {
                // No byte looked for in the whole steps: they stop with fewer than thirty-two bytes left.
                #expect(text.count - found.position < 32 && found.position >= from)
                #expect(special.map { $0 >= found.position } ?? true)
                #expect(found.sawNonASCII == text[from..<found.position].contains { $0 >= 0x80 })
            }
        }
    }
}
