import HighlightConfig
import JSONRPC
import JSONValue
import PatternEngine
import TextIndex

// Decorations: the exact style of every highlighted range, for editor plugins that can draw
// colours, backgrounds and rounded highlights. Pushed after changes to clients that opt in,
// and available on request to any client. The payload is compact: a table of the styles used
// in the document and a flat array of single-line ranges, four integers each.
//
// Gutter signs and whole-line backgrounds are drawn once per line, however many matches or
// styled groups the line has, so they come apart from the ranges: `lines` holds, for each line
// with one, three integers — the line and the index of the style whose gutter sign and
// whole-line background it draws, each -1 for none. Of the segments on a line, the first
// (leftmost) whose style has a mark of a kind gives it:
//
//     ranges: 4,2,6,0  4,10,13,1   style 0 has a whole line, style 1 a sign and a whole line
//     lines:  4,1,0                line 4: style 1's sign, style 0's whole line
//
// A blank line inside a multi-line match has no segment; it gets the indicators of the match's rule
// style, so a whole-line block has no gaps.
//
// An overview ruler mark is drawn by the editor per range (a ruler has one pixel row for many
// lines), so it stays in the style and adds nothing to `lines`: the built-in styles, which
// mark the ruler, leave the payload as small as it was.

extension Server {
    var decorationsMethod: String { "highlight/publishDecorations" }

    /// Publishes decorations for every document that changed since the last flush (only the latest state of each).
    public func flush() {
        startPendingConfigurationLoad()
        publishConfigurationFileDiagnostics()
        publishDiagnostics(ofChangedDocuments: documentsNeedingDecorations)
        guard lifecycle == .running, client.decorations, !documentsNeedingDecorations.isEmpty else {
            documentsNeedingDecorations.removeAll()
            return
        }
        for uri in documentsNeedingDecorations.sorted() {
            if let payload = client.decorationDeltas ? decorationsUpdate(ofDocument: uri) : decorations(ofDocument: uri) {
                sendNotification(decorationsMethod, params: payload)
            }
        }
        documentsNeedingDecorations.removeAll()
    }

    func decorationsRequest(_ params: DocumentParams) throws(ResponseError) -> JSON {
        let uri = try openDocument(params.uri)
        return decorations(ofDocument: uri) ?? .null
    }

    /// The decorations of a whole document. A client that takes deltas gets a `resultId` too,
    /// and the deltas that follow build on this payload.
    func decorations(ofDocument uri: String) -> JSON? {
        let encoding = client.decorationEncoding ?? positionEncoding
        guard let (document, config, segments) = segments(ofDocument: uri, encoding: encoding) else { return nil }
        var styles = DecorationStyles()
        let lines = 0..<document.text.lineIndex.lineCount
        let (ranges, indicatorLines) = decorations(of: document, lines: lines, segments: segments, config: config, encoding: encoding, styles: &styles)
        var payload: [String: JSON] = [
            "textDocument": ["uri": .string(uri), "version": .integer(document.version)],
            "positionEncoding": .string(encoding.rawValue),
            "styles": .array(styles.json),
            "ranges": .array(ranges),
        ]
        if !indicatorLines.isEmpty { payload["lines"] = .array(indicatorLines) }
        if client.decorationDeltas {
            let resultID = String(nextResultID)
            nextResultID += 1
            payload["resultId"] = .string(resultID)
            sentDecorations[uri] = SentDecorations(
                resultID: resultID, configurationGeneration: configuration.generation, styles: styles,
                span: SentSpan(sentCount: lines.count))
        }
        return .object(payload)
    }

    /// What a client that takes deltas is sent after changes: the lines that changed since its last
    /// payload (every line after and before them only moved, as the editor moved its decorations
    /// with the text), or the whole document when what it holds is unknown; nil when nothing changed.
    /// - Complexity: O(k) for the k segments and matches on the changed lines, plus O(log m) to find them.
    func decorationsUpdate(ofDocument uri: String) -> JSON? {
        let encoding = client.decorationEncoding ?? positionEncoding
        guard var sent = sentDecorations[uri], sent.configurationGeneration == configuration.generation,
              let (document, config, segments) = segments(ofDocument: uri, encoding: encoding),
              let (sentLines, lines) = sent.span.replaced, sent.span.count == document.text.lineIndex.lineCount
        else { return decorations(ofDocument: uri) }
        if sent.span.change == .none { return nil }
        let (ranges, indicatorLines) = decorations(of: document, lines: lines, segments: segments, config: config, encoding: encoding, styles: &sent.styles)
        let resultID = String(nextResultID)
        nextResultID += 1
        sentDecorations[uri] = SentDecorations(
            resultID: resultID, configurationGeneration: sent.configurationGeneration, styles: sent.styles,
            span: SentSpan(sentCount: document.text.lineIndex.lineCount))
        var edit: [String: JSON] = [
            "startLine": .integer(lines.lowerBound), "endLine": .integer(lines.upperBound),
            "oldEndLine": .integer(sentLines.upperBound), "ranges": .array(ranges),
        ]
        if !indicatorLines.isEmpty { edit["lines"] = .array(indicatorLines) }
        return [
            "textDocument": ["uri": .string(uri), "version": .integer(document.version)],
            "positionEncoding": .string(encoding.rawValue),
            "resultId": .string(resultID),
            "previousResultId": .string(sent.resultID),
            "styles": .array(sent.styles.json),
            "edit": .object(edit),
        ]
    }

