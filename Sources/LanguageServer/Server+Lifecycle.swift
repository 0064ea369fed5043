#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import HighlightConfig
import JSONRPC
import JSONValue
import TextIndex

/// What the client said it supports, reduced to what the server acts on: the one view every
/// encoder consults before it sends an optional field or a message kind.
///
/// Each flag is false (the field or message is left out) unless the client announced it, as
/// LSP asks; `init(_:)` is the only place the `capabilities` object is read.
struct ClientCapabilities {
    var positionEncodings: [String] = []
    var semanticTokensDynamicRegistration = false
    var semanticTokensRefresh = false
    var watchedFilesDynamicRegistration = false
    var workspaceConfiguration = false
    var decorations = false
    var decorationEncoding: PositionEncoding?
    /// The client takes decorations as the lines that changed (`"delta": true`).
    var decorationDeltas = false
    var workDoneProgress = false
    var diagnosticPull = false
    var diagnosticRefresh = false
    /// `publishDiagnostics.codeDescriptionSupport`: a diagnostic may carry its rule's link.
    var diagnosticCodeDescription = false
    /// `publishDiagnostics.versionSupport`: pushed diagnostics may name the document version.
    var diagnosticVersion = false
    var hoverMarkdown = false
    /// `documentLink.tooltipSupport`: a link may carry its rule's message.
    var documentLinkTooltip = false
    var codeActionLiterals = false
    /// `workspace.applyEdit`: the server may ask the client to apply an edit.
    var applyEdit = false
    var workspaceEditDocumentChanges = false
    var workspaceEditCreatesFiles = false
    var hierarchicalDocumentSymbols = false

    init() {}

    init(_ capabilities: JSON?, initializationOptions options: JSON?) {
        func flag(_ path: String) -> Bool { capabilities.value(at: path)?.boolValue ?? false }
        func announced(_ path: String) -> Bool { capabilities.value(at: path)?.objectValue != nil }
        func list(_ path: String) -> [String] { capabilities.value(at: path)?.arrayValue?.compactMap(\.stringValue) ?? [] }
        positionEncodings = list("general.positionEncodings")
        semanticTokensDynamicRegistration = flag("textDocument.semanticTokens.dynamicRegistration")
        semanticTokensRefresh = flag("workspace.semanticTokens.refreshSupport")
        watchedFilesDynamicRegistration = flag("workspace.didChangeWatchedFiles.dynamicRegistration")
        workspaceConfiguration = flag("workspace.configuration")
        workDoneProgress = flag("window.workDoneProgress")
        diagnosticPull = announced("textDocument.diagnostic")
        diagnosticRefresh = flag("workspace.diagnostics.refreshSupport")
        diagnosticCodeDescription = flag("textDocument.publishDiagnostics.codeDescriptionSupport")
        diagnosticVersion = flag("textDocument.publishDiagnostics.versionSupport")
        hoverMarkdown = list("textDocument.hover.contentFormat").contains("markdown")
        documentLinkTooltip = flag("textDocument.documentLink.tooltipSupport")
        codeActionLiterals = announced("textDocument.codeAction.codeActionLiteralSupport")
        applyEdit = flag("workspace.applyEdit")
        workspaceEditDocumentChanges = flag("workspace.workspaceEdit.documentChanges")
        workspaceEditCreatesFiles = list("workspace.workspaceEdit.resourceOperations").contains("create")
        hierarchicalDocumentSymbols = flag("textDocument.documentSymbol.hierarchicalDocumentSymbolSupport")
        // Decorations are opt-in, through initializationOptions or an experimental capability.
        for source in [options.value(at: "decorations"), capabilities.value(at: "experimental.highlightDecorations")] {
            switch source {
            case .bool(let enabled): decorations = decorations || enabled
            case .object(let object):
                decorations = true
                if let name = object["positionEncoding"]?.stringValue { decorationEncoding = PositionEncoding(rawValue: name) }
                if object["delta"]?.boolValue == true { decorationDeltas = true }
            default: break
            }
        }
    }

    /// Whether the client takes the server-to-client request `method` with `params`: the one
    /// check `Server.sendRequest` makes before anything is asked of the client.
    func takes(request method: String, params: JSON?) -> Bool {
        switch method {
        case "workspace/semanticTokens/refresh": return semanticTokensRefresh
        case "workspace/diagnostic/refresh": return diagnosticPull && diagnosticRefresh
        case "workspace/configuration": return workspaceConfiguration
        case "window/workDoneProgress/create": return workDoneProgress
        case "workspace/applyEdit": return applyEdit
        case "client/registerCapability", "client/unregisterCapability":
            // LSP spells the list of `client/unregisterCapability` "unregisterations".
            let list = params.value(at: "registrations") ?? params.value(at: "unregisterations")
            let methods = list?.arrayValue?.compactMap { $0["method"]?.stringValue } ?? []
            return !methods.isEmpty && methods.allSatisfy { method in
                switch method {
                case "textDocument/semanticTokens": return semanticTokensDynamicRegistration
                case "workspace/didChangeWatchedFiles": return watchedFilesDynamicRegistration
                default: return false
                }
            }
        default: return false
        }
    }
}

/// `initialize`, decoded once: what the client announced and where the workspace is.
struct InitializeParams {
    var capabilities: ClientCapabilities
    /// The client asked for a `verbose` trace: debug lines are logged.
    var verboseTrace: Bool
    var workspaceFolders: [WorkspaceFolder]
    var initializationOptions: JSON?

    init(_ params: JSON?) {
        initializationOptions = params.value(at: "initializationOptions")
        capabilities = ClientCapabilities(params.value(at: "capabilities"), initializationOptions: initializationOptions)
        verboseTrace = params.value(at: "trace")?.stringValue == "verbose"
        workspaceFolders = Self.folders(from: params)
    }

