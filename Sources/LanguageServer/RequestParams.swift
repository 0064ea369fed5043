import JSONRPC
import JSONValue
import TextIndex

// The parameters of each message the server takes, decoded once, at the dispatch site
// (`Server.respond(to:id:params:)`, `Server.receive(_:params:)`), into a typed value: a handler
// reads fields, never JSON. A missing or mistyped field is one InvalidParams error there, naming
// the field (`params.textDocument.uri must be a string, found number`).

/// `{ textDocument: { uri } }`: the requests about one document as a whole.
struct DocumentParams {
    var uri: String

    init(_ params: JSON?) throws(ResponseError) {
        uri = try params.requiredString("textDocument.uri")
    }

    init(uri: String) {
        self.uri = uri
    }
}

/// `textDocument/semanticTokens/full/delta`.
struct SemanticTokensDeltaParams {
    var uri: String
    var previousResultID: String

    init(_ params: JSON?) throws(ResponseError) {
        uri = try params.requiredString("textDocument.uri")
        previousResultID = try params.requiredString("previousResultId")
    }
}

/// A document and a range in it (`textDocument/semanticTokens/range`, `textDocument/codeAction`).
struct DocumentRangeParams {
    var uri: String
    /// Zero-based, in the negotiated encoding, as the client sent it (start and end may be reversed).
    var range: (start: Position, end: Position)
    /// `context.only`: the kinds of code action asked for; nil for all.
    var only: [String]?

    init(_ params: JSON?) throws(ResponseError) {
        uri = try params.requiredString("textDocument.uri")
        range = try params.requiredRange("range")
        only = params.value(at: "context.only")?.arrayValue?.compactMap(\.stringValue)
    }
}

/// A document and a position in it (`textDocument/hover`).
struct DocumentPositionParams {
    var uri: String
    var position: Position

    init(_ params: JSON?) throws(ResponseError) {
        uri = try params.requiredString("textDocument.uri")
        position = try params.requiredPosition("position")
    }
}

/// `textDocument/diagnostic`.
struct DocumentDiagnosticParams {
    var uri: String
    var previousResultID: String?

    init(_ params: JSON?) throws(ResponseError) {
        uri = try params.requiredString("textDocument.uri")
        previousResultID = params.value(at: "previousResultId")?.stringValue
    }
}

/// `textDocument/colorPresentation`.
struct ColorPresentationParams {
    var uri: String
    var range: (start: Position, end: Position)
    /// Red, green, blue and alpha, each from 0 to 1.
    var color: (red: Double, green: Double, blue: Double, alpha: Double)

    init(_ params: JSON?) throws(ResponseError) {
        uri = try params.requiredString("textDocument.uri")
        range = try params.requiredRange("range")
        func component(_ name: String) throws(ResponseError) -> Double {
            guard let value = params.value(at: "color.\(name)")?.doubleValue else {
                throw .invalidParams("params.color.\(name) must be a number")
            }
            return value
        }
        color = (try component("red"), try component("green"), try component("blue"), try component("alpha"))
    }
}

/// `textDocument/didOpen`.
struct DidOpenParams {
    var uri: String
    /// The document's text as UTF-8.
    var text: [UInt8]
    var version: Int
    var languageID: String

    /// The params of `params`, with the text from `text` when a large message's text was decoded
    /// straight into bytes (`Server.decodeDocumentMessage(body:)`; `params` has null there).
    init(_ params: JSON?, text: [UInt8]? = nil) throws(ResponseError) {
        uri = try params.requiredString("textDocument.uri")
        if let text {
            self.text = text
        } else {
            self.text = Array(try params.requiredString("textDocument.text").utf8)
        }
        version = params.value(at: "textDocument.version")?.integerValue ?? 0
        languageID = params.value(at: "textDocument.languageId")?.stringValue ?? ""
    }
}

/// `textDocument/didChange`: every change decoded before any is applied, so that a malformed one
/// applies none.
struct DidChangeParams {
    /// One change: a range and its new text, or (no range) the whole new text.
    struct Change {
        var range: (start: Position, end: Position)?
        var text: String
    }

