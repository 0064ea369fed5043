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

// Which configuration governs a document, and how configuration files are read.
//
// A file is governed by the nearest `.highlights.json` in its folder or above, up to the
// repository root, exactly as on the command line: `ConfigFile.governingFolder` answers for
// both, and `configurationPlace(ofPath:…)` adds the path the `files` globs see (relative to the
// governing folder). The server keeps one configuration per governing folder, read the first
// time a document under it opens or a workspace scan reaches it, and the answer of
// `governingFolder` per folder of files, forgotten whenever a `.highlights.json` is created or
// deleted.
//
// Reading and compiling configuration files is a job (BackgroundJobs.swift), never work on the
// loop, except at `initialize`, which must answer with the legend. Watched-file events and
// edits of an open `.highlights.json` only note the folder; the reload starts when the loop is
// idle or before the next message of another kind, so a notification naming a file k times,
// and notifications queued back to back, reload once. One load runs at a time; what is noted
// meanwhile is read by the next.

/// All configuration layers the server knows and the effective configuration per governing folder.
struct ConfigurationState {
    var initializationOptions: ConfigLayer?
    var settings: ConfigLayer?
    /// The last good layer of each `.highlights.json` read, by the folder that holds it.
    var fileLayers: [String: ConfigLayer] = [:]
    /// The effective configuration of each folder known to hold a `.highlights.json`, by folder path.
    var byFolder: [String: HighlightConfiguration] = [:]
    /// For documents no `.highlights.json` governs.
    var fallback = HighlightConfiguration(layers: [])
    /// Which folder's `.highlights.json` governs each folder's files; forgotten whenever a
    /// `.highlights.json` appears or goes.
    var placement = ConfigPlacement()
    /// Incremented whenever any effective configuration changes; documents compare it.
    var generation = 0
    /// Incremented whenever a layer every configuration shares changes (marks, settings,
    /// initializationOptions), so that configurations a load built with the old ones are rebuilt.
    var sharedLayersGeneration = 0
    /// Folders whose `.highlights.json` changed (watched-file events, the open buffer), read by the next reload.
    var foldersToReload: Set<String> = []
    /// Folders whose `.highlights.json` is needed for the first time, read by the next load, at once.
    var foldersToLoad: Set<String> = []
    /// Whether a load is running; the next starts when it ends.
    var loadRunning = false
    /// The folders the running load reads.
    var foldersLoading: Set<String> = []
    /// `didOpen` parameters of documents waiting for their folder's first load, by folder.
    var opensWaitingForLoad: [String: [DidOpenParams]] = [:]
    /// How many loads that changed known files have been applied (named in the log).
    var reloadCount = 0
    /// The LSP diagnostics of each configuration file with problems, by path.
    var fileDiagnostics: [String: [JSON]] = [:]
    /// Configuration files whose diagnostics changed since they were last published.
    var fileDiagnosticsToPublish: Set<String> = []
    /// Configuration files (as URIs) that were last published with diagnostics, so that they are cleared later.
    var filesWithPublishedDiagnostics: Set<String> = []
    /// Whether the client sent `initialized`: problems found at `initialize` are published after it.
    var clientInitialized = false
    /// Diagnostics found before the client could be told.
    var pendingDiagnostics: [ConfigDiagnostic] = []
    /// The raw initializationOptions and client settings, for the keys that configure the server itself.
    var initializationOptionsJSON: JSON?
    var settingsJSON: JSON?
    /// The link schemes the user's own settings allow (never the repository's file).
    var linkSchemes: LinkSchemes { LinkSchemes(settings: [settingsJSON, initializationOptionsJSON]) }
    /// The day deadlines are judged on: `"today"` of initializationOptions (for reproducible sessions), else the
    /// local date, asked each time, so that a session left open overnight moves on.
    var today: CalendarDay { fixedDay ?? CalendarDay.today() }

    /// The seconds since 1970 that hover's "4 months ago" counts back from: the start of `"today"` (UTC) when the
    /// initializationOptions fix the day, else the clock's.
    var now: Int64 { fixedDay?.startSecondsSince1970 ?? Int64(time(nil)) }

    /// The day `"today"` of the initializationOptions fixes (directly or under `"highlight"`), if any.
    private var fixedDay: CalendarDay? {
        let options = initializationOptionsJSON.flatMap { $0["highlight"]?.objectValue != nil ? $0["highlight"] : $0 }
        return options?["today"]?.stringValue.flatMap { CalendarDay($0) }
    }

