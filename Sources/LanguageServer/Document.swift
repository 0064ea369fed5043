import HighlightConfig
import LanguageSyntax
import PatternEngine
import TextIndex

/// An open document: its text (kept exactly once), version and the highlights of that text.
struct Document {
    let uri: String
    var languageId: String
    var version: Int
    var text: TextBuffer
    /// The highlights of `text`, kept up to date edit by edit; `nil` until first needed, and
    /// after a change that cannot be followed incrementally.
    var highlights: DocumentHighlights?
    /// The comment and string regions of `text`, kept only while a rule that applies to the
    /// document is limited to a scope and the document's language has a known syntax.
    var syntax: SyntaxIndex?

    init(uri: String, languageId: String, version: Int, text: [UInt8]) {
        self.uri = uri
        self.languageId = languageId
        self.version = version
        self.text = TextBuffer(utf8: text)
    }

    /// Replaces a UTF-8 range of the text and brings the syntax index and the highlights up to date.
    ///
    /// Only the lines the edit touched are scanned again — widened by as many lines as one match
    /// can span (none when no rule can match a line terminator; one for `TODO.*\n//.*`), and by
    /// the lines whose comment or string scope the edit changed (opening `/*` changes every line
    /// after it, up to where the scopes agree again); the matches and line segments after them
    /// are shifted, not searched or converted again. When a rule's matches can span any number of
    /// lines, the highlights are dropped and recomputed in full when next needed. The work done
    /// is added to `work`.
    /// - Complexity: O(e + m) for an edit touching e bytes of lines (and the lines a match can
    ///   reach around them), with m matches in the document (shifting the later ones), plus
    ///   moving the bytes after the edit.
    @discardableResult
    mutating func replace(
        utf8Range: Range<Int>, with newText: some Collection<UInt8>, ruleSet: RuleSet, filter: RuleFilter, work: inout WorkCounts
    ) -> HighlightsUpdate {
        let oldLineCount = text.lineIndex.lineCount
        let oldCount = text.utf8Count
        let insertedCount = newText.count
        text.replace(utf8Range: utf8Range, with: newText)
        var rescoped: Range<Int>?
        if var index = syntax {
            syntax = nil  // keeps the index uniquely referenced while it changes
            let lines = text.withUnsafeBytes { index.update(afterReplacing: utf8Range, withUTF8Count: insertedCount, in: $0) }
            rescoped = index.utf8Range(ofLines: lines, textCount: text.utf8Count)
            syntax = index
        }
        guard var current = highlights else { return .dropped("the document had no highlights yet") }
        highlights = nil
        // Without a syntax index, the matches are right only while none of them is a scoped rule's
        // (see `RuleFilter.matches`); otherwise an edit could change their scopes unseen. A language
        // with no known syntax has no scopes to change: its scoped rules match anywhere.
        if syntax == nil, filter.needsSyntax, filter.syntax != nil,
           current.matches.contains(where: { filter.isScoped($0.ruleIndex) }) {
            return .dropped("its scoped matches were found without a syntax index")
        }
        // A match spans at most `lineReach` line breaks; a rule that can span any number of them
        // (`(?s)BEGIN.*END`) leaves only a full recomputation.
        let lineBreaks = ruleSet.maximumMatchLineBreaks
        guard let lineReach = !ruleSet.canMatchLineTerminator ? 0 : text.loneCarriageReturnCount == 0 ? lineBreaks.lineFeeds : lineBreaks.any
        else { return .dropped("a rule's matches can span any number of lines") }
        let index = text.lineIndex
        let byteDelta = text.utf8Count - oldCount
        let lineDelta = index.lineCount - oldLineCount
        // The lines the new text spans. A line terminator belongs to the line it ends, so an edit
        // that joins, splits or re-terminates lines (a `\r` meeting a `\n`) lands in them too.
        var firstLine = index.line(containingUTF8Offset: utf8Range.lowerBound)
        var lastLine = index.line(containingUTF8Offset: utf8Range.lowerBound + insertedCount)
        if let rescoped {
            firstLine = min(firstLine, index.line(containingUTF8Offset: rescoped.lowerBound))
            lastLine = max(lastLine, index.line(containingUTF8Offset: max(rescoped.lowerBound, rescoped.upperBound - 1)))
        }
        // A match that starts more than `lineReach` lines away cannot reach the edited lines, nor
        // see them. The region then grows until no match, old or new, crosses its ends, so that
        // the matches outside it were resolved exactly as they would be now. Old matches before
        // the edit keep their offsets; those after it are shifted by `byteDelta`.
        firstLine = max(0, firstLine - lineReach)
        lastLine = min(index.lineCount - 1, lastLine + lineReach)
        var regionStart = index.utf8Offset(ofLineStart: firstLine)
        while case let before = current.matches.partitionPoint({ $0.utf8Range.lowerBound >= regionStart }), before > 0,
              case let crossing = current.matches[before - 1], crossing.utf8Range.upperBound > regionStart {
            firstLine = index.line(containingUTF8Offset: crossing.utf8Range.lowerBound)
            regionStart = index.utf8Offset(ofLineStart: firstLine)
        }
        // Taken out of the document while the region is searched, which may build it.
        var regionSyntax = syntax
        syntax = nil
        var fresh = MatchList(matches: [], truncated: false)
        while true {
            let regionEnd = lastLine + 1 < index.lineCount ? index.utf8Offset(ofLineStart: lastLine + 1) : text.utf8Count
            let oldRegionEnd = regionEnd - byteDelta
            // Matches are sorted and do not overlap, so their ends are sorted too.
            let after = current.matches.partitionPoint { $0.utf8Range.upperBound > oldRegionEnd }
            let oldCrossing = after < current.matches.count && current.matches[after].utf8Range.lowerBound < oldRegionEnd
                ? current.matches[after] : nil
            if let oldCrossing, lastLine + 1 < index.lineCount {
                lastLine = max(lastLine, index.line(containingUTF8Offset: max(regionEnd, oldCrossing.utf8Range.upperBound + byteDelta - 1)))
                continue
            }
            let start = regionStart
            fresh = text.withUnsafeBytes {
                filter.matches(of: ruleSet, in: $0, startingIn: start..<regionEnd, syntax: &regionSyntax)
            }
            work.searchedUTF8Count += fresh.searchedUTF8Count
            if let last = fresh.matches.last, last.utf8Range.upperBound > regionEnd, lastLine + 1 < index.lineCount {
                lastLine = index.line(containingUTF8Offset: last.utf8Range.upperBound - 1)
                continue
            }
            break
        }
        syntax = regionSyntax
        work.matchesFound += fresh.matches.count
        let regionEnd = lastLine + 1 < index.lineCount ? index.utf8Offset(ofLineStart: lastLine + 1) : text.utf8Count
        let oldLastLine = max(firstLine, lastLine - lineDelta)
        let segments = current.replaceMatches(
            oldUTF8Range: regionStart..<max(regionStart, regionEnd - byteDelta), with: fresh.matches, byteDelta: byteDelta,
            oldLines: firstLine...oldLastLine, lineDelta: lineDelta, text: text, work: &work)
        current.truncated = current.truncated || fresh.truncated
        highlights = current
        return .edited(HighlightsEdit(lines: LineReplacement(lower: firstLine, oldUpper: oldLastLine + 1, newUpper: lastLine + 1),
                                      segments: segments))
    }
}