    /// The ranges and line indicators of the segments on `lines`, with their styles taken from (or added to) `styles`.
    private func decorations(
        of document: Document, lines: Range<Int>, segments: [LineSegment], config: HighlightConfiguration,
        encoding: PositionEncoding, styles: inout DecorationStyles
    ) -> (ranges: [JSON], lines: [JSON]) {
        let first = segments.partitionPoint { $0.line >= lines.lowerBound }
        let end = segments.partitionPoint { $0.line >= lines.upperBound }
        var ranges: [JSON] = []
        ranges.reserveCapacity(max(0, end - first) * 4)
        var lineIndicators: [PendingLineIndicators] = []
        var pendingLine = PendingLineIndicators(line: -1)
        for segment in segments[first..<max(first, end)] {
            let styleIndex = styles.index(of: segment.piece, config: config)
            ranges.append(.integer(segment.line))
            ranges.append(.integer(segment.startCharacter))
            ranges.append(.integer(segment.endCharacter))
            ranges.append(.integer(styleIndex))
            let kinds = styles.indicators[styleIndex]
            guard kinds.any else { continue }
            if segment.line != pendingLine.line {
                if pendingLine.hasIndicators { lineIndicators.append(pendingLine) }
                pendingLine = PendingLineIndicators(line: segment.line)
            }
            pendingLine.take(kinds, of: styleIndex)
        }
        work.decorationRangesEncoded += ranges.count / 4
        if pendingLine.hasIndicators { lineIndicators.append(pendingLine) }
        if !lineIndicators.isEmpty, let highlights = document.highlights {
            // The matches that reach into `lines`: sorted and not overlapping, so their ends are sorted too.
            let index = document.text.lineIndex
            let startOffset = index.utf8Offset(ofLineStart: lines.lowerBound)
            let endOffset = lines.upperBound < index.lineCount ? index.utf8Offset(ofLineStart: lines.upperBound) : document.text.utf8Count
            let matches = highlights.matches
            let firstMatch = matches.partitionPoint { $0.utf8Range.upperBound > startOffset }
            let endMatch = matches.partitionPoint { $0.utf8Range.lowerBound >= endOffset }
            lineIndicators = Self.addingBlankLines(
                to: lineIndicators, of: matches[firstMatch..<max(firstMatch, endMatch)], within: lines, index: index,
                encoding: encoding, styles: styles)
        }
        var lines: [JSON] = []
        lines.reserveCapacity(lineIndicators.count * 3)
        for line in lineIndicators { line.append(to: &lines) }
        return (ranges, lines)
    }

    /// `lineIndicators` with the lines a match spans but has no segment on (blank lines inside a
    /// multi-line match), each given the indicators the match's rule style gives its other lines.
    ///
    /// - Complexity: O(m log L) for m matches and L lines, plus sorting the lines added.
    private static func addingBlankLines(
        to lineIndicators: [PendingLineIndicators], of matches: ArraySlice<Match>, within lines: Range<Int>, index: LineIndex,
        encoding: PositionEncoding, styles: DecorationStyles
    ) -> [PendingLineIndicators] {
        var known = Set(lineIndicators.map(\.line))
        var added: [PendingLineIndicators] = []
        for match in matches {
            guard let styleIndex = styles.indexByPiece[.rule(match.ruleIndex)], styles.indicators[styleIndex].any else { continue }
            let start = index.position(ofUTF8Offset: match.utf8Range.lowerBound, encoding: encoding)
            let end = index.position(ofUTF8Offset: match.utf8Range.upperBound, encoding: encoding)
            // A match that ends with its line break does not reach into the next line.
            let lastLine = end.character == 0 ? end.line - 1 : end.line
            guard lastLine > start.line else { continue }
            let reached = max(start.line, lines.lowerBound)...min(lastLine, lines.upperBound - 1)
            guard !reached.isEmpty else { continue }
            for line in reached where known.insert(line).inserted {
                var indicators = PendingLineIndicators(line: line)
                indicators.take(styles.indicators[styleIndex], of: styleIndex)
                added.append(indicators)
            }
        }
        guard !added.isEmpty else { return lineIndicators }
        return (lineIndicators + added).sorted { $0.line < $1.line }
    }