    /// The words marked in this session: the highest layer of every configuration (SessionMarks.swift).
    var sessionMarks = SessionMarks()

    /// The layers below a file's layer: the user's settings, then initializationOptions.
    var sharedLayers: [ConfigLayer] { [settings, initializationOptions].compactMap { $0 } }

    /// The effective configuration with `fileLayer` as the repository's layer.
    func build(fileLayer: ConfigLayer?) -> HighlightConfiguration {
        HighlightConfiguration(layers: [sessionMarks.layer] + [fileLayer].compactMap { $0 } + sharedLayers)
    }

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

/// Where the configuration of the absolute file `path` comes from, and the path its `files`
/// globs match: the folder `governingFolder` gives for the file's folder (nil for none), and the
/// path relative to it; with no governing file, the path relative to the deepest of `folders`
/// (the workspace folders) containing it, where the user's settings apply, or the whole path.
func configurationPlace(ofPath path: String, folders: WorkspaceFolders, governingFolder: (String) -> String?) -> ConfigPlace {
    let absolute = ConfigFile.absolutePath(path, currentDirectory: "/")
    if let governing = governingFolder(ConfigFile.parentFolder(of: absolute)),
       let relative = ConfigFile.relativePath(of: absolute, inFolder: governing) {
        return ConfigPlace(folder: governing, relativePath: relative)
    }
    // Without a file, settings' `files` globs match from the workspace folder (the whole path outside every folder).
    return ConfigPlace(folder: nil, relativePath: folders.place(ofPath: absolute)?.relativePath ?? absolute)
}

extension Server {
    /// The configuration place of the file at the absolute `path`, with the governing folder of
    /// its folder cached.
    func configurationPlace(ofPath path: String) -> ConfigPlace {
        LanguageServer.configurationPlace(ofPath: path, folders: workspaceFolders) { folder in
            configuration.placement.governingFolder(ofFolder: folder)
        }
    }

    /// The configuration place of a document; nil for a document that is not a file.
    func configurationPlace(ofDocument uri: String) -> ConfigPlace? {
        filePath(fromURI: uri).map { configurationPlace(ofPath: $0) }
    }

    /// The effective configuration for a document: that of the `.highlights.json` governing it.
    func configuration(forDocumentURI uri: String) -> HighlightConfiguration {
        configuration(ofFolder: configurationPlace(ofDocument: uri)?.folder)
    }

    /// The configuration of a governing folder (the fallback for nil, or a folder not read yet).
    func configuration(ofFolder folder: String?) -> HighlightConfiguration {
        folder.flatMap { configuration.byFolder[$0] } ?? configuration.fallback
    }

    /// Parses a settings object (initializationOptions or workspace/configuration), which may nest the config under "highlight".
    func parseSettingsLayer(_ json: JSON?, source: String) -> ConfigLayer? {
        guard var json, json.objectValue != nil else { return nil }
        if let nested = json["highlight"], nested.objectValue != nil { json = nested }
        var object = json.objectValue ?? [:]
        // Keys that configure the server rather than the highlighting are not config keys.
        object["decorations"] = nil
        object["linkSchemes"] = nil
        object["today"] = nil
        let (layer, diagnostics) = ConfigLayer.parse(json: .object(object), source: source)
        report(diagnostics)
        return layer
    }

    /// At `initialize`: reads the files governing the workspace folders themselves, on the loop,
    /// since the answer carries the legend; files deeper down are read when first needed.
    func loadWorkspaceFolderFiles() {
        let folders = Set(workspaceFolders.list.compactMap { configurationPlace(ofPath: ConfigFile.path(inFolder: $0.path)).folder })
            .subtracting(configuration.byFolder.keys)
        guard !folders.isEmpty else { return }
        let loads = configurationLoad(of: folders.sorted()).run()
        applyConfigurationLoads(loads, sharedLayersGeneration: configuration.sharedLayersGeneration, reloaded: false)
    }

    /// The snapshot a load of `folders` works on: each file's open buffer, if any, and the layers.
    func configurationLoad(of folders: [String]) -> ConfigurationLoad {
        ConfigurationLoad(
            files: folders.map { folder in
                ConfigurationLoad.File(folder: folder, buffer: openConfigurationDocument(path: ConfigFile.path(inFolder: folder))?.document.text.utf8)
            },
            marks: configuration.sessionMarks.layer, shared: configuration.sharedLayers,
            lastGoodLayers: configuration.fileLayers.filter { folders.contains($0.key) },
            sharedLayersGeneration: configuration.sharedLayersGeneration, encoding: positionEncoding)
    }