    var uri: String
    var version: Int?
    var changes: [Change]

    init(_ params: JSON?) throws(ResponseError) {
        uri = try params.requiredString("textDocument.uri")
        version = params.value(at: "textDocument.version")?.integerValue
        var changes: [Change] = []
        for (index, change) in try params.requiredArray("contentChanges").enumerated() {
            let change: JSON? = change
            guard let text = change.value(at: "text")?.stringValue else {
                throw .invalidParams("params.contentChanges[\(index)].text must be a string; no change applied")
            }
            guard change.value(at: "range") != nil else {
                changes.append(Change(range: nil, text: text))
                continue
            }
            do {
                changes.append(Change(range: try change.requiredRange("range"), text: text))
            } catch {
                throw .invalidParams("params.contentChanges[\(index)]: \(error.message); no change applied")
            }
        }
        self.changes = changes
    }
}

/// `workspace/symbol`.
struct WorkspaceSymbolParams {
    var query: String
    /// The client's own progress token, when it sent one.
    var workDoneToken: JSON?
    /// The token for partial results, when the client asked for them.
    var partialResultToken: JSON?

    init(_ params: JSON?) {
        query = params.value(at: "query")?.stringValue ?? ""
        workDoneToken = params.value(at: "workDoneToken")
        partialResultToken = params.value(at: "partialResultToken")
    }
}

/// `highlight/counts`: which rules to count, by name; nil (absent) for every listed rule.
struct CountsParams {
    /// Lowercased rule names.
    var rules: Set<String>?
    var workDoneToken: JSON?

    init(_ params: JSON?) throws(ResponseError) {
        workDoneToken = params.value(at: "workDoneToken")
        guard let rules = params.value(at: "rules"), rules != .null else { return }
        guard let names = rules.arrayValue else { throw ResponseError.invalidParams("rules must be an array of rule names") }
        self.rules = Set(try names.map { name throws(ResponseError) in
            guard let name = name.stringValue else { throw ResponseError.invalidParams("rules must be an array of rule names") }
            return name.lowercased()
        })
    }
}

/// `workspace/executeCommand`: the command and its first argument (the mark commands take one).
struct ExecuteCommandParams {
    var command: String
    var argument: JSON?

    init(_ params: JSON?) throws(ResponseError) {
        command = try params.requiredString("command")
        argument = params.value(at: "arguments")?.arrayValue?.first
    }
}

/// `workspace/didChangeWorkspaceFolders`: the folders removed and added, by URI.
struct WorkspaceFoldersChangeParams {
    var removed: [String]
    var added: [String]

    init(_ params: JSON?) {
        removed = (params.value(at: "event.removed")?.arrayValue ?? []).compactMap { $0["uri"]?.stringValue }
        added = (params.value(at: "event.added")?.arrayValue ?? []).compactMap { $0["uri"]?.stringValue }
    }
}

/// `workspace/didChangeConfiguration`.
struct DidChangeConfigurationParams {
    /// The `highlight` section of the pushed settings; nil when the client pushed none (it is
    /// then asked with `workspace/configuration`).
    var highlightSettings: JSON?

    init(_ params: JSON?) {
        let settings = params.value(at: "settings.highlight")
        highlightSettings = settings?.objectValue != nil ? settings : nil
    }
}

/// `workspace/didChangeWatchedFiles`: the local paths of the files that changed.
struct DidChangeWatchedFilesParams {
    var paths: [String]

    init(_ params: JSON?) throws(ResponseError) {
        paths = try params.requiredArray("changes").compactMap { $0["uri"]?.stringValue.flatMap(filePath(fromURI:)) }
    }
}

/// `$/cancelRequest`: the id of the request to cancel, as the client sent it.
struct CancelParams {
    var id: RequestID?

    init(_ params: JSON?) {
        id = params.value(at: "id").map(RequestID.init)
    }
}

/// `$/setTrace`.
struct SetTraceParams {
    /// `verbose`: debug lines are logged.
    var verbose: Bool

    init(_ params: JSON?) {
        verbose = params.value(at: "value")?.stringValue == "verbose"
    }
}
