// Lines and columns of many offsets of a text in one forward pass, without a line index.
//
// Scanning a file for matches yields UTF-8 offsets, sorted. Turning them into lines and
// columns walks the text once, from each offset to the next, counting line terminators and
// the UTF-16 and UTF-32 units of the bytes in between. Sixty-four bytes without a `\r` (the
// usual case) are taken at once: their line feeds are counted with vector compares, and so
// are continuation bytes and four-byte leads where the block is not all ASCII; the last line
// feed of a run of such blocks marks the line start. Any other sixteen bytes are taken at
// once too, and a `\r` is a break when the byte after it is not `\n`, so CRLF files stay on
// the vector path. The cost is a few vector operations per sixteen bytes up to the last
// offset, whatever the line lengths and the characters, and nothing per match beyond its own
// bytes. Where the CPU has AVX2, VectorKernels counts the runs without a `\r`, and any other
// step of up to sixty-four bytes is counted from the block's bit masks (line feeds, `\r`s,
// continuation bytes, four-byte leads), so a step to a nearby match costs one block. An open
// document has a `LineIndex` instead; both agree, and the differential tests
// check that they do.

import CPUFeatures
import VectorKernels

/// A place in a text, in every unit a client may count in.
///
/// Lines are zero-based and end at `\n`, `\r\n` or a lone `\r`; columns are zero-based and
/// count from the start of the line. A point never lies between the `\r` and `\n` of one
/// terminator: such an offset is taken as the end of the line's content, as `LineIndex` does.
public struct TextPoint: Sendable, Hashable {
    /// The zero-based line.
    public var line: Int
    /// UTF-8 code units (bytes) from the start of the text.
    public var utf8Offset: Int
    /// UTF-16 code units from the start of the text.
    public var utf16Offset: Int
    /// Unicode scalars from the start of the text.
    public var utf32Offset: Int
    /// The zero-based column in UTF-8 code units.
    public var utf8Column: Int
    /// The zero-based column in UTF-16 code units.
    public var utf16Column: Int
    /// The zero-based column in Unicode scalars.
    var utf32Column: Int

    public init(
        line: Int, utf8Offset: Int, utf16Offset: Int, utf32Offset: Int, utf8Column: Int, utf16Column: Int, utf32Column: Int
    ) {
        self.line = line
        self.utf8Offset = utf8Offset
        self.utf16Offset = utf16Offset
        self.utf32Offset = utf32Offset
        self.utf8Column = utf8Column
        self.utf16Column = utf16Column
        self.utf32Column = utf32Column
    }

    /// The start of a text.
    public static let start = TextPoint(line: 0, utf8Offset: 0, utf16Offset: 0, utf32Offset: 0, utf8Column: 0, utf16Column: 0, utf32Column: 0)

    /// This point of a chunk of a text, counted from the start of the whole text instead, where the chunk begins at
    /// `chunkStart`: lines and offsets add up, and so do columns on the chunk's first line.
    public func counted(from chunkStart: TextPoint) -> TextPoint {
        TextPoint(
            line: chunkStart.line + line, utf8Offset: chunkStart.utf8Offset + utf8Offset,
            utf16Offset: chunkStart.utf16Offset + utf16Offset, utf32Offset: chunkStart.utf32Offset + utf32Offset,
            utf8Column: line == 0 ? chunkStart.utf8Column + utf8Column : utf8Column,
            utf16Column: line == 0 ? chunkStart.utf16Column + utf16Column : utf16Column,
            utf32Column: line == 0 ? chunkStart.utf32Column + utf32Column : utf32Column)
    }

    /// The zero-based column in the units of `encoding`.
    public func character(in encoding: PositionEncoding) -> Int {
        switch encoding {
        case .utf8: return utf8Column
        case .utf16: return utf16Column
        case .utf32: return utf32Column
        }
    }

    /// The LSP position of the point in `encoding`.
    public func position(in encoding: PositionEncoding) -> Position {
        Position(line: line, character: character(in: encoding))
    }