    /// Starts the load of the folders noted for loading or reloading, unless one is running.
    func startPendingConfigurationLoad() {
        guard lifecycle == .running, !configuration.loadRunning else { return }
        let reloaded = !configuration.foldersToReload.isEmpty
        let folders = configuration.foldersToLoad.union(configuration.foldersToReload).sorted()
        guard !folders.isEmpty else { return }
        configuration.foldersToLoad = []
        configuration.foldersToReload = []
        configuration.loadRunning = true
        configuration.foldersLoading = Set(folders)
        let load = configurationLoad(of: folders)
        startJob(.loadConfiguration, answering: nil) { _ in
            .loadedConfigurations(ConfigurationLoad.Outcome(loads: load.run(), sharedLayersGeneration: load.sharedLayersGeneration, reloaded: reloaded))
        }
    }

    /// Takes in what a configuration load read, and starts the next load if files changed meanwhile.
    func finishConfigurationLoad(_ loaded: ConfigurationLoad.Outcome) {
        configuration.loadRunning = false
        configuration.foldersLoading = []
        applyConfigurationLoads(loaded.loads, sharedLayersGeneration: loaded.sharedLayersGeneration, reloaded: loaded.reloaded)
        startPendingConfigurationLoad()
    }

    /// Installs what a load read. After a reload (a file changed, appeared or went), every
    /// folder's governing file is looked up again and every document is highlighted again; after
    /// first loads only, documents already open are untouched unless one of them is governed by a
    /// folder just read.
    func applyConfigurationLoads(_ loads: [ConfigurationLoad.Loaded], sharedLayersGeneration: Int, reloaded: Bool) {
        guard !loads.isEmpty else { return }
        var wentAway = false
        for load in loads {
            let path = ConfigFile.path(inFolder: load.folder)
            let built = sharedLayersGeneration == configuration.sharedLayersGeneration ? load.configuration : nil
            switch load.outcome {
            case .missing:
                wentAway = wentAway || configuration.byFolder[load.folder] != nil || !reloaded
                configuration.byFolder[load.folder] = nil
                configuration.fileLayers[load.folder] = nil
            case .layer(let layer):
                configuration.fileLayers[load.folder] = layer
                configuration.byFolder[load.folder] = built ?? configuration.build(fileLayer: layer)
            case .keepLastGoodLayer:
                let last = configuration.fileLayers[load.folder]
                configuration.byFolder[load.folder] = (last == nil ? nil : built) ?? configuration.build(fileLayer: last)
                if !load.fromBuffer {
                    let kept = last == nil ? "the built-in rules stay in force" : "the last good configuration stays in force"
                    log(.warning, "\(path) not applied; \(kept)")
                }
            }
            // While the user types in the file, its problems go to the log, not a message per keystroke.
            if load.fromBuffer {
                for diagnostic in load.diagnostics { log(.warning, diagnostic.description) }
            } else {
                report(load.diagnostics)
            }
            configuration.fileDiagnostics[path] = load.lspDiagnostics.isEmpty ? nil : load.lspDiagnostics
            configuration.fileDiagnosticsToPublish.insert(path)
            if let (uri, _) = openConfigurationDocument(path: path) { documentsNeedingDecorations.insert(uri) }
        }
        let folders = Set(loads.map(\.folder))
        if reloaded || wentAway { configuration.placement.forgetAll() }
        if reloaded {
            configuration.reloadCount += 1
            log(.info, "configuration reload \(configuration.reloadCount): \(loads.map { ConfigFile.path(inFolder: $0.folder) }.sorted().joined(separator: ", "))")
        }
        // Whatever a document needs that is not read yet is read next.
        for uri in documents.keys.sorted() {
            guard let folder = configurationPlace(ofDocument: uri)?.folder, configuration.byFolder[folder] == nil else { continue }
            configuration.foldersToLoad.insert(folder)
        }
        let governsOpenDocument = documents.keys.contains { uri in
            guard let folder = configurationPlace(ofDocument: uri)?.folder else { return false }
            return folders.contains(folder)
        }
        // At `initialize` there is nothing to announce: the answer carries the legend.
        if lifecycle == .running {
            if reloaded || wentAway || governsOpenDocument {
                configurationsReplaced()
            } else if updateLegend() {
                // Token types of documents already open have new numbers.
                previousTokens.removeAll()
                if client.semanticTokensRefresh { sendRequest("workspace/semanticTokens/refresh", params: nil) }
            }
        }
        openDocumentsWaiting(forFolders: folders)
    }

