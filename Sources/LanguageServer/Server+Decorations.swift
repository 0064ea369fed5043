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
// A blank line inside a multi-line match has no segment; it gets the marks of the match's rule
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
            if let payload = decorations(ofDocument: uri) { sendNotification(decorationsMethod, params: payload) }
        }
        documentsNeedingDecorations.removeAll()
    }

    func decorationsRequest(_ params: JSON?) throws(ResponseError) -> JSON {
        let uri = try openDocument(params)
        return decorations(ofDocument: uri) ?? .null
    }

    func decorations(ofDocument uri: String) -> JSON? {
        let encoding = client.decorationEncoding ?? positionEncoding
        guard let (document, config, segments) = segments(ofDocument: uri, encoding: encoding) else { return nil }
        var styleIndexByPiece: [Piece: Int] = [:]
        var styles: [JSON] = []
        // Which line marks each style of `styles` draws.
        var marksOfStyle: [LineMarkKinds] = []
        var ranges: [JSON] = []
        ranges.reserveCapacity(segments.count * 4)
        var lineMarks: [PendingLineMarks] = []
        var pendingLine = PendingLineMarks(line: -1)
        for segment in segments {
            let styleIndex: Int
            if let known = styleIndexByPiece[segment.piece] {
                styleIndex = known
            } else {
                styleIndex = styles.count
                styleIndexByPiece[segment.piece] = styleIndex
                let kind = config.pieceKind(segment.piece)
                let style = kind?.style ?? Style.neutral
                styles.append(style.decorationJSON(rule: kind?.tokenType ?? TokenLegend.fallbackType))
                marksOfStyle.append(LineMarkKinds(style))
            }
            ranges.append(.integer(segment.line))
            ranges.append(.integer(segment.startCharacter))
            ranges.append(.integer(segment.endCharacter))
            ranges.append(.integer(styleIndex))
            let marks = marksOfStyle[styleIndex]
            guard marks.any else { continue }
            if segment.line != pendingLine.line {
                if pendingLine.hasMarks { lineMarks.append(pendingLine) }
                pendingLine = PendingLineMarks(line: segment.line)
            }
            pendingLine.take(marks, of: styleIndex)
        }
        if pendingLine.hasMarks { lineMarks.append(pendingLine) }
        if !lineMarks.isEmpty, let highlights = document.highlights {
            lineMarks = Self.addingBlankLines(
                to: lineMarks, of: highlights.matches, index: document.text.lineIndex, encoding: encoding,
                styleIndexByPiece: styleIndexByPiece, marksOfStyle: marksOfStyle)
        }
        var lines: [JSON] = []
        lines.reserveCapacity(lineMarks.count * 3)
        for marks in lineMarks { marks.append(to: &lines) }
        var payload: [String: JSON] = [
            "textDocument": ["uri": .string(uri), "version": .integer(document.version)],
            "positionEncoding": .string(encoding.rawValue),
            "styles": .array(styles),
            "ranges": .array(ranges),
        ]
        if !lines.isEmpty { payload["lines"] = .array(lines) }
        return .object(payload)
    }

    /// `lineMarks` with the lines a match spans but has no segment on (blank lines inside a
    /// multi-line match), each marked as the match's rule style marks its other lines.
    ///
    /// - Complexity: O(m log L) for m matches and L lines, plus sorting the lines added.
    private static func addingBlankLines(
        to lineMarks: [PendingLineMarks], of matches: [Match], index: LineIndex, encoding: PositionEncoding,
        styleIndexByPiece: [Piece: Int], marksOfStyle: [LineMarkKinds]
    ) -> [PendingLineMarks] {
        var known = Set(lineMarks.map(\.line))
        var added: [PendingLineMarks] = []
        for match in matches {
            guard let styleIndex = styleIndexByPiece[.rule(match.ruleIndex)], marksOfStyle[styleIndex].any else { continue }
            let start = index.position(ofUTF8Offset: match.utf8Range.lowerBound, encoding: encoding)
            let end = index.position(ofUTF8Offset: match.utf8Range.upperBound, encoding: encoding)
            // A match that ends with its line break does not reach into the next line.
            let lastLine = end.character == 0 ? end.line - 1 : end.line
            guard lastLine > start.line else { continue }
            for line in start.line...lastLine where known.insert(line).inserted {
                var marks = PendingLineMarks(line: line)
                marks.take(marksOfStyle[styleIndex], of: styleIndex)
                added.append(marks)
            }
        }
        guard !added.isEmpty else { return lineMarks }
        return (lineMarks + added).sorted { $0.line < $1.line }
    }

    /// `highlight/matches`: every match with its rule and UTF-8 byte range; for tools and tests.
    func matchesRequest(_ params: JSON?) throws(ResponseError) -> JSON {
        let uri = try openDocument(params)
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

/// Which per-line marks a style draws.
private struct LineMarkKinds {
    var gutter: Bool
    var wholeLine: Bool

    init(_ style: Style) {
        gutter = style.gutter != nil
        wholeLine = style.wholeLine
    }

    var any: Bool { gutter || wholeLine }
}

/// The marks of one line while its segments are read: for each kind, the first style that draws it.
private struct PendingLineMarks {
    /// The zero-based line, or -1 before the first line.
    var line: Int
    var gutterStyle: Int?
    var wholeLineStyle: Int?

    init(line: Int) {
        self.line = line
    }

    /// Takes the marks of style `styleIndex` that no segment before it on the line gave.
    mutating func take(_ marks: LineMarkKinds, of styleIndex: Int) {
        if marks.gutter, gutterStyle == nil { gutterStyle = styleIndex }
        if marks.wholeLine, wholeLineStyle == nil { wholeLineStyle = styleIndex }
    }

    /// Whether the line has a mark.
    var hasMarks: Bool { line >= 0 && (gutterStyle != nil || wholeLineStyle != nil) }

    /// Appends `line, gutter, wholeLine` (-1 for none) when the line has a mark.
    func append(to lines: inout [JSON]) {
        guard hasMarks else { return }
        lines.append(.integer(line))
        lines.append(.integer(gutterStyle ?? -1))
        lines.append(.integer(wholeLineStyle ?? -1))
    }
}

extension Style {
    /// The style as sent to editor plugins: only the keys that are set, line marks with their
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
