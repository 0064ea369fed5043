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
    /// - Complexity: O(m) integer work for m segments; positions come from the document's cached segments.
    func tokenData(ofDocument uri: String, range: (start: Position, end: Position)? = nil) -> [Int] {
        guard let (_, config, segments) = segments(ofDocument: uri, encoding: positionEncoding) else { return [] }
        var selected = segments[...]
        if let range {
            // Segments are sorted by line, then character, and never overlap.
            let first = segments.partitionPoint { ($0.line, $0.endCharacter) > (range.start.line, range.start.character) }
            let end = segments.partitionPoint { ($0.line, $0.startCharacter) >= (range.end.line, range.end.character) }
            selected = segments[first..<max(first, end)]
        }
        let types = PieceTokenTypes(config, legend: tokenLegend)
        var data: [Int] = []
        data.reserveCapacity(selected.count * 5)
        var previousLine = 0
        var previousStart = 0
        for segment in selected {
            let deltaLine = segment.line - previousLine
            data.append(deltaLine)
            data.append(deltaLine == 0 ? segment.startCharacter - previousStart : segment.startCharacter)
            data.append(segment.endCharacter - segment.startCharacter)
            data.append(types[segment.piece])
            data.append(0)
            previousLine = segment.line
            previousStart = segment.startCharacter
        }
        return data
    }

    func semanticTokensFull(_ params: JSON?) throws(ResponseError) -> JSON {
        let uri = try openDocument(params)
        let data = tokenData(ofDocument: uri)
        let resultID = String(nextResultID)
        nextResultID += 1
        previousTokens[uri] = (resultID, data)
        return ["resultId": .string(resultID), "data": .array(data.map { .integer($0) })]
    }

    /// Answers with one edit covering what differs from the previous result (or the full result when that is unknown).
    func semanticTokensDelta(_ params: JSON?) throws(ResponseError) -> JSON {
        let uri = try openDocument(params)
        let previousID = try params.requiredString("previousResultId")
        guard let previous = previousTokens[uri], previous.resultID == previousID else {
            return try semanticTokensFull(params)
        }
        let data = tokenData(ofDocument: uri)
        let resultID = String(nextResultID)
        nextResultID += 1
        previousTokens[uri] = (resultID, data)
        let old = previous.data
        var prefix = 0
        while prefix < old.count, prefix < data.count, old[prefix] == data[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < data.count - prefix,
              old[old.count - 1 - suffix] == data[data.count - 1 - suffix] { suffix += 1 }
        var edits: [JSON] = []
        if prefix != old.count || old.count != data.count {
            let inserted = data[prefix..<(data.count - suffix)]
            var edit: [String: JSON] = ["start": .integer(prefix), "deleteCount": .integer(old.count - prefix - suffix)]
            if !inserted.isEmpty { edit["data"] = .array(inserted.map { .integer($0) }) }
            edits.append(.object(edit))
        }
        return ["resultId": .string(resultID), "edits": .array(edits)]
    }

    func semanticTokensRange(_ params: JSON?) throws(ResponseError) -> JSON {
        let uri = try openDocument(params)
        let range = try params.requiredRange("range")
        let data = tokenData(ofDocument: uri, range: (min(range.start, range.end), max(range.start, range.end)))
        return ["data": .array(data.map { .integer($0) })]
    }
}