    /// Opens the documents that waited for the first load of one of `folders`, then handles the
    /// messages about them that waited in turn.
    func openDocumentsWaiting(forFolders folders: Set<String>) {
        for folder in folders.sorted() {
            for params in configuration.opensWaitingForLoad.removeValue(forKey: folder) ?? [] {
                let uri = params.uri
                let held = documentsOpening.removeValue(forKey: uri) ?? []
                didOpen(params, waitingForConfiguration: false)
                if let opening = documentsOpening[uri] {
                    // A large document is now opened by a job of its own, which handles the messages when it ends.
                    documentsOpening[uri] = held + opening
                } else {
                    documentsOpening[uri] = held
                    handleMessagesWaiting(forDocument: uri)
                }
            }
        }
    }

    /// The governing folder of a document that is not read yet, noted to be read; nil when the
    /// document's configuration is known.
    func unreadGoverningFolder(ofDocument uri: String) -> String? {
        guard let folder = configurationPlace(ofDocument: uri)?.folder, configuration.byFolder[folder] == nil else { return nil }
        return folder
    }

    /// Rebuilds every effective configuration from the layers (after a shared layer changed).
    func rebuildConfigurations() {
        var diagnostics: [ConfigDiagnostic] = []
        for folder in configuration.byFolder.keys.sorted() {
            let config = configuration.build(fileLayer: configuration.fileLayers[folder])
            configuration.byFolder[folder] = config
            diagnostics += config.diagnostics
        }
        configuration.fallback = configuration.build(fileLayer: nil)
        diagnostics += configuration.fallback.diagnostics
        configuration.sharedLayersGeneration += 1
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
                self.applySettings(answer.arrayValue?.first)
            case .failure(let error):
                self.log(.warning, "workspace/configuration failed: \(error.message)")
            }
        }
    }

    func didChangeConfiguration(_ params: DidChangeConfigurationParams) {
        if let settings = params.highlightSettings {
            applySettings(settings)
        } else {
            requestSettings()
        }
    }

    /// Takes the client's settings. Settings that say what the last ones said (a client that
    /// answers `{}` or `null` at start, or sends the same again) change nothing, so no document
    /// is highlighted or sent again for them.
    func applySettings(_ settings: JSON?) {
        func meaning(_ json: JSON?) -> JSON? {
            guard let object = json?.objectValue, !object.isEmpty else { return nil }
            return json
        }
        guard meaning(settings) != meaning(configuration.settingsJSON) else { return }
        configuration.settings = parseSettingsLayer(settings, source: "settings (highlight)")
        configuration.settingsJSON = settings
        configurationChanged()
    }

    /// Notes each `.highlights.json` the event names for the next reload (BackgroundJobs.swift);
    /// nothing is read here.
    func didChangeWatchedFiles(_ params: DidChangeWatchedFilesParams) {
        for path in params.paths { noteConfigurationFileChanged(path: path) }
    }

    /// After an open `.highlights.json` was opened, edited or closed: its layer follows the buffer
    /// while it is open, and the file on disk again once it is closed.
    func configurationDocumentChanged(_ uri: String) {
        guard uri.hasSuffix("/" + ConfigFile.name), let path = filePath(fromURI: uri) else { return }
        noteConfigurationFileChanged(path: path)
    }

    /// Notes the folder of the configuration file at `path` for the next reload when it matters:
    /// its configuration is in use, or it may now govern an open document. Any other file is
    /// read when something under it first needs it.
    func noteConfigurationFileChanged(path: String) {
        let absolute = ConfigFile.absolutePath(path, currentDirectory: "/")
        guard absolute.hasSuffix("/" + ConfigFile.name) else { return }
        let folder = ConfigFile.parentFolder(of: absolute)
        let prefix = folder == "/" ? "/" : folder + "/"
        let governsOpenDocument = documents.keys.contains { filePath(fromURI: $0)?.hasPrefix(prefix) ?? false }
        guard configuration.byFolder[folder] != nil || governsOpenDocument else { return }
        configuration.foldersToReload.insert(folder)
    }

    /// Whether `message` only reports a configuration file's change, so that a reload may wait
    /// for the messages queued after it.
    func isConfigurationFileEvent(_ message: Message) -> Bool {
        guard case .notification(let method, let params) = message else { return false }
        switch method {
        case "workspace/didChangeWatchedFiles": return true
        case "textDocument/didOpen", "textDocument/didChange", "textDocument/didClose", "textDocument/didSave":
            return params.value(at: "textDocument.uri")?.stringValue?.hasSuffix("/" + ConfigFile.name) ?? false
        default: return false
        }
    }

    /// After a layer every configuration shares changed: every configuration is built again.
    func configurationChanged() {
        rebuildConfigurations()
        configurationsReplaced(rebuilt: true)
    }

    /// After any configuration was replaced: new matches everywhere, a new legend if needed, and a
    /// refresh. `rebuilt` says that `rebuildConfigurations` already counted the change.
    func configurationsReplaced(rebuilt: Bool = false) {
        // A search under the old configuration would answer with rules that no longer apply.
        cancelJobs(answering: ResponseError(code: ResponseError.contentModifiedCode, message: "the configuration changed")) { _ in true }
        if !rebuilt { configuration.generation += 1 }
        updateLegend()
        previousTokens.removeAll()
        if client.semanticTokensRefresh { sendRequest("workspace/semanticTokens/refresh", params: nil) }
        requestDiagnosticRefresh()
        documentsNeedingDecorations.formUnion(documents.keys)
    }

    /// Registers the legend again when the rule names changed and the client allows it; true when it did.
    @discardableResult
    func updateLegend() -> Bool {
        let names = configuration.allRuleNames
        guard names != tokenLegend.ruleNames else { return false }
        guard client.semanticTokensDynamicRegistration else {
            log(.info, "the token legend is fixed at initialize; new rule names are sent as type \"\(TokenLegend.fallbackType)\"")
            return false
        }
        tokenLegend = TokenLegend(ruleNames: names)
        registerSemanticTokens()
        return true
    }

    /// Pushes the problems of configuration files that are not open as documents; an open one's
    /// are part of its document's diagnostics, which `publishDiagnostics(ofChangedDocuments:)`
    /// sends next. `flush()` calls it.
    func publishConfigurationFileDiagnostics() {
        guard configuration.clientInitialized else { return }
        guard lifecycle == .running, !client.diagnosticPull, !configuration.fileDiagnosticsToPublish.isEmpty else {
            configuration.fileDiagnosticsToPublish = []
            return
        }
        for path in configuration.fileDiagnosticsToPublish.sorted() {
            if let (uri, _) = openConfigurationDocument(path: path) {
                // The document's diagnostics take the file's over, and clear them if need be.
                if configuration.filesWithPublishedDiagnostics.remove(uri) != nil { documentsWithPublishedDiagnostics.insert(uri) }
                documentsNeedingDecorations.insert(uri)
                continue
            }
            let uri = URL(fileURLWithPath: path, isDirectory: false).absoluteString
            let items = configuration.fileDiagnostics[path] ?? []
            // A document just closed hands its diagnostics over to the file, rather than have them cleared.
            let published = documentsWithPublishedDiagnostics.remove(uri) != nil || configuration.filesWithPublishedDiagnostics.contains(uri)
            if items.isEmpty, !published { continue }
            sendNotification("textDocument/publishDiagnostics", params: ["uri": .string(uri), "diagnostics": .array(items)])
            if items.isEmpty {
                configuration.filesWithPublishedDiagnostics.remove(uri)
            } else {
                configuration.filesWithPublishedDiagnostics.insert(uri)
            }
        }
        configuration.fileDiagnosticsToPublish = []
    }

    /// The problems of the configuration file that the open document `uri` is, as LSP diagnostics.
    func configurationFileDiagnostics(ofDocument uri: String) -> [JSON] {
        guard uri.hasSuffix("/" + ConfigFile.name), let path = filePath(fromURI: uri) else { return [] }
        return configuration.fileDiagnostics[ConfigFile.absolutePath(path, currentDirectory: "/")] ?? []
    }
}

