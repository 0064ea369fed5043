import HighlightConfig
import JSONRPC
import JSONValue
import TextIndex

/// The semantic token legend: one token type per rule name, plus a fallback type.
struct TokenLegend: Equatable {
    /// The type of matches whose rule was not known when the legend was sent.
    static let fallbackType = "highlight"

    let ruleNames: [String]
    let tokenTypes: [String]
    private let indexByName: [String: Int]

    init(ruleNames: [String]) {
        self.ruleNames = ruleNames
        var types = ruleNames
        if !types.contains(Self.fallbackType) { types.append(Self.fallbackType) }
        for type in SessionMarks.tokenTypes where !types.contains(type) { types.append(type) }
        tokenTypes = types
        var index: [String: Int] = [:]
        for (position, name) in types.enumerated() where index[name] == nil { index[name] = position }
        indexByName = index
    }

    /// The token type index for a rule name; the fallback type's index for an unknown name.
    func tokenType(ofRule name: String) -> Int {
        indexByName[name] ?? indexByName[Self.fallbackType] ?? 0
    }
}

extension Server {
    func semanticTokensOptions() -> JSON {
        [
            "legend": ["tokenTypes": .array(tokenLegend.tokenTypes.map { .string($0) }), "tokenModifiers": []],
            "full": ["delta": true],
            "range": true,
        ]
    }

    /// Registers (or re-registers, after the legend changed) the semantic tokens provider.
    func registerSemanticTokens() {
        if let previous = semanticTokensRegistrationID {
            sendRequest("client/unregisterCapability", params: ["unregisterations": [[
                "id": .string(previous), "method": "textDocument/semanticTokens",
            ]]])
        }
        let id = "highlight-ls-semantic-tokens-\(nextOutgoingRequestID)"
        semanticTokensRegistrationID = id
        guard case .object(var options) = semanticTokensOptions() else { return }
        options["documentSelector"] = [["scheme": "file"], ["scheme": "untitled"], ["pattern": "**"]]
        sendRequest("client/registerCapability", params: ["registrations": [[
            "id": .string(id), "method": "textDocument/semanticTokens", "registerOptions": .object(options),
        ]]])
    }

    /// The LSP token integers of a document (5 per token, relative encoding), optionally limited
    /// to the tokens that overlap a range.
    /// - Complexity: O(k) integer work for the k segments returned, plus O(log m) to find them
    ///   among m; positions come from the document's cached segments.
    func tokenData(ofDocument uri: String, range: (start: Position, end: Position)? = nil) -> (data: [Int], tokenCount: Int) {
        guard let (_, config, segments) = segments(ofDocument: uri, encoding: positionEncoding) else { return ([], 0) }
        var selected = segments.indices
        if let range {
            // Segments are sorted by line, then character, and never overlap.
            let first = segments.partitionPoint { ($0.line, $0.endCharacter) > (range.start.line, range.start.character) }
            let end = segments.partitionPoint { ($0.line, $0.startCharacter) >= (range.end.line, range.end.character) }
            selected = first..<max(first, end)
        }
        return (encodeTokens(segments, selected, relativeTo: range == nil ? selected.lowerBound : nil, config: config), segments.count)
    }

    /// The token integers of `segments[selected]`, the first relative to the segment before it when
    /// `relativeTo` is its index (as inside a whole document's data), else to the document start.
    func encodeTokens(_ segments: [LineSegment], _ selected: Range<Int>, relativeTo start: Int?, config: HighlightConfiguration) -> [Int] {
        let types = PieceTokenTypes(config, legend: tokenLegend)
        var data: [Int] = []
        data.reserveCapacity(selected.count * 5)
        var previousLine = 0
        var previousStart = 0
        if let start, start > 0, start - 1 < segments.count {
            previousLine = segments[start - 1].line
            previousStart = segments[start - 1].startCharacter
        }
        for segment in segments[selected] {
            let deltaLine = segment.line - previousLine
            data.append(deltaLine)
            data.append(deltaLine == 0 ? segment.startCharacter - previousStart : segment.startCharacter)
            data.append(segment.endCharacter - segment.startCharacter)
            data.append(types[segment.piece])
            data.append(0)
            previousLine = segment.line
            previousStart = segment.startCharacter
        }
        work.tokenIntegersEncoded += data.count
        return data
    }

    func semanticTokensFull(_ params: DocumentParams) throws(ResponseError) -> JSON {
        let uri = try openDocument(params.uri)
        let (data, count) = tokenData(ofDocument: uri)
        let resultID = String(nextResultID)
        nextResultID += 1
        previousTokens[uri] = SentTokens(resultID: resultID, data: data, span: SentSpan(sentCount: count))
        return ["resultId": .string(resultID), "data": .integers(data)]
    }

    /// Answers with one edit covering what differs from the previous result (the full result when
    /// the client's is not the last one sent). Only the tokens the edits since then replaced are
    /// encoded and compared; after a recomputation, every token is.
    /// - Complexity: O(k) for the k tokens in the replaced part, plus O(log m) to find them and
    ///   moving the integers after them in the copy of what the client holds.
    func semanticTokensDelta(_ params: SemanticTokensDeltaParams) throws(ResponseError) -> JSON {
        let uri = try openDocument(params.uri)
        guard var sent = previousTokens.removeValue(forKey: uri), sent.resultID == params.previousResultID,
              let (_, config, segments) = segments(ofDocument: uri, encoding: positionEncoding)
        else {
            return try semanticTokensFull(DocumentParams(uri: uri))
        }
        // The integers that replace `old` of what the client holds, found from the edits when known.
        var old = 0..<sent.data.count
        let new: [Int]
        if let (sentTokens, currentTokens) = sent.span.replaced, sent.span.count == segments.count, 5 * sent.span.sentCount == sent.data.count {
            old = 5 * sentTokens.lowerBound..<5 * sentTokens.upperBound
            new = encodeTokens(segments, currentTokens, relativeTo: currentTokens.lowerBound, config: config)
        } else {
            new = encodeTokens(segments, segments.indices, relativeTo: nil, config: config)
        }
        // Only what differs is sent: the replaced tokens often start or end as they were.
        var prefix = 0
        while prefix < old.count, prefix < new.count, sent.data[old.lowerBound + prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
              sent.data[old.upperBound - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        sent.data.replaceSubrange(old, with: new)
        let resultID = String(nextResultID)
        nextResultID += 1
        previousTokens[uri] = SentTokens(resultID: resultID, data: sent.data, span: SentSpan(sentCount: segments.count))
        var edits: [JSON] = []
        if prefix + suffix < old.count || prefix + suffix < new.count {
            let inserted = new[prefix..<(new.count - suffix)]
            var edit: [String: JSON] = [
                "start": .integer(old.lowerBound + prefix), "deleteCount": .integer(old.count - prefix - suffix),
            ]
            if !inserted.isEmpty { edit["data"] = .integers(Array(inserted)) }
            edits.append(.object(edit))
        }
        return ["resultId": .string(resultID), "edits": .array(edits)]
    }

    func semanticTokensRange(_ params: DocumentRangeParams) throws(ResponseError) -> JSON {
        let uri = try openDocument(params.uri)
        let range = params.range
        let data = tokenData(ofDocument: uri, range: (min(range.start, range.end), max(range.start, range.end))).data
        return ["data": .integers(data)]
    }
}

/// The semantic tokens a client holds of a document: the result it was sent, its integers (kept
/// as the client holds them, edit by edit), and what changed in the document since.
struct SentTokens {
    let resultID: String
    var data: [Int]
    /// Counted in tokens (segments), five integers each.
    var span: SentSpan
}
