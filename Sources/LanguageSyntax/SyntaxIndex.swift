// The comment and string regions of a whole document, kept current across edits.
//
// The index stores where each line starts; apart, by where they start, the
// lexer state of each line that does not start in code, and the regions of the
// whole text (a region never holds a line terminator, so a comment over three
// lines is three regions).
// After an edit it re-scans from the line before the edit, in the new text,
// until it reaches a line start beyond the edit whose (shifted) offset and
// state equal a cached line's: from there on every line is as before, and the
// starts of the lines, states and regions after it move lazily (`ShiftingOffsets`).
//
//     old  | a | b /* | c | d | e */ | f |      edit in line 1 removes `/*`
//     new  | a | b    | c | d | e */ | f |      re-scan 1..4 (states differ), converge at 5

import TextIndex

/// The scope of every byte of a document in one language, updated incrementally after edits.
///
/// A match is in a scope when its first byte is (`scope(ofUTF8Range:)`): `TODO` starting inside a
/// comment is a comment match even if a regex runs past the comment's end.
public struct SyntaxIndex: Sendable {
    /// The language's syntax.
    let syntax: LanguageSyntax
    /// The UTF-8 offset where each line starts; lines end after `\n`, `\r\n` or a lone `\r`.
    public private(set) var lineStarts: ShiftingOffsets
    /// Where each line starts that does not start in code, in text order.
    private var stateStarts: ShiftingOffsets
    /// The lexer state at each of those line starts, in step with `stateStarts`.
    private var states: [LexState]
    /// Where each region starts, in text order.
    private var regionStarts: ShiftingOffsets
    /// Each region's length and scope, in step with `regionStarts`.
    private var regionSpans: [RegionSpan]

    /// A region's length and scope; where it starts is kept apart (`regionStarts`).
    private struct RegionSpan: Sendable {
        var utf8Count: Int
        var scope: Scope
    }

    /// The lines of part of a text, scanned: what the index keeps of them.
    private struct ScannedLines {
        var lineStarts: [Int] = []
        var stateStarts: [Int] = []
        var states: [LexState] = []
        var regionStarts: [Int] = []
        var regionSpans: [RegionSpan] = []
        /// One line's regions, relative to its start, reused from line to line so that a line allocates nothing.
        var lineRegions: [ScopeRegion] = []

        /// Scans the line `range` of `text` from `state`, keeps it, and returns the state after it.
        mutating func scanLine(_ syntax: LanguageSyntax, _ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ state: LexState)
            -> LexState
        {
            lineRegions.removeAll(keepingCapacity: true)
            let endState = syntax.scan(line: UnsafeBufferPointer(rebasing: text[range]), from: state, into: &lineRegions)
            lineStarts.append(range.lowerBound)
            if state != .code {
                stateStarts.append(range.lowerBound)
                states.append(state)
            }
            for region in lineRegions {
                regionStarts.append(range.lowerBound + region.utf8Range.lowerBound)
                regionSpans.append(RegionSpan(utf8Count: region.utf8Range.count, scope: region.scope))
            }
            return endState
        }
    }

    /// Scans the whole text.
    ///
    /// - Complexity: O(n) in the text.
    public init(syntax: LanguageSyntax, text: UnsafeBufferPointer<UInt8>) {
        self.syntax = syntax
        var scanned = ScannedLines()
        var start = 0
        var state = LexState.code
        while true {
            let next = Self.nextLineStart(in: text, from: start)
            state = scanned.scanLine(syntax, text, start..<next, state)
            if next >= text.count { break }
            start = next
        }
        lineStarts = ShiftingOffsets(scanned.lineStarts)
        stateStarts = ShiftingOffsets(scanned.stateStarts)
        states = scanned.states
        regionStarts = ShiftingOffsets(scanned.regionStarts)
        regionSpans = scanned.regionSpans
    }

    /// Scans the whole text (an array of UTF-8 bytes).
    init(syntax: LanguageSyntax, text: [UInt8]) {
        self = text.withUnsafeBufferPointer { SyntaxIndex(syntax: syntax, text: $0) }
    }

