import Foundation
import HighlightConfig
import JSONRPC
import JSONValue

/// All configuration layers the server knows and the effective configuration per folder.
struct ConfigurationState {
    var initializationOptions: ConfigLayer?
    var settings: ConfigLayer?
    /// The last good `.highlights.json` layer of each workspace folder, by folder path.
    var fileLayers: [String: ConfigLayer] = [:]
    /// The effective configuration of each workspace folder, by folder path.
    var byFolder: [String: HighlightConfiguration] = [:]
    /// For documents outside every workspace folder.
    var fallback = HighlightConfiguration(layers: [])
    /// Incremented whenever any effective configuration changes; documents compare it.
    var generation = 0
    /// Diagnostics found before the client could be told.
    var pendingDiagnostics: [ConfigDiagnostic] = []
    /// The raw initializationOptions and client settings, for the keys that configure the server itself.
    var initializationOptionsJSON: JSON?
    var settingsJSON: JSON?
    /// The link schemes the user's own settings allow (never the repository's file).
    var linkSchemes: LinkSchemes { LinkSchemes(settings: [settingsJSON, initializationOptionsJSON]) }
    /// The words marked in this session: the highest layer of every configuration (SessionMarks.swift).
    var sessionMarks = SessionMarks()

    /// Every token type (rule names, and `rule.group` for styled groups) of every effective configuration, in a stable order.
    var allRuleNames: [String] {
        var seen = Set<String>()
        var names: [String] = []
        for config in byFolder.keys.sorted().compactMap({ byFolder[$0] }) + [fallback] {
            // The marks' types are in every legend from the start (TokenLegend), so marking never re-registers it.
            for name in config.tokenTypes where !SessionMarks.tokenTypes.contains(name) && seen.insert(name).inserted { names.append(name) }
        }
        return names
    }
}

extension Server {
    /// The effective configuration for a document: that of the deepest workspace folder containing it.
    func configuration(forDocumentURI uri: String) -> HighlightConfiguration {
        let folder = workspacePlace(ofDocument: uri).folder
        return folder.isEmpty ? configuration.fallback : configuration.byFolder[folder] ?? configuration.fallback
    }

    /// Parses a settings object (initializationOptions or workspace/configuration), which may nest the config under "highlight".
    func parseSettingsLayer(_ json: JSON?, source: String) -> ConfigLayer? {
        guard var json, json.objectValue != nil else { return nil }
        if let nested = json["highlight"], nested.objectValue != nil { json = nested }
        var object = json.objectValue ?? [:]
        // Keys that configure the server rather than the highlighting are not config keys.
        object["decorations"] = nil
        object["linkSchemes"] = nil
        let (layer, diagnostics) = ConfigLayer.parse(json: .object(object), source: source)
        report(diagnostics)
        return layer
    }

    /// Reads every workspace folder's `.highlights.json`, keeping the last good layer of a folder whose file is broken.
    func loadAllWorkspaceFiles() {
        for folder in workspaceFolders { loadWorkspaceFile(folderPath: folder.path) }
        let paths = Set(workspaceFolders.map(\.path))
        configuration.fileLayers = configuration.fileLayers.filter { paths.contains($0.key) }
    }

    func loadWorkspaceFile(folderPath: String) {
        let path = ConfigFile.path(inFolder: folderPath)
        // While the editor has the file open, its buffer is the file (docs/ARCHITECTURE.md, "Marks").
        if let (_, document) = openConfigurationDocument(path: path) {
            let (layer, diagnostics) = ConfigLayer.parse(fileContents: document.text.utf8, source: path)
            for diagnostic in diagnostics { log(.warning, diagnostic.description) }
            if let layer { configuration.fileLayers[folderPath] = layer }
            return
        }
        switch ConfigFile.load(path: path) {
        case .missing:
            configuration.fileLayers[folderPath] = nil
        case .loaded(let layer, let diagnostics):
            report(diagnostics)
            configuration.fileLayers[folderPath] = layer
        case .unusable(let diagnostics):
            report(diagnostics)
            let kept = configuration.fileLayers[folderPath] == nil ? "the built-in rules stay in force" : "the last good configuration stays in force"
            log(.warning, "\(path) not applied; \(kept)")
        }
    }