    /// `workspaceFolders`, else `rootUri`, else `rootPath`; entries that name no local folder are left out.
    private static func folders(from params: JSON?) -> [WorkspaceFolder] {
        if let list = params.value(at: "workspaceFolders")?.arrayValue {
            return list.compactMap { entry in
                guard let uri = entry["uri"]?.stringValue, let path = filePath(fromURI: uri) else { return nil }
                return WorkspaceFolder(uri: uri, path: path)
            }
        }
        if let uri = params.value(at: "rootUri")?.stringValue, let path = filePath(fromURI: uri) {
            return [WorkspaceFolder(uri: uri, path: path)]
        }
        if let path = params.value(at: "rootPath")?.stringValue, !path.isEmpty {
            return [WorkspaceFolder(uri: URL(fileURLWithPath: path).absoluteString, path: path)]
        }
        return []
    }
}

/// A workspace folder: its URI and the local path its `.highlights.json` is read from.
struct WorkspaceFolder: Equatable {
    var uri: String
    var path: String
}

/// Turns a `file:` URI into a local path (percent-decoded); `nil` for other schemes.
func filePath(fromURI uri: String) -> String? {
    guard let url = URL(string: uri), url.isFileURL else { return nil }
    let path = url.path
    return path.isEmpty ? nil : path
}

extension Server {
    func initialize(_ params: InitializeParams) throws(ResponseError) -> JSON {
        guard lifecycle == .uninitialized else { throw ResponseError.invalidRequest("initialize may be sent only once") }
        client = params.capabilities
        logsDebugLines = params.verboseTrace
        positionEncoding = Self.chooseEncoding(from: client.positionEncodings)
        workspaceFolders = WorkspaceFolders(params.workspaceFolders)
        configuration.initializationOptions = parseSettingsLayer(params.initializationOptions, source: "initializationOptions")
        configuration.initializationOptionsJSON = params.initializationOptions
        rebuildConfigurations()
        loadWorkspaceFolderFiles()
        tokenLegend = TokenLegend(ruleNames: configuration.allRuleNames)
        lifecycle = .running

        var capabilities: [String: JSON] = [
            "positionEncoding": .string(positionEncoding.rawValue),
            "textDocumentSync": ["openClose": true, "change": 2, "save": ["includeText": false]],
            "workspace": ["workspaceFolders": ["supported": true, "changeNotifications": true]],
            "workspaceSymbolProvider": ["workDoneProgress": true],
            "experimental": ["highlightDecorations": ["method": .string(decorationsMethod)], "countsProvider": true],
            "diagnosticProvider": diagnosticOptions(),
            "documentLinkProvider": ["resolveProvider": false],
            "hoverProvider": true,
            "colorProvider": true,
            "codeActionProvider": true,
            "executeCommandProvider": ["commands": .array(MarkCommand.all.map { .string($0) })],
            "documentSymbolProvider": ["label": "highlight-ls"],
        ]
        if !client.semanticTokensDynamicRegistration {
            capabilities["semanticTokensProvider"] = semanticTokensOptions()
        }
        let version = ServerInfo.version
        return ["capabilities": .object(capabilities), "serverInfo": ["name": "highlight-ls", "version": .string(version)]]
    }

    func initialized() {
        if client.semanticTokensDynamicRegistration { registerSemanticTokens() }
        prepareWorkspaceProgressToken()
        if client.watchedFilesDynamicRegistration {
            sendRequest("client/registerCapability", params: ["registrations": [[
                "id": "highlight-ls-watch-config",
                "method": "workspace/didChangeWatchedFiles",
                "registerOptions": ["watchers": [["globPattern": "**/.highlights.json"]]],
            ]]])
        }
        requestSettings()
        reportPendingDiagnostics()
        configuration.clientInitialized = true
    }

    /// `shutdown`: every request a background job is still answering is answered first
    /// (RequestCancelled), so no request of the session goes unanswered before `exit`.
    func shutdown() -> JSON {
        cancelJobs(answering: .requestCancelled) { _ in true }
        lifecycle = .shutDown
        return .null
    }

    /// UTF-16 unless the client offers another encoding we support; the client's order is its preference.
    static func chooseEncoding(from offered: [String]) -> PositionEncoding {
        for name in offered {
            if let encoding = PositionEncoding(rawValue: name) { return encoding }
        }
        return .utf16
    }

    /// `workspace/didChangeWorkspaceFolders`: the files governing the added folders are read by
    /// the next load, and workspace/symbol's list is scanned again.
    ///
    /// - Complexity: O(*n* + *a*) for *n* folders and *a* added, plus a lookup per added folder.
    func didChangeWorkspaceFolders(_ params: WorkspaceFoldersChangeParams) {
        let added = params.added.compactMap { uri in filePath(fromURI: uri).map { WorkspaceFolder(uri: uri, path: $0) } }
        workspaceFolders.change(removing: Set(params.removed), adding: added)
        for folder in added {
            guard let governing = configurationPlace(ofPath: ConfigFile.path(inFolder: folder.path)).folder,
                  configuration.byFolder[governing] == nil, !configuration.foldersLoading.contains(governing) else { continue }
            configuration.foldersToLoad.insert(governing)
        }
        startPendingConfigurationLoad()
        configurationsReplaced()
    }
}

/// The server's name and version, as printed by `--version`.
public enum ServerInfo {
    /// The one version of the project: `scripts/version.sh` reads it from this line, the release
    /// archives are named after it, and a test checks the VS Code extension and CHANGELOG.md against it.
    public static let version = "0.1.0"
}
