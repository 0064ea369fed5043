import HighlightConfig
import JSONRPC
import JSONValue
import TextIndex

// Decorations: the exact style of every highlighted range, for editor plugins that can draw
// colours, backgrounds and rounded highlights. Pushed after changes to clients that opt in,
// and available on request to any client. The payload is compact: a table of the styles used
// in the document and a flat array of single-line ranges, four integers each.

extension Server {
    var decorationsMethod: String { "highlight/publishDecorations" }

    /// Publishes decorations for every document that changed since the last flush (only the latest state of each).
    public func flush() {
        startPendingConfigurationLoad()
        publishDiagnostics(ofChangedDocuments: documentsNeedingDecorations)
        publishConfigurationFileDiagnostics()
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
        var ranges: [JSON] = []
        ranges.reserveCapacity(segments.count * 4)
        for segment in segments {
            let styleIndex: Int
            if let known = styleIndexByPiece[segment.piece] {
                styleIndex = known
            } else {
                styleIndex = styles.count
                styleIndexByPiece[segment.piece] = styleIndex
                let kind = config.pieceKind(segment.piece)
                styles.append((kind?.style ?? Style.neutral).decorationJSON(rule: kind?.tokenType ?? TokenLegend.fallbackType))
            }
            ranges.append(.integer(segment.line))
            ranges.append(.integer(segment.startCharacter))
            ranges.append(.integer(segment.endCharacter))
            ranges.append(.integer(styleIndex))
        }
        return [
            "textDocument": ["uri": .string(uri), "version": .integer(document.version)],
            "positionEncoding": .string(encoding.rawValue),
            "styles": .array(styles),
            "ranges": .array(ranges),
        ]
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

extension Style {
    /// The style as sent to editor plugins: only the keys that are set.
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
        return .object(object)
    }
}