    /// Brings the index up to date after `utf8Range` of the old text was replaced by `utf8Count` bytes, giving `newText`.
    ///
    /// Returns the range of lines (in the new text) that were re-scanned. A range outside the old text is clamped.
    ///
    /// - Complexity: O(re-scanned bytes + lines), where re-scanning stops as soon as states converge.
    @discardableResult
    public mutating func update(
        afterReplacing utf8Range: Range<Int>, withUTF8Count utf8Count: Int, in newText: UnsafeBufferPointer<UInt8>
    ) -> Range<Int> {
        let oldCount = newText.count - utf8Count + utf8Range.count
        let lower = min(max(utf8Range.lowerBound, 0), oldCount)
        let upper = min(max(utf8Range.upperBound, lower), oldCount)
        let delta = utf8Count - (upper - lower)

        // The line before the edit's line too: an edit right after `\r` can join it with `\n`.
        let firstLine = max(0, line(containingUTF8Offset: max(lower - 1, 0)))
        let editEndInNew = lower + utf8Count
        var scanned = ScannedLines()
        let rescanStart = lineStarts[firstLine]
        var start = rescanStart
        var state = self.state(atLineStart: rescanStart)
        var oldLine = firstLine + 1
        var convergedAt: Int?
        while true {
            let next = Self.nextLineStart(in: newText, from: start)
            state = scanned.scanLine(syntax, newText, start..<next, state)
            if next >= newText.count { break }
            start = next
            // Converge at an old line that starts past the edit with the same state.
            guard start >= editEndInNew else { continue }
            let oldStart = start - delta
            while oldLine < lineStarts.count, lineStarts[oldLine] < oldStart { oldLine += 1 }
            if oldLine < lineStarts.count, lineStarts[oldLine] == oldStart, oldStart >= upper,
               self.state(atLineStart: oldStart) == state {
                convergedAt = oldLine
                break
            }
        }

        // The lines re-scanned, in the old text.
        let tailStart = convergedAt ?? lineStarts.count
        let oldLines = rescanStart..<(tailStart < lineStarts.count ? lineStarts[tailStart] : oldCount)
        // The following lines, states and regions only move, lazily: the part of a keystroke that
        // would otherwise grow with the file.
        lineStarts.replaceSubrange(firstLine..<tailStart, with: scanned.lineStarts, shiftingFollowingBy: delta)
        states.replaceSubrange(
            stateStarts.replaceOffsets(in: oldLines, with: scanned.stateStarts, shiftingFollowingBy: delta), with: scanned.states)
        regionSpans.replaceSubrange(
            regionStarts.replaceOffsets(in: oldLines, with: scanned.regionStarts, shiftingFollowingBy: delta),
            with: scanned.regionSpans)
        return firstLine..<(firstLine + scanned.lineStarts.count)
    }

    /// The lexer state at the start of the line that starts at `lineStart`.
    ///
    /// - Complexity: O(log *s*) for the *s* lines that do not start in code.
    private func state(atLineStart lineStart: Int) -> LexState {
        let index = stateStarts.lastIndex(atOrBefore: lineStart)
        return index >= 0 && stateStarts[index] == lineStart ? states[index] : .code
    }

    /// The lexer state at the start of each line.
    var lineStartStates: [LexState] {
        lineStarts.values.map(state(atLineStart:))
    }

    /// The zero-based line containing `utf8Offset` (clamped to the text).
    public func line(containingUTF8Offset utf8Offset: Int) -> Int {
        max(0, lineStarts.lastIndex(atOrBefore: utf8Offset))
    }

    /// The scope of the byte at `utf8Offset`: that of the comment or string region it is in, else
    /// the language's text scope (code, or comment in a language of prose).
    ///
    /// - Complexity: O(log regions).
    public func scope(atUTF8Offset utf8Offset: Int) -> Scope {
        scope(atUTF8Offset: utf8Offset, inRegionFrom: regionStarts.lastIndex(atOrBefore: utf8Offset))
    }

    /// The scope of `utf8Offset`, whose region (if any) is `region`: the last that starts at or before it, or -1.
    private func scope(atUTF8Offset utf8Offset: Int, inRegionFrom region: Int) -> Scope {
        guard region >= 0, utf8Offset - regionStarts[region] < regionSpans[region].utf8Count else { return syntax.textScope }
        return regionSpans[region].scope
    }

    /// The scope of a match: that of its first byte.
    public func scope(ofUTF8Range utf8Range: Range<Int>) -> Scope {
        scope(atUTF8Offset: utf8Range.lowerBound)
    }

    /// Scopes asked for in mostly ascending order, as a search asks for its candidates': each region
    /// is found from the one asked before, so a scan's lookups cost the distance between them.
    public final class Cursor {
        private let index: SyntaxIndex
        /// The last region that starts at or before the offset asked before, or -1.
        private var region = -1

        public init(_ index: SyntaxIndex) {
            self.index = index
        }

        /// The scope of a match: that of its first byte, as `SyntaxIndex.scope(ofUTF8Range:)`.
        public func scope(ofUTF8Range utf8Range: Range<Int>) -> Scope {
            let offset = utf8Range.lowerBound
            let starts = index.regionStarts
            region = region < 0 || offset >= starts[region]
                ? starts.lastIndex(atOrBefore: offset, from: region)
                : starts.lastIndex(atOrBefore: offset)
            return index.scope(atUTF8Offset: offset, inRegionFrom: region)
        }
    }

    /// Every comment and string region, in document order, with absolute offsets.
    var regions: [ScopeRegion] {
        regionSpans.indices.map { index in
            let start = regionStarts[index]
            return ScopeRegion(utf8Range: start..<(start + regionSpans[index].utf8Count), scope: regionSpans[index].scope)
        }
    }

