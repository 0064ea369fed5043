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

/// What the client said it supports, reduced to what the server acts on.
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
    var showMessage = true
    var workDoneProgress = false
    var diagnosticPull = false
    var diagnosticRefresh = false
    var hoverMarkdown = false
    var codeActionLiterals = false
    var workspaceEditDocumentChanges = false
    var workspaceEditCreatesFiles = false
    var hierarchicalDocumentSymbols = false

    init() {}

    init(initializeParams params: JSON?) {
        let capabilities = params.value(at: "capabilities")
        positionEncodings = capabilities.value(at: "general.positionEncodings")?.arrayValue?.compactMap(\.stringValue) ?? []
        semanticTokensDynamicRegistration = capabilities.value(at: "textDocument.semanticTokens.dynamicRegistration")?.boolValue ?? false
        semanticTokensRefresh = capabilities.value(at: "workspace.semanticTokens.refreshSupport")?.boolValue ?? false
        watchedFilesDynamicRegistration = capabilities.value(at: "workspace.didChangeWatchedFiles.dynamicRegistration")?.boolValue ?? false
        workspaceConfiguration = capabilities.value(at: "workspace.configuration")?.boolValue ?? false
        workDoneProgress = capabilities.value(at: "window.workDoneProgress")?.boolValue ?? false
        diagnosticPull = capabilities.value(at: "textDocument.diagnostic")?.objectValue != nil
        diagnosticRefresh = capabilities.value(at: "workspace.diagnostics.refreshSupport")?.boolValue ?? false
        hoverMarkdown = capabilities.value(at: "textDocument.hover.contentFormat")?.arrayValue?.contains("markdown") ?? false
        codeActionLiterals = capabilities.value(at: "textDocument.codeAction.codeActionLiteralSupport")?.objectValue != nil
        workspaceEditDocumentChanges = capabilities.value(at: "workspace.workspaceEdit.documentChanges")?.boolValue ?? false
        workspaceEditCreatesFiles = capabilities.value(at: "workspace.workspaceEdit.resourceOperations")?.arrayValue?.contains("create") ?? false
        hierarchicalDocumentSymbols = capabilities.value(at: "textDocument.documentSymbol.hierarchicalDocumentSymbolSupport")?.boolValue ?? false
        // Decorations are opt-in, through initializationOptions or an experimental capability.
        let options = params.value(at: "initializationOptions")
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
    func initialize(_ params: JSON?) throws(ResponseError) -> JSON {
        guard lifecycle == .uninitialized else { throw ResponseError.invalidRequest("initialize may be sent only once") }
        client = ClientCapabilities(initializeParams: params)
        logsDebugLines = params.value(at: "trace")?.stringValue == "verbose"
        positionEncoding = Self.chooseEncoding(from: client.positionEncodings)
        workspaceFolders = Self.folders(from: params)
        configuration.initializationOptions = parseSettingsLayer(params.value(at: "initializationOptions"), source: "initializationOptions")
        configuration.initializationOptionsJSON = params.value(at: "initializationOptions")
        rebuildConfigurations()
        loadWorkspaceFolderFiles()
        tokenLegend = TokenLegend(ruleNames: configuration.allRuleNames)
        lifecycle = .running

        var capabilities: [String: JSON] = [
            "positionEncoding": .string(positionEncoding.rawValue),
            "textDocumentSync": ["openClose": true, "change": 2, "save": ["includeText": false]],
            "workspace": ["workspaceFolders": ["supported": true, "changeNotifications": true]],
            "workspaceSymbolProvider": ["workDoneProgress": true],
            "experimental": ["highlightDecorations": ["method": .string(decorationsMethod)]],
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

    static func folders(from params: JSON?) -> [WorkspaceFolder] {
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

    func didChangeWorkspaceFolders(_ params: WorkspaceFoldersChangeParams) {
        let removed = Set(params.removed)
        workspaceFolders.removeAll { removed.contains($0.uri) }
        for uri in params.added {
            guard let path = filePath(fromURI: uri) else { continue }
            workspaceFolders.append(WorkspaceFolder(uri: uri, path: path))
        }
        // The files governing new folders are read by the next load; workspace/symbol's list is scanned again.
        for folder in workspaceFolders {
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