/// Reading configuration files and compiling their configurations, off the loop: a snapshot of
/// what the load needs, taken on the loop when it starts.
struct ConfigurationLoad: Sendable {
    /// A file to read: its folder, and the editor's text when the file is open there.
    struct File: Sendable {
        var folder: String
        var buffer: [UInt8]?
    }

    /// What reading one file gave.
    struct Loaded: Sendable {
        enum Outcome: Sendable {
            /// There is no file: the folder governs nothing.
            case missing
            /// The file's layer.
            case layer(ConfigLayer)
            /// The file cannot be used (or the buffer does not parse): its last good layer stays.
            case keepLastGoodLayer
        }

        var folder: String
        var outcome: Outcome
        var fromBuffer: Bool
        /// The problems found reading the file and compiling its rules.
        var diagnostics: [ConfigDiagnostic]
        /// The problems as LSP diagnostics on the file.
        var lspDiagnostics: [JSON]
        /// The configuration built with the shared layers of the snapshot; nil when missing.
        var configuration: HighlightConfiguration?
    }

    var files: [File]
    var marks: ConfigLayer
    var shared: [ConfigLayer]
    var lastGoodLayers: [String: ConfigLayer]
    var sharedLayersGeneration: Int
    var encoding: PositionEncoding

    /// What a load gave: each file's result, and what applying them needs.
    struct Outcome: Sendable {
        var loads: [Loaded]
        var sharedLayersGeneration: Int
        /// Whether the load followed a change of files (every document is highlighted again), not first reads only.
        var reloaded: Bool
    }