    /// `highlight/matches`: every match with its rule and UTF-8 byte range; for tools and tests.
    func matchesRequest(_ params: DocumentParams) throws(ResponseError) -> JSON {
        let uri = try openDocument(params.uri)
        guard let (document, config, list) = matches(ofDocument: uri) else { return [] }
        let index = document.text.lineIndex
        return .array(list.matches.map { match in
            let name = config.rules.indices.contains(match.ruleIndex) ? config.rules[match.ruleIndex].name : ""
            return [
                "rule": .string(name),
                "utf8Range": [.integer(match.utf8Range.lowerBound), .integer(match.utf8Range.upperBound)],
                "range": [
                    "start": index.position(ofUTF8Offset: match.utf8Range.lowerBound, encoding: positionEncoding).json,
                    "end": index.position(ofUTF8Offset: match.utf8Range.upperBound, encoding: positionEncoding).json,
                ],
            ]
        })
    }
}

/// The styles of a decorations payload, each given an index when a range first uses it; a client
/// that takes deltas keeps the indices of its last full payload, and new styles are appended.
struct DecorationStyles {
    private(set) var indexByPiece: [Piece: Int] = [:]
    /// The styles as sent, by index.
    private(set) var json: [JSON] = []
    /// Which line indicators each style draws, by index.
    fileprivate private(set) var indicators: [LineIndicatorKinds] = []

    /// The index of the style of `piece`, added when it is new.
    mutating func index(of piece: Piece, config: HighlightConfiguration) -> Int {
        if let known = indexByPiece[piece] { return known }
        let index = json.count
        indexByPiece[piece] = index
        let kind = config.pieceKind(piece)
        let style = kind?.style ?? Style.neutral
        json.append(style.decorationJSON(rule: kind?.tokenType ?? TokenLegend.fallbackType))
        indicators.append(LineIndicatorKinds(style))
        return index
    }
}

/// The decorations a client that takes deltas holds of a document: the payload it was sent, its
/// styles, and which lines changed since.
struct SentDecorations {
    let resultID: String
    /// The configuration the styles belong to; another one sends the whole document again.
    let configurationGeneration: Int
    var styles: DecorationStyles
    /// Counted in lines.
    var span: SentSpan
}

/// Which per-line indicators a style draws.
fileprivate struct LineIndicatorKinds {
    var gutter: Bool
    var wholeLine: Bool

    init(_ style: Style) {
        gutter = style.gutter != nil
        wholeLine = style.wholeLine
    }

    var any: Bool { gutter || wholeLine }
}

/// The indicators of one line while its segments are read: for each kind, the first style that draws it.
private struct PendingLineIndicators {
    /// The zero-based line, or -1 before the first line.
    var line: Int
    var gutterStyle: Int?
    var wholeLineStyle: Int?

    init(line: Int) {
        self.line = line
    }

    /// Takes the indicators of style `styleIndex` that no segment before it on the line gave.
    mutating func take(_ kinds: LineIndicatorKinds, of styleIndex: Int) {
        if kinds.gutter, gutterStyle == nil { gutterStyle = styleIndex }
        if kinds.wholeLine, wholeLineStyle == nil { wholeLineStyle = styleIndex }
    }

    /// Whether the line has a mark.
    var hasIndicators: Bool { line >= 0 && (gutterStyle != nil || wholeLineStyle != nil) }

    /// Appends `line, gutter, wholeLine` (-1 for none) when the line has an indicator.
    func append(to lines: inout [JSON]) {
        guard hasIndicators else { return }
        lines.append(.integer(line))
        lines.append(.integer(gutterStyle ?? -1))
        lines.append(.integer(wholeLineStyle ?? -1))
    }
}

extension Style {
    /// The style as sent to editor plugins: only the keys that are set, line indicators with their
    /// colours resolved (`overviewRuler: {color, lane}`, `gutter: {color, text?}`,
    /// `wholeLine: {backgroundColor}`).
    func decorationJSON(rule: String) -> JSON {
        var object: [String: JSON] = ["rule": .string(rule)]
        if let color { object["color"] = .string(color.hexString) }
        if let backgroundColor { object["backgroundColor"] = .string(backgroundColor.hexString) }
        if let borderColor { object["borderColor"] = .string(borderColor.hexString) }
        if bold { object["bold"] = true }
        if italic { object["italic"] = true }
        if underline { object["underline"] = true }
        if strikethrough { object["strikethrough"] = true }
        if rounded { object["rounded"] = true }
        if let overviewRuler, let color = overviewRulerColor {
            object["overviewRuler"] = ["color": .string(color.hexString), "lane": .string(overviewRuler.lane.rawValue)]
        }
        if let gutter, let color = gutterColor {
            var sign: [String: JSON] = ["color": .string(color.hexString)]
            if let text = gutter.text { sign["text"] = .string(text) }
            object["gutter"] = .object(sign)
        }
        if let lineBackgroundColor { object["wholeLine"] = ["backgroundColor": .string(lineBackgroundColor.hexString)] }
        return .object(object)
    }
}