    /// The points of `utf8Offsets`, which must not decrease, in one pass over `text` up to the last offset.
    ///
    /// Offsets are clamped to the text; `text` should be valid UTF-8 (any bytes are counted by
    /// their lead bits, so invalid text yields consistent if meaningless columns).
    /// - Complexity: O(*n*) in the bytes up to the last offset, sixteen ASCII bytes per step.
    /// Where the CPU has AVX2 (and `usesAVX2`, which tests turn off), the runs without a `\r` go sixty-four bytes a
    /// step in VectorKernels' loop, and shorter steps through one block's bit masks.
    ///
    /// With `landmarks` (sorted, of a text that holds no `\r`), the walk to a far offset resumes at the last landmark
    /// before it instead: only the line's start before the landmark is looked for, and the bytes from there counted.
    public static func points(
        ofUTF8Offsets utf8Offsets: [Int], in text: UnsafeBufferPointer<UInt8>, landmarks: [Landmark] = [], usesAVX2: Bool = true
    ) -> [TextPoint] {
        var walker = Walker(text: text, usesAVX2: usesAVX2 && VectorUnit.hasAVX2)
        guard !landmarks.isEmpty else { return utf8Offsets.map { walker.point(atUTF8Offset: $0) } }
        var next = 0
        return utf8Offsets.map { offset in
            // The last landmark at or before the offset, if the walk would otherwise go far to reach it.
            var last: Landmark?
            while next < landmarks.count, landmarks[next].utf8Offset <= offset {
                last = landmarks[next]
                next += 1
            }
            if let last, last.utf8Offset - walker.position >= Walker.farthestWalk { walker.resume(at: last) }
            return walker.point(atUTF8Offset: offset)
        }
    }

    /// The UTF-16 and UTF-32 units of `bytes` (UTF-8): a scalar a lead or ASCII byte, and a second UTF-16 unit for
    /// a four-byte one.
    public static func units(of bytes: UnsafeBufferPointer<UInt8>) -> (utf16: Int, utf32: Int) {
        var utf16 = 0
        var utf32 = 0
        for byte in bytes where byte & 0xC0 != 0x80 {
            utf32 += 1
            utf16 += byte >= 0xF0 ? 2 : 1
        }
        return (utf16, utf32)
    }

    /// Where a pass that counted a text's line feeds and units stood: the line and offsets are known there, the column
    /// is not (see `points(ofUTF8Offsets:in:landmarks:usesAVX2:)`).
    public struct Landmark: Sendable, Hashable {
        public var utf8Offset: Int
        /// The line feeds before the landmark.
        public var line: Int
        public var utf16Offset: Int
        public var utf32Offset: Int

        public init(utf8Offset: Int, line: Int, utf16Offset: Int, utf32Offset: Int) {
            self.utf8Offset = utf8Offset
            self.line = line
            self.utf16Offset = utf16Offset
            self.utf32Offset = utf32Offset
        }
    }

    /// Walks forward through a text, keeping the point it has reached.
    private struct Walker {
        let text: UnsafeBufferPointer<UInt8>
        var position = 0
        var line = 0
        var lineStart = TextPoint(line: 0, utf8Offset: 0, utf16Offset: 0, utf32Offset: 0, utf8Column: 0, utf16Column: 0, utf32Column: 0)
        var utf16Offset = 0
        var utf32Offset = 0

        /// Whether the runs of blocks without a `\r` go through the AVX2 loop.
        let usesAVX2: Bool

        init(text: UnsafeBufferPointer<UInt8>, usesAVX2: Bool) {
            self.text = text
            self.usesAVX2 = usesAVX2
        }

        /// A landmark this much further on is resumed at rather than walked to.
        static let farthestWalk = 1024

        /// Goes on from `landmark` (at or after the walk, in a text with no `\r`): the line start is the last line feed
        /// before it, if one lies between the walk and the landmark (else the walk's own still holds), its units are
        /// the landmark's minus those of the bytes in between. Does nothing when that line feed is more than
        /// `farthestWalk` bytes back: a walk is then as cheap.
        mutating func resume(at landmark: Landmark) {
            guard landmark.utf8Offset > position, landmark.utf8Offset <= text.count else { return }
            var lineStart = landmark.utf8Offset
            while lineStart > position, text[lineStart - 1] != 0x0A {
                guard landmark.utf8Offset - lineStart < Self.farthestWalk else { return }
                lineStart -= 1
            }
            if lineStart > position {
                let (utf16, utf32) = TextPoint.units(of: UnsafeBufferPointer(rebasing: text[lineStart..<landmark.utf8Offset]))
                self.lineStart = TextPoint(
                    line: landmark.line, utf8Offset: lineStart, utf16Offset: landmark.utf16Offset - utf16,
                    utf32Offset: landmark.utf32Offset - utf32, utf8Column: 0, utf16Column: 0, utf32Column: 0)
            }
            position = landmark.utf8Offset
            line = landmark.line
            utf16Offset = landmark.utf16Offset
            utf32Offset = landmark.utf32Offset
        }