/// What an edit did to a document's highlights.
enum HighlightsUpdate {
    /// They were kept up to date: what changed, for the consumers that send them on.
    case edited(HighlightsEdit)
    /// They were dropped, to be recomputed in full when next needed, for this reason.
    case dropped(String)
}

/// The part of a document's highlights an edit replaced; everything after it only moved.
struct HighlightsEdit {
    /// The lines whose segments were replaced.
    var lines: LineReplacement
    /// Per encoding whose segments are kept, which of them were replaced.
    var segments: [PositionEncoding: SegmentReplacement]
}

/// Zero-based lines `lower..<oldUpper` before an edit that became `lower..<newUpper` after it.
struct LineReplacement: Equatable {
    var lower: Int
    var oldUpper: Int
    var newUpper: Int

    /// The line range in the numbering after the edit.
    var newLines: Range<Int> { lower..<newUpper }
}

/// Segments at indices `lower..<oldUpper` of a list that became `newCount` segments starting at `lower`.
struct SegmentReplacement: Equatable {
    var lower: Int
    var oldUpper: Int
    var newCount: Int
}

/// The work done on documents, counted so that tests can hold an edit to what it changed (exact on
/// any machine, unlike time).
struct WorkCounts: Equatable {
    /// Bytes the engine's searches could read (`MatchList.searchedUTF8Count`).
    var searchedUTF8Count = 0
    /// Matches the engine found.
    var matchesFound = 0
    /// Single-line segments whose positions were converted to the client's units.
    var segmentsConverted = 0
    /// Integers of semantic token data encoded.
    var tokenIntegersEncoded = 0
    /// Decoration ranges encoded.
    var decorationRangesEncoded = 0
    /// Times a document's highlights were computed from the whole text.
    var fullRecomputations = 0
    /// Files a workspace search (`workspace/symbol`, `highlight/counts`) read and searched.
    var workspaceFilesScanned = 0
    /// Matches looked at to make a document's diagnostics.
    var diagnosticCandidates = 0
}

