// Building line records from bytes, shared by the full build and by edits.
//
// Where the CPU has AVX2, a block of sixty-four bytes without `\r` or a byte >= 0x80 (the
// usual case in source code) is taken whole: its line feeds come as one mask, a line per set
// bit. Elsewhere, and past a block that is not plain, the scanner looks at eight bytes at a
// time: a word without `\n`, `\r` or a byte >= 0x80 is skipped whole. Each test is the classic "does this word
// have a zero byte" bit trick, `(x - 0x01...) & ~x & 0x80...`, applied to the word XOR-ed
// with the byte being looked for; it is exact about whether there is one, so a word that
// fails it is rescanned byte by byte.

import CPUFeatures
import VectorKernels

extension LineIndex {
    /// The records of the lines of part of a text, as `LineIndex` keeps them.
    struct ScannedLines {
        var starts: [Int] = []
        var shapes: [LineShape] = []
        var wideStarts: [Int] = []
        var wideCharacters: [WideCharacter] = []
        var loneCarriageReturnCount = 0

        init(expectedLineCount: Int = 0) {
            starts.reserveCapacity(expectedLineCount)
            shapes.reserveCapacity(expectedLineCount)
        }

        /// Appends the lines of `text[utf8Range]` and returns the offset where the unterminated
        /// rest begins.
        ///
        /// When `isDocumentEnd` is true the range runs to the end of the text and the rest (maybe
        /// empty) is appended as the last line. Otherwise the range should end just after a line
        /// terminator, and the returned offset equals `utf8Range.upperBound` when it does.
        ///
        /// A `\r` at the end of the range is taken as a lone `\r`; callers make sure it is not the
        /// first half of a `\r\n` pair.
        ///
        /// - Complexity: O(*n*) in the length of the range.
        mutating func scan(
            _ text: UnsafeBufferPointer<UInt8>, utf8Range: Range<Int>, isDocumentEnd: Bool,
            usesAVX2: Bool = VectorUnit.hasAVX2
        ) -> Int {
            let end = min(max(utf8Range.upperBound, 0), text.count)
            var index = min(max(utf8Range.lowerBound, 0), end)
            var lineStart = index
            // Where the current line's wide characters begin in `wideCharacters`.
            var lineWideStart = wideCharacters.count
            let raw = UnsafeRawBufferPointer(text)
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highBits: UInt64 = 0x8080_8080_8080_8080
            let lineFeeds = ones &* 0x0A
            let carriageReturns = ones &* 0x0D

            /// Ends the current line with `terminator`; the next starts at `next`.
            func endLine(_ terminator: LineShape.Terminator, next: Int) {
                starts.append(lineStart)
                shapes.append(LineShape(terminator, hasWideCharacters: wideCharacters.count > lineWideStart))
                lineStart = next
                lineWideStart = wideCharacters.count
            }

            while index < end {
                if usesAVX2, let base = raw.baseAddress, end - index >= 64 {
                    // The starts of the lines in plain blocks come a batch at a time.
                    index = withUnsafeTemporaryAllocation(of: Int.self, capacity: 1024) { found in
                        var index = index
                        while let buffer = found.baseAddress {
                            let run = AVX2.plainLineStarts(text: base, from: index, end: end, starts: buffer, capacity: found.count)
                            index = run.position
                            guard run.count > 0 else { break }
                            endLine(.lineFeed, next: found[0])
                            starts.append(contentsOf: found[0..<(run.count - 1)])
                            shapes.append(contentsOf: repeatElement(LineShape(.lineFeed, hasWideCharacters: false), count: run.count - 1))
                            lineStart = found[run.count - 1]
                            // A run ends short of a full batch at a block that is not plain, or near `end`.
                            if found.count - run.count >= 64 { break }
                        }
                        return index
                    }
                }
                while end - index >= 8 {
                    let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    let lineFeedBytes = word ^ lineFeeds
                    let carriageReturnBytes = word ^ carriageReturns
                    let flags =
                        ((lineFeedBytes &- ones) & ~lineFeedBytes) | ((carriageReturnBytes &- ones) & ~carriageReturnBytes)
                        | word
                    if flags & highBits != 0 { break }
                    index += 8
                }
                guard index < end else { break }

                let byte = text[index]
                if byte == 0x0A {
                    index += 1
                    endLine(.lineFeed, next: index)
                } else if byte == 0x0D {
                    index += 1
                    if index < end, text[index] == 0x0A {
                        index += 1
                        endLine(.carriageReturnLineFeed, next: index)
                    } else {
                        loneCarriageReturnCount += 1
                        endLine(.loneCarriageReturn, next: index)
                    }
                } else if byte < 0x80 {
                    index += 1
                } else {
                    let length = LineIndex.characterLength(in: text, at: index, end: end)
                    wideStarts.append(index)
                    wideCharacters.append(
                        WideCharacter(utf8Length: length, after: wideCharacters.count > lineWideStart ? wideCharacters.last : nil))
                    index += length
                }
            }
            if isDocumentEnd {
                endLine(.none, next: end)
                return end
            }
            return lineStart
        }

    }

    /// The UTF-8 length of the character whose first byte (>= 0x80) is at `index`.
    ///
    /// The length comes from the lead byte, but only continuation bytes (0b10xxxxxx) are taken
    /// into the character: a stray or cut-off byte of invalid input is a character of its own,
    /// so a character never swallows a line terminator and lines are scanned the same way
    /// whatever range they are scanned in.
    @inline(__always)
    static func characterLength(in text: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> Int {
        let expected: Int
        switch text[index] {
        case 0xC0...0xDF: expected = 2
        case 0xE0...0xEF: expected = 3
        case 0xF0...0xF7: expected = 4
        default: return 1
        }
        guard end - index >= expected else { return 1 }
        var next = index + 1
        while next < index + expected {
            guard text[next] & 0xC0 == 0x80 else { return 1 }
            next += 1
        }
        return expected
    }
}