        mutating func point(atUTF8Offset requested: Int) -> TextPoint {
            var target = min(max(requested, position), text.count)
            // Between the `\r` and `\n` of one terminator: the end of the line's content.
            if target > 0, target < text.count, text[target] == 0x0A, text[target - 1] == 0x0D { target -= 1 }
            advance(to: target)
            return TextPoint(
                line: line, utf8Offset: position, utf16Offset: utf16Offset, utf32Offset: utf32Offset,
                utf8Column: position - lineStart.utf8Offset, utf16Column: utf16Offset - lineStart.utf16Offset,
                utf32Column: utf32Offset - lineStart.utf32Offset)
        }

        /// Advances by up to sixty-four bytes (a block must be readable at `position`) through their masks: a line break
        /// is a `\n`, or a `\r` whose next byte is not `\n` (the byte after the block read from the text); the last
        /// break in the lanes taken starts the line.
        @inline(__always)
        private mutating func advanceThroughBlock(to target: Int, _ raw: UnsafeRawPointer) {
            let masks = AVX2.lineMasks(text: raw, at: position)
            let count = min(64, target - position)
            let taken = count == 64 ? UInt64.max : (1 &<< UInt64(count)) &- 1
            var followedByLineFeed = masks.lineFeeds &>> 1
            if position + 64 < text.count, text[position + 64] == 0x0A { followedByLineFeed |= 1 &<< 63 }
            let breaks = (masks.lineFeeds | (masks.carriageReturns & ~followedByLineFeed)) & taken
            let scalars = ~masks.continuations & taken
            let fourByteLeads = masks.fourByteLeads & taken
            if breaks != 0 {
                let lastBreak = 63 - breaks.leadingZeroBitCount
                let before = lastBreak == 63 ? UInt64.max : (1 &<< UInt64(lastBreak + 1)) &- 1
                let scalarsBefore = (scalars & before).nonzeroBitCount
                line += breaks.nonzeroBitCount
                lineStart = TextPoint(
                    line: line, utf8Offset: position + lastBreak + 1,
                    utf16Offset: utf16Offset + scalarsBefore + (fourByteLeads & before).nonzeroBitCount,
                    utf32Offset: utf32Offset + scalarsBefore, utf8Column: 0, utf16Column: 0, utf32Column: 0)
            }
            position += count
            utf16Offset += scalars.nonzeroBitCount + fourByteLeads.nonzeroBitCount
            utf32Offset += scalars.nonzeroBitCount
        }

        /// The last lane of `lanes` that is not zero, or nil.
        @inline(__always)
        private static func lastNonZeroLane(_ lanes: SIMD16<UInt8>) -> Int? {
            let (low, high) = words(of: lanes)
            if high != 0 { return 15 - high.leadingZeroBitCount / 8 }
            if low != 0 { return 7 - low.leadingZeroBitCount / 8 }
            return nil
        }

        /// The lanes where four comparisons held, counted: each is 0xFF (minus one) where it holds, so the negated
        /// sum holds at most 4 a lane; each byte of the two words' sum is then at most 8, and all of them at most
        /// 64, so the multiplication adds the bytes into the top one without a carry.
        @inline(__always)
        private static func sumOfCounts(
            _ a: SIMDMask<SIMD16<Int8>>, _ b: SIMDMask<SIMD16<Int8>>, _ c: SIMDMask<SIMD16<Int8>>, _ d: SIMDMask<SIMD16<Int8>>
        ) -> Int {
            let zero = SIMD16<UInt8>(repeating: 0)
            let lanes = zero &- (zero.replacing(with: 0xFF, where: a) &+ zero.replacing(with: 0xFF, where: b)
                &+ zero.replacing(with: 0xFF, where: c) &+ zero.replacing(with: 0xFF, where: d))
            let (low, high) = words(of: lanes)
            return Int(((low &+ high) &* 0x0101_0101_0101_0101) &>> 56)
        }

        /// The lanes as signed bytes.
        @inline(__always)
        private static func signed(_ lanes: SIMD16<UInt8>) -> SIMD16<Int8> {
            SIMD16<Int8>(truncatingIfNeeded: lanes)
        }

        /// The smaller of each pair of lanes (`pminub`).
        @inline(__always)
        private static func minimum(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>) -> SIMD16<UInt8> {
            a.replacing(with: b, where: b .< a)
        }