    /// The start of the line after the one starting at `start` (the text's end for the last line).
    static func nextLineStart(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let position = ByteSearch.firstLineTerminator(in: text, from: start, to: text.count)
        guard position < text.count else { return text.count }
        if text[position] == 0x0A { return position + 1 }
        return position + 1 < text.count && text[position + 1] == 0x0A ? position + 2 : position + 1
    }
}

/// The scopes of a text searched once (the command line, the workspace list), lexed from its start only as far as the
/// offsets asked for: code is skipped up to the next byte that could open a comment or a string (`codeSearch`), and
/// the lines inside a multi-line string or a block comment up to the next byte that could end it (`spanSearches`).
///
/// Answers as `SyntaxIndex.scope(atUTF8Offset:)` over the same text would. It holds the text's address: use it only
/// while the text lives, as one search's acceptance does.
public final class LazyScopes {
    private let syntax: LanguageSyntax
    private let text: UnsafeBufferPointer<UInt8>
    /// The regions found so far, in order, with offsets from the text's start: a second search over the text, or a
    /// question about an earlier offset, costs a lookup. One may span the lines of a multi-line string or comment;
    /// line terminators are in none (`scope(atUTF8Offset:)` asks the byte).
    private var regions: [ScopeRegion] = []
    /// The line start where lexing goes on, and the state there.
    private var lexedEnd = 0
    private var state = LexState.code
    /// One line's regions, reused from line to line.
    private var lineRegions: [ScopeRegion] = []
    /// How many lines were scanned one by one: the work the skips save is counted here (tests).
    private(set) var scannedLines = 0

    public init(syntax: LanguageSyntax, text: UnsafeBufferPointer<UInt8>) {
        self.syntax = syntax
        self.text = text
    }

    /// The scope of a match: that of its first byte.
    public func scope(ofUTF8Range utf8Range: Range<Int>) -> Scope {
        scope(atUTF8Offset: utf8Range.lowerBound)
    }

    /// The scope of the byte at `utf8Offset`: that of the comment or string region it is in, else the language's text
    /// scope (as for offsets outside the text, and line terminators).
    ///
    /// - Complexity: the lexing up to the line of `utf8Offset` the first time it is passed, plus O(log regions).
    public func scope(atUTF8Offset utf8Offset: Int) -> Scope {
        guard utf8Offset >= 0, utf8Offset < text.count, text[utf8Offset] != 0x0A, text[utf8Offset] != 0x0D else {
            return syntax.textScope
        }
        if utf8Offset >= lexedEnd { lex(through: utf8Offset) }
        // The last region that starts at or before the offset.
        var low = 0
        var high = regions.count
        while low < high {
            let middle = (low + high) / 2
            if regions[middle].utf8Range.lowerBound <= utf8Offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0, regions[low - 1].utf8Range.contains(utf8Offset) else { return syntax.textScope }
        return regions[low - 1].scope
    }

    /// Lexes on from `lexedEnd` through the line that holds `target`.
    private func lex(through target: Int) {
        // Worked on as locals and stored back: the object's own would be checked for exclusive access at each use.
        var regions = self.regions
        self.regions = []
        var lineRegions = self.lineRegions
        self.lineRegions = []
        var state = self.state
        var start = lexedEnd
        var scanned = 0
        while start <= target, start < text.count {
            // The lines before the next byte that could change the state keep it and hold no region (in code) or one
            // region each from start to end (inside a string or comment that spans lines): they are passed at once.
            let stop: Int? = switch state {
            case .code: syntax.codeSearch.firstIndex(in: text, from: start, to: target)
            case .string(let opener), .blockComment(let opener, _):
                syntax.spanSearches.indices.contains(opener)
                    ? syntax.spanSearches[opener]?.firstIndex(in: text, from: start, to: target) : nil
            case .rawText(_, let closing): closing.first.map { LanguageSyntax.firstIndex(of: $0, in: text, from: start, to: target) }
            }
            if let stop {
                var lineStart = stop
                while lineStart > start, text[lineStart - 1] != 0x0A { lineStart -= 1 }
                if lineStart > start, state != .code {
                    regions.append(ScopeRegion(utf8Range: start..<lineStart, scope: syntax.scope(of: state)))
                }
                start = lineStart
            }
            let next = SyntaxIndex.nextLineStart(in: text, from: start)
            lineRegions.removeAll(keepingCapacity: true)
            state = syntax.scan(line: UnsafeBufferPointer(rebasing: text[start..<next]), from: state, into: &lineRegions)
            scanned += 1
            for region in lineRegions {
                regions.append(ScopeRegion(
                    utf8Range: (region.utf8Range.lowerBound + start)..<(region.utf8Range.upperBound + start), scope: region.scope))
            }
            start = next
        }
        lexedEnd = start
        self.state = state
        self.regions = regions
        self.lineRegions = lineRegions
        scannedLines += scanned
    }
}