extension SyntaxIndex {
    /// The UTF-8 range covered by a range of the index's lines.
    func utf8Range(ofLines lines: Range<Int>, textCount: Int) -> Range<Int> {
        let starts = lineStarts
        let start = lines.lowerBound < starts.count ? starts[lines.lowerBound] : textCount
        let end = lines.upperBound < starts.count ? starts[lines.upperBound] : textCount
        return start..<max(start, end)
    }
}

/// The highlights of a document: its matches and, per position encoding in use, their line segments.
struct DocumentHighlights {
    /// The configuration the matches were computed with (`ConfigurationState.generation`).
    let configurationGeneration: Int
    /// That configuration, which splits matches into the pieces segments are made of.
    let configuration: HighlightConfiguration
    /// Sorted, non-overlapping.
    var matches: [Match]
    var truncated: Bool
    /// The matches split into single-line segments, for each encoding a client asked for.
    var segments: [PositionEncoding: [LineSegment]] = [:]
    /// Where the matches start that a group of fields follows, of rules that read fields: the only ones a deadline
    /// can be written with (`MarkerFields`), found once (nil until then) and then kept up to date by edits, so that
    /// a keystroke's diagnostics look at these few, not at every match.
    var fieldGroupMatchStarts: [Int]?

    /// Highlights of `matches`; `configuration` splits them into pieces (by default, one without
    /// styled groups or colours, for which pieces are the matches).
    init(configurationGeneration: Int, configuration: HighlightConfiguration = .builtInOnly, matches: MatchList) {
        self.configurationGeneration = configurationGeneration
        self.configuration = configuration
        self.matches = matches.matches
        self.truncated = matches.truncated
    }

    /// `fieldGroupMatchStarts`, found among `matches` the first time.
    /// - Complexity: O(m) the first time, for m matches; O(1) after.
    mutating func fieldGroupStarts(in text: TextBuffer) -> [Int] {
        if let known = fieldGroupMatchStarts { return known }
        let found = text.withUnsafeBytes { Self.fieldGroupStarts(of: matches[...], configuration: configuration, in: $0) }
        fieldGroupMatchStarts = found
        return found
    }

    /// The starts of `matches` whose rule reads fields and that a group of fields follows.
    static func fieldGroupStarts(of matches: ArraySlice<Match>, configuration: HighlightConfiguration, in text: UnsafeBufferPointer<UInt8>) -> [Int] {
        guard configuration.readsFields else { return [] }
        let applicability = configuration.applicability
        return matches.compactMap { match in
            applicability.indices.contains(match.ruleIndex) && applicability[match.ruleIndex].readsFields
                && MarkerFields.groupOpening(in: text, after: match.utf8Range.upperBound) != nil ? match.utf8Range.lowerBound : nil
        }
    }

    /// The segments in `encoding`, computed once and then kept up to date by edits.
    mutating func segments(in encoding: PositionEncoding, text: TextBuffer, work: inout WorkCounts) -> [LineSegment] {
        if let known = segments[encoding] { return known }
        let computed = text.lineSegments(of: pieces(of: matches[...], in: text), encoding: encoding)
        work.segmentsConverted += computed.count
        segments[encoding] = computed
        return computed
    }

