import HighlightConfig
import JSONRPC
import JSONValue
import PatternEngine
import TextIndex

extension Server {
    func didOpen(_ params: JSON?) throws(ResponseError) {
        let uri = try params.requiredString("textDocument.uri")
        let text = try params.requiredString("textDocument.text")
        let version = params.value(at: "textDocument.version")?.integerValue ?? 0
        let languageId = params.value(at: "textDocument.languageId")?.stringValue ?? ""
        if documents[uri] != nil { log(.info, "\(uri) opened again; its text is replaced") }
        documents[uri] = Document(uri: uri, languageId: languageId, version: version, text: Array(text.utf8))
        previousTokens[uri] = nil
        documentsNeedingDecorations.insert(uri)
    }

    /// Applies the changes in order, all or nothing: a malformed change leaves the document as it was.
    func didChange(_ params: JSON?) throws(ResponseError) {
        let uri = try params.requiredString("textDocument.uri")
        let changes = try params.requiredArray("contentChanges")
        guard var document = documents[uri] else {
            log(.warning, "didChange for \(uri), which is not open, ignored")
            return
        }
        var edits: [(range: (start: Position, end: Position)?, text: String)] = []
        for (index, change) in changes.enumerated() {
            let change: JSON? = change
            guard let text = change.value(at: "text")?.stringValue else {
                throw .invalidParams("params.contentChanges[\(index)].text must be a string; no change applied")
            }
            guard change.value(at: "range") != nil else {
                edits.append((nil, text))
                continue
            }
            do {
                edits.append((try change.requiredRange("range"), text))
            } catch {
                throw .invalidParams("params.contentChanges[\(index)]: \(error.message); no change applied")
            }
        }
        for edit in edits {
            if let range = edit.range {
                let index = document.text.lineIndex
                var start = index.utf8Offset(of: range.start, encoding: positionEncoding)
                var end = index.utf8Offset(of: range.end, encoding: positionEncoding)
                if start > end {
                    log(.info, "\(uri): reversed range in didChange normalised")
                    swap(&start, &end)
                }
                document.text.replace(utf8Range: start..<end, with: Array(edit.text.utf8))
            } else {
                document.text = TextBuffer(utf8: Array(edit.text.utf8))
            }
        }
        if let version = params.value(at: "textDocument.version")?.integerValue {
            if version <= document.version { log(.info, "\(uri): version \(version) after \(document.version) accepted") }
            document.version = version
        }
        document.matches = nil
        documents[uri] = document
        documentsNeedingDecorations.insert(uri)
    }

    func didClose(_ params: JSON?) throws(ResponseError) {
        let uri = try params.requiredString("textDocument.uri")
        if documents.removeValue(forKey: uri) == nil { log(.warning, "didClose for \(uri), which is not open, ignored") }
        previousTokens[uri] = nil
        documentsNeedingDecorations.remove(uri)
    }

    func didSave(_ params: JSON?) throws(ResponseError) {
        let uri = try params.requiredString("textDocument.uri")
        // Saving the config file itself reloads it even where the client watches no files.
        if let path = filePath(fromURI: uri), path.hasSuffix("/" + ConfigFile.name) {
            try didChangeWatchedFiles(["changes": [["uri": .string(uri), "type": 2]]])
        }
    }

    /// The open document, or RequestFailed when it is not open.
    func openDocument(_ params: JSON?) throws(ResponseError) -> String {
        let uri = try params.requiredString("textDocument.uri")
        guard documents[uri] != nil else { throw .requestFailed("document \(uri) is not open") }
        return uri
    }

    /// The matches of a document under its current configuration, computed once per change.
    func matches(ofDocument uri: String) -> (document: Document, config: HighlightConfiguration, matches: MatchList)? {
        guard var document = documents[uri] else { return nil }
        let config = configuration(forDocumentURI: uri)
        if let cached = document.matches, document.configurationGeneration == configuration.generation {
            return (document, config, cached)
        }
        let list = document.text.withUnsafeBytes { config.ruleSet.matches(in: $0) }
        if list.truncated { log(.warning, "\(uri): too many matches; only the first \(list.matches.count) are highlighted") }
        document.matches = list
        document.configurationGeneration = configuration.generation
        documents[uri] = document
        return (document, config, list)
    }
}