        /// The number of lanes of `lanes` that are 1 (each lane must be 0 or 1).
        @inline(__always)
        private static func laneCount(_ lanes: SIMD16<UInt8>) -> Int {
            let (low, high) = words(of: lanes)
            return low.nonzeroBitCount + high.nonzeroBitCount
        }

        /// The low and high eight lanes of `lanes` as little-endian words.
        @inline(__always)
        private static func words(of lanes: SIMD16<UInt8>) -> (UInt64, UInt64) {
            withUnsafeBytes(of: lanes) { bytes in
                (UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self)),
                 UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
            }
        }

        private mutating func advance(to target: Int) {
            guard let base = text.baseAddress else { return }
            let raw = UnsafeRawPointer(base)
            let lineFeeds = SIMD16<UInt8>(repeating: 0x0A)
            let carriageReturns = SIMD16<UInt8>(repeating: 0x0D)
            let highBit = SIMD16<UInt8>(repeating: 0x80)
            let zero = SIMD16<UInt8>(repeating: 0)
            let continuationMask = SIMD16<UInt8>(repeating: 0xC0)
            let continuationBits = SIMD16<UInt8>(repeating: 0x80)
            let fourByteLead = SIMD16<UInt8>(repeating: 0xF0)
            let belowLeads = SIMD16<Int8>(repeating: -64)
            let laneIndices = SIMD16<UInt8>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
            walk: while position < target {
                // Sixty-four bytes at a time while they hold no `\r`: one test for all four vectors, the line
                // feeds summed lane by lane and then across the lanes, and, in a block that is not all ASCII,
                // the continuation bytes (no unit) and four-byte leads (a second UTF-16 unit) likewise. The line
                // start is found once, after the run: the last line feed lies in the last block that had one.
                let runStart = position
                var lastBlockWithLineFeed = -1
                var lastNonASCIIBlock = -1
                if usesAVX2 {
                    let run = AVX2.lineRun(text: raw, from: position, end: target)
                    line += run.lineFeeds
                    utf32Offset += run.position - position - run.continuations
                    utf16Offset += run.position - position - run.continuations + run.fourByteLeads
                    lastBlockWithLineFeed = run.lastBlockWithLineFeed
                    lastNonASCIIBlock = run.lastNonASCIIBlock
                    position = run.position
                }
                while target - position >= 64 {
                    let chunks = (
                        raw.loadUnaligned(fromByteOffset: position, as: SIMD16<UInt8>.self),
                        raw.loadUnaligned(fromByteOffset: position + 16, as: SIMD16<UInt8>.self),
                        raw.loadUnaligned(fromByteOffset: position + 32, as: SIMD16<UInt8>.self),
                        raw.loadUnaligned(fromByteOffset: position + 48, as: SIMD16<UInt8>.self))
                    // A lane-wise minimum of differences is zero where some vector holds a `\r`.
                    let returnDistance = Self.minimum(
                        Self.minimum(chunks.0 ^ carriageReturns, chunks.1 ^ carriageReturns),
                        Self.minimum(chunks.2 ^ carriageReturns, chunks.3 ^ carriageReturns))
                    let (returnsLow, returnsHigh) = Self.words(of: zero.replacing(with: 0xFF, where: returnDistance .== zero))
                    guard returnsLow | returnsHigh == 0 else { break }
                    let count = Self.sumOfCounts(
                        chunks.0 .== lineFeeds, chunks.1 .== lineFeeds, chunks.2 .== lineFeeds, chunks.3 .== lineFeeds)
                    if count != 0 {
                        line += count
                        lastBlockWithLineFeed = position
                    }
                    let (highLow, highHigh) = Self.words(of: (chunks.0 | chunks.1 | chunks.2 | chunks.3) & highBit)
                    if highLow | highHigh == 0 {
                        utf16Offset += 64
                        utf32Offset += 64
                    } else {
                        // Continuation bytes are 0x80...0xBF: below -64 as signed bytes.
                        let continuations = Self.sumOfCounts(
                            Self.signed(chunks.0) .< belowLeads, Self.signed(chunks.1) .< belowLeads,
                            Self.signed(chunks.2) .< belowLeads, Self.signed(chunks.3) .< belowLeads)
                        let fourByteLeads = Self.sumOfCounts(
                            chunks.0 .>= fourByteLead, chunks.1 .>= fourByteLead, chunks.2 .>= fourByteLead,
                            chunks.3 .>= fourByteLead)
                        utf32Offset += 64 - continuations
                        utf16Offset += 64 - continuations + fourByteLeads
                        lastNonASCIIBlock = position
                    }
                    position += 64
                }
                if lastBlockWithLineFeed >= runStart {
                    var lineFeed = lastBlockWithLineFeed + 63
                    while text[lineFeed] != 0x0A { lineFeed -= 1 }
                    // The units after the line feed: one a byte when the blocks from there on are ASCII.
                    var after16 = position - lineFeed - 1
                    var after32 = after16
                    if lastNonASCIIBlock >= lastBlockWithLineFeed {
                        (after16, after32) = TextPoint.units(of: UnsafeBufferPointer(rebasing: text[(lineFeed + 1)..<position]))
                    }
                    lineStart = TextPoint(
                        line: line, utf8Offset: lineFeed + 1, utf16Offset: utf16Offset - after16,
                        utf32Offset: utf32Offset - after32, utf8Column: 0, utf16Column: 0, utf32Column: 0)
                }
                // With AVX2, any other step of up to sixty-four bytes goes through the block's masks.
                if usesAVX2, position < target, text.count - position >= 64 {
                    advanceThroughBlock(to: target, raw)
                    continue walk
                }
                // Any sixteen bytes: line breaks, UTF-16 and UTF-32 units counted lane by lane. A line
                // break is a `\n`, or a `\r` whose next byte (read from the text one byte further on)
                // is not `\n`; the last break starts the line, and the units before it give its offsets.
                while target - position >= 16 {
                    let chunk = raw.loadUnaligned(fromByteOffset: position, as: SIMD16<UInt8>.self)
                    var breaks = zero.replacing(with: 1, where: chunk .== lineFeeds)
                    let returns = zero.replacing(with: 1, where: chunk .== carriageReturns)
                    if Self.laneCount(returns) != 0 {
                        // The byte after the last lane must exist; at the text's end the bytes go one by one.
                        guard text.count - position >= 17 else { break }
                        let next = raw.loadUnaligned(fromByteOffset: position + 1, as: SIMD16<UInt8>.self)
                        breaks |= returns & zero.replacing(with: 1, where: next .!= lineFeeds)
                    }
                    // Continuation bytes add no unit; a four-byte lead adds a second UTF-16 unit.
                    let scalarStarts = zero.replacing(with: 1, where: (chunk & continuationMask) .!= continuationBits)
                    let fourByteLeads = zero.replacing(with: 1, where: chunk .>= fourByteLead)
                    let scalars = Self.laneCount(scalarStarts)
                    let extraUTF16 = Self.laneCount(fourByteLeads)
                    let breakCount = Self.laneCount(breaks)
                    if breakCount != 0, let lastBreak = Self.lastNonZeroLane(breaks) {
                        line += breakCount
                        // The lanes up to the last break, whose units come before the new line's start.
                        let before = zero.replacing(with: 1, where: laneIndices .<= SIMD16<UInt8>(repeating: UInt8(lastBreak)))
                        let scalarsBefore = Self.laneCount(scalarStarts & before)
                        lineStart = TextPoint(
                            line: line, utf8Offset: position + lastBreak + 1,
                            utf16Offset: utf16Offset + scalarsBefore + Self.laneCount(fourByteLeads & before),
                            utf32Offset: utf32Offset + scalarsBefore, utf8Column: 0, utf16Column: 0, utf32Column: 0)
                    }
                    position += 16
                    utf16Offset += scalars + extraUTF16
                    utf32Offset += scalars
                    // Back to the sixty-four-byte steps once a chunk holds no `\r` again.
                    if Self.laneCount(returns) == 0 { continue walk }
                }
                guard position < target else { return }
                let byte = text[position]
                position += 1
                if byte < 0x80 {
                    utf16Offset += 1
                    utf32Offset += 1
                    if byte == 0x0A || (byte == 0x0D && (position >= text.count || text[position] != 0x0A)) {
                        line += 1
                        lineStart = TextPoint(
                            line: line, utf8Offset: position, utf16Offset: utf16Offset, utf32Offset: utf32Offset,
                            utf8Column: 0, utf16Column: 0, utf32Column: 0)
                    }
                } else if byte >= 0xC0 {
                    // A lead byte starts a scalar; four-byte scalars are two UTF-16 units.
                    utf16Offset += byte >= 0xF0 ? 2 : 1
                    utf32Offset += 1
                }
            }
        }
    }
}
