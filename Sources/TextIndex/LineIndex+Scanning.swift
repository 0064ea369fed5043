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
    /// Appends the lines of `text[utf8Range]` to `lines`, and where they start to `starts`, and
    /// returns the offset where the unterminated rest begins.
    ///
    /// When `isDocumentEnd` is true the range runs to the end of the text and the rest (maybe
    /// empty) is appended as the last line. Otherwise the range should end just after a line
    /// terminator, and the returned offset equals `utf8Range.upperBound` when it does.
    ///
    /// A `\r` at the end of the range is taken as a lone `\r`; callers make sure it is not the
    /// first half of a `\r\n` pair.
    ///
    /// - Complexity: O(*n*) in the length of the range.
    static func scanLines(
        in text: UnsafeBufferPointer<UInt8>, utf8Range: Range<Int>, isDocumentEnd: Bool, into lines: inout [Line],
        starts: inout [Int], usesAVX2: Bool = VectorUnit.hasAVX2
    ) -> Int {
        let end = min(max(utf8Range.upperBound, 0), text.count)
        var index = min(max(utf8Range.lowerBound, 0), end)
        var lineStart = index
        // A scratch list reused across lines; each line gets an exact-size copy, so a line with
        // many non-ASCII characters costs one allocation instead of one per growth step.
        var wideCharacters: [WideCharacter] = []
        let raw = UnsafeRawBufferPointer(text)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let lineFeeds = ones &* 0x0A
        let carriageReturns = ones &* 0x0D

        while index < end {
            if usesAVX2, let base = raw.baseAddress {
                while end - index >= 64 {
                    let block = AVX2.plainLineFeeds(text: base, at: index)
                    guard block.isPlain else { break }
                    var lineFeeds = block.lineFeeds
                    while lineFeeds != 0 {
                        let lineEnd = index + lineFeeds.trailingZeroBitCount
                        starts.append(lineStart)
                        lines.append(Line(utf8ContentLength: lineEnd - lineStart, wideCharacters: takeCopy(of: &wideCharacters)))
                        lineStart = lineEnd + 1
                        lineFeeds &= lineFeeds &- 1
                    }
                    index += 64
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
                starts.append(lineStart)
                    lines.append(
                    Line(
                        utf8ContentLength: index - lineStart,
                        wideCharacters: takeCopy(of: &wideCharacters)))
                index += 1
                lineStart = index
            } else if byte == 0x0D {
                let contentEnd = index
                index += 1
                if index < end, text[index] == 0x0A { index += 1 }
                starts.append(lineStart)
                    lines.append(
                    Line(
                        utf8ContentLength: contentEnd - lineStart,
                        wideCharacters: takeCopy(of: &wideCharacters)))
                lineStart = index
            } else if byte < 0x80 {
                index += 1
            } else {
                let length = characterLength(in: text, at: index, end: end)
                wideCharacters.append(
                    WideCharacter(utf8OffsetInLine: index - lineStart, utf8Length: length, after: wideCharacters.last))
                index += length
            }
        }
        if isDocumentEnd {
            starts.append(lineStart)
                lines.append(
                Line(
                    utf8ContentLength: end - lineStart,
                    wideCharacters: takeCopy(of: &wideCharacters)))
            return end
        }
        return lineStart
    }

    /// An exact-size copy of `scratch` (no allocation when it is empty), leaving `scratch` empty
    /// with its capacity kept.
    @inline(__always)
    static func takeCopy(of scratch: inout [WideCharacter]) -> [WideCharacter] {
        if scratch.isEmpty { return [] }
        let copy = [WideCharacter](unsafeUninitializedCapacity: scratch.count) { buffer, initializedCount in
            initializedCount = buffer.initialize(fromContentsOf: scratch)
        }
        scratch.removeAll(keepingCapacity: true)
        return copy
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