    /// Rebuilds every effective configuration from the layers.
    func rebuildConfigurations() {
        let marks = configuration.sessionMarks.layer
        let shared = [configuration.settings, configuration.initializationOptions].compactMap { $0 }
        var byFolder: [String: HighlightConfiguration] = [:]
        var diagnostics: [ConfigDiagnostic] = []
        for folder in workspaceFolders {
            let config = HighlightConfiguration(layers: [marks] + [configuration.fileLayers[folder.path]].compactMap { $0 } + shared)
            byFolder[folder.path] = config
            diagnostics += config.diagnostics
        }
        configuration.byFolder = byFolder
        configuration.fallback = HighlightConfiguration(layers: [marks] + shared)
        diagnostics += configuration.fallback.diagnostics
        configuration.generation += 1
        report(Array(Set(diagnostics)).sorted { $0.description < $1.description })
    }

    /// Tells the user about configuration problems: a message and the log.
    func report(_ diagnostics: [ConfigDiagnostic]) {
        guard !diagnostics.isEmpty else { return }
        guard lifecycle == .running else {
            configuration.pendingDiagnostics += diagnostics
            return
        }
        for diagnostic in diagnostics {
            log(diagnostic.severity == .error ? .error : .warning, diagnostic.description)
        }
        let errors = diagnostics.filter { $0.severity == .error }
        let first = errors.first ?? diagnostics[0]
        let more = diagnostics.count > 1 ? " (and \(diagnostics.count - 1) more problems; see the log)" : ""
        showMessage(errors.isEmpty ? .warning : .error, "highlight-ls: \(first.description)\(more)")
    }

    func reportPendingDiagnostics() {
        let pending = configuration.pendingDiagnostics
        configuration.pendingDiagnostics = []
        report(pending)
    }

    /// Asks the client for the `highlight` settings of each folder, when it supports that.
    func requestSettings() {
        guard client.workspaceConfiguration else { return }
        sendRequest("workspace/configuration", params: ["items": [["section": "highlight"]]]) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let answer):
                let settings = answer.arrayValue?.first
                let layer = self.parseSettingsLayer(settings, source: "settings (highlight)")
                self.configuration.settings = layer
                self.configuration.settingsJSON = settings
                self.configurationChanged()
            case .failure(let error):
                self.log(.warning, "workspace/configuration failed: \(error.message)")
            }
        }
    }

    func didChangeConfiguration(_ params: JSON?) {
        if let settings = params.value(at: "settings.highlight"), settings.objectValue != nil {
            configuration.settings = parseSettingsLayer(settings, source: "settings (highlight)")
            configuration.settingsJSON = settings
            configurationChanged()
        } else {
            requestSettings()
        }
    }

    func didChangeWatchedFiles(_ params: JSON?) throws(ResponseError) {
        var touched = false
        for change in try params.requiredArray("changes") {
            guard let uri = change["uri"]?.stringValue, let path = filePath(fromURI: uri) else { continue }
            // Only a folder's own `.highlights.json` configures it.
            for folder in workspaceFolders where ConfigFile.path(inFolder: folder.path) == path {
                loadWorkspaceFile(folderPath: folder.path)
                touched = true
            }
        }
        if touched { configurationChanged() }
    }

    /// After any configuration change: new matches everywhere, a new legend if needed, and a refresh.
    func configurationChanged() {
        // A search under the old configuration would answer with rules that no longer apply.
        cancelJobs(answering: ResponseError(code: ResponseError.contentModifiedCode, message: "the configuration changed")) { _ in true }
        rebuildConfigurations()
        let names = configuration.allRuleNames
        if names != tokenLegend.ruleNames {
            if client.semanticTokensDynamicRegistration {
                tokenLegend = TokenLegend(ruleNames: names)
                registerSemanticTokens()
            } else {
                log(.info, "the token legend is fixed at initialize; new rule names are sent as type \"\(TokenLegend.fallbackType)\"")
            }
        }
        previousTokens.removeAll()
        if client.semanticTokensRefresh { sendRequest("workspace/semanticTokens/refresh", params: nil) }
        requestDiagnosticRefresh()
        documentsNeedingDecorations.formUnion(documents.keys)
    }
}