    /// Reads and compiles every file.
    ///
    /// - Complexity: O(bytes) of the files, plus compiling their rules.
    func run() -> [Loaded] {
        files.map(read)
    }

    /// Reads and compiles one file.
    func read(_ file: File) -> Loaded {
        let path = ConfigFile.path(inFolder: file.folder)
        var loaded = Loaded(folder: file.folder, outcome: .missing, fromBuffer: file.buffer != nil, diagnostics: [], lspDiagnostics: [])
        if let buffer = file.buffer {
            let (layer, diagnostics) = ConfigLayer.parse(fileContents: buffer, source: path)
            loaded.outcome = layer.map { .layer($0) } ?? .keepLastGoodLayer
            loaded.diagnostics = diagnostics
        } else {
            switch ConfigFile.load(path: path) {
            case .missing: return loaded
            case .loaded(let layer, let diagnostics):
                loaded.outcome = .layer(layer)
                loaded.diagnostics = diagnostics
            case .unusable(let diagnostics):
                loaded.outcome = .keepLastGoodLayer
                loaded.diagnostics = diagnostics
            }
        }
        let layer: ConfigLayer?
        switch loaded.outcome {
        case .layer(let read): layer = read
        default: layer = lastGoodLayers[file.folder]
        }
        let configuration = HighlightConfiguration(layers: [marks] + [layer].compactMap { $0 } + shared)
        loaded.configuration = configuration
        loaded.diagnostics += configuration.diagnostics.filter { $0.source == path && !loaded.diagnostics.contains($0) }
        loaded.lspDiagnostics = lspDiagnostics(of: loaded.diagnostics.filter { $0.source == path }, path: path, buffer: file.buffer)
        return loaded
    }

    /// The diagnostics as LSP diagnostics, their positions converted with the file's line index.
    func lspDiagnostics(of diagnostics: [ConfigDiagnostic], path: String, buffer: [UInt8]?) -> [JSON] {
        guard !diagnostics.isEmpty else { return [] }
        // The file is read again (the one safe way) only when it has problems; it is at most 4 MiB.
        var bytes = buffer ?? []
        if buffer == nil, case .read(let read) = ConfigFile.readRegularFile(atPath: path, limit: ConfigFile.maximumSizeInBytes) { bytes = read }
        let index = LineIndex(utf8: bytes)
        return diagnostics.map { diagnostic in
            let position: Position
            if let offset = diagnostic.utf8Offset, offset >= 0, offset <= bytes.count {
                position = index.position(ofUTF8Offset: offset, encoding: encoding)
            } else {
                position = Position(line: max(0, (diagnostic.line ?? 1) - 1), character: max(0, (diagnostic.column ?? 1) - 1))
            }
            let point: JSON = ["line": .integer(position.line), "character": .integer(position.character)]
            return [
                "range": ["start": point, "end": point],
                "severity": .integer(diagnostic.severity == .error ? 1 : 2),
                "source": "highlight-ls",
                "message": .string(diagnostic.message),
            ]
        }
    }
}