    /// Replaces the matches that started in `oldUTF8Range` (and the segments of `oldLines`) with
    /// `fresh`, shifting everything after by the edit's byte and line deltas; returns, per encoding,
    /// which segments were replaced.
    mutating func replaceMatches(oldUTF8Range: Range<Int>, with fresh: [Match], byteDelta: Int,
                                 oldLines: ClosedRange<Int>, lineDelta: Int, text: TextBuffer,
                                 work: inout WorkCounts) -> [PositionEncoding: SegmentReplacement] {
        let lower = matches.partitionPoint { $0.utf8Range.lowerBound >= oldUTF8Range.lowerBound }
        let upper = matches.partitionPoint { $0.utf8Range.lowerBound >= oldUTF8Range.upperBound }
        if byteDelta != 0 {
            matches.withUnsafeMutableBufferPointer { buffer in
                for position in upper..<buffer.count {
                    let range = buffer[position].utf8Range
                    buffer[position].utf8Range = (range.lowerBound &+ byteDelta)..<(range.upperBound &+ byteDelta)
                }
            }
        }
        matches.replaceSubrange(lower..<upper, with: fresh)
        if var starts = fieldGroupMatchStarts {
            // A match outside the edited lines keeps what follows it on its own line: only the region's change.
            let lowerStart = starts.partitionPoint { $0 >= oldUTF8Range.lowerBound }
            let upperStart = starts.partitionPoint { $0 >= oldUTF8Range.upperBound }
            if byteDelta != 0 { for position in upperStart..<starts.count { starts[position] &+= byteDelta } }
            let freshStarts = text.withUnsafeBytes { Self.fieldGroupStarts(of: fresh[...], configuration: configuration, in: $0) }
            starts.replaceSubrange(lowerStart..<upperStart, with: freshStarts)
            fieldGroupMatchStarts = starts
        }

        var replaced: [PositionEncoding: SegmentReplacement] = [:]
        for encoding in Array(segments.keys) {
            // Taken out of the dictionary so that it is edited in place rather than copied.
            guard var list = segments.removeValue(forKey: encoding) else { continue }
            let lowerSegment = list.partitionPoint { $0.line >= oldLines.lowerBound }
            let upperSegment = list.partitionPoint { $0.line > oldLines.upperBound }
            if lineDelta != 0 {
                list.withUnsafeMutableBufferPointer { buffer in
                    for position in upperSegment..<buffer.count { buffer[position].line &+= lineDelta }
                }
            }
            let converted = text.lineSegments(of: pieces(of: fresh[...], in: text), encoding: encoding)
            work.segmentsConverted += converted.count
            list.replaceSubrange(lowerSegment..<upperSegment, with: converted)
            segments[encoding] = list
            replaced[encoding] = SegmentReplacement(lower: lowerSegment, oldUpper: upperSegment, newCount: converted.count)
        }
        return replaced
    }
}

/// One highlighted piece of a single line, as the client sees it.
struct LineSegment: Equatable {
    var line: Int
    var startCharacter: Int
    var endCharacter: Int
    /// What the segment is drawn as.
    var piece: Piece
}

extension TextBuffer {
    /// Splits pieces at line ends into non-empty single-line segments, in the client's units.
    ///
    /// A piece that spans lines yields one segment per line it covers; line terminators are
    /// never part of a segment. Pieces must be sorted and non-overlapping.
    /// - Complexity: O(m log d) for m matches d lines apart (each line is found from the one
    ///   before), plus the non-ASCII characters of the lines the matches touch.
    func lineSegments(of pieces: [MatchPiece], encoding: PositionEncoding) -> [LineSegment] {
        let index = lineIndex
        var segments: [LineSegment] = []
        segments.reserveCapacity(pieces.count)
        var previousLine = pieces.first.map { index.line(containingUTF8Offset: $0.utf8Range.lowerBound) } ?? 0
        for match in pieces {
            var line = index.line(containingUTF8Offset: match.utf8Range.lowerBound, atOrAfter: previousLine)
            previousLine = line
            var start = match.utf8Range.lowerBound
            while start < match.utf8Range.upperBound && line < index.lineCount {
                let contentEnd = index.utf8Offset(ofLineContentEnd: line)
                let end = min(match.utf8Range.upperBound, contentEnd)
                if end > start {
                    let startCharacter = index.character(ofUTF8Offset: start, onLine: line, encoding: encoding)
                    let endCharacter = index.character(ofUTF8Offset: end, onLine: line, encoding: encoding)
                    if endCharacter > startCharacter {
                        segments.append(LineSegment(line: line, startCharacter: startCharacter,
                                                    endCharacter: endCharacter, piece: match.piece))
                    }
                }
                line += 1
                guard line < index.lineCount else { break }
                start = max(start, index.utf8Offset(ofLineStart: line))
            }
        }
        return segments
    }
}
