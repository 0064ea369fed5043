import Foundation
import HighlightConfig
import JSONRPC
import JSONValue
import TextIndex
import WorkspaceScan

// `workspace/symbol`: the matches of the rules marked `list` in every file of
// every workspace folder, found on disk by the workspace scanner, except that an
// open document inside a folder is searched in the editor's text, not the file's:
// the editor's view wins, and closing the document goes back to the disk.
//
// Results stay current without a file watcher: each request walks the folders
// again (a `readdir` and `lstat` per entry, no reading) and re-scans only the
// files whose size or modification time changed, or all of them after a
// configuration change. Long scans report `$/progress`, with the request's
// `workDoneToken` when the client sends one, or else with a token the server
// created ahead of time (`window/workDoneProgress/create`), since a token may
// be used only after the client has answered its creation.

/// The scanned files of the workspace and what is needed to report progress.
struct WorkspaceListState {
    /// One scanned file, valid while its size and modification time are unchanged.
    struct Entry {
        var size: Int
        var modificationTime: Int64
        var matches: [LocatedMatch]
    }

    /// Scanned files by absolute path.
    var entries: [String: Entry] = [:]
    /// The configuration generation `entries` were scanned under.
    var generation = -1
    /// A progress token the client has created and the server not used yet.
    var readyProgressToken: String?
    /// Whether a token is being created.
    var creatingProgressToken = false
    var nextProgressToken = 1
}

extension Server {
    /// The most symbols one answer carries.
    static let maximumWorkspaceSymbols = 10_000
    /// Scans of more files than this report progress with a server-created token.
    static let progressFileThreshold = 500

    /// `workspace/symbol`: listed matches whose text (or rule name) contains the query's characters in order, case-insensitively.
    func workspaceSymbols(_ params: JSON?) throws(ResponseError) -> JSON {
        let query = params.value(at: "query")?.stringValue ?? ""
        let clientToken = params.value(at: "workDoneToken")
        var progressToken: JSON? = clientToken
        var symbols: [JSON] = []
        var total = 0
        refreshWorkspaceList { filesToScan in
            if progressToken == nil, filesToScan > Self.progressFileThreshold, let ready = workspaceList.readyProgressToken {
                progressToken = .string(ready)
                workspaceList.readyProgressToken = nil
            }
            return progressToken
        }
        prepareWorkspaceProgressToken()

        let needle = Array(query.lowercased().unicodeScalars.filter { $0 != " " })
        var sources: [String: (uri: String, matches: [LocatedMatch])] = [:]
        for (path, entry) in workspaceList.entries { sources[path] = (URL(fileURLWithPath: path).absoluteString, entry.matches) }
        for (path, document) in openDocumentsInWorkspaceFolders() { sources[path] = (document.uri, listedMatches(of: document)) }
        for path in sources.keys.sorted() {
            guard let (uri, matches) = sources[path] else { continue }
            let config = configuration(forDocumentURI: uri)
            for match in matches {
                let rule = config.rules.indices.contains(match.ruleIndex) ? config.rules[match.ruleIndex].name : TokenLegend.fallbackType
                let name = Self.symbolName(match)
                guard needle.isEmpty || Self.isSubsequence(needle, of: name) || Self.isSubsequence(needle, of: rule) else { continue }
                total += 1
                guard symbols.count < Self.maximumWorkspaceSymbols else { continue }
                symbols.append([
                    "name": .string(name),
                    "kind": 15,  // String: a match is text, not a declaration
                    "containerName": .string(rule),
                    "location": ["uri": .string(uri), "range": [
                        "start": match.start.position(in: positionEncoding).json,
                        "end": match.end.position(in: positionEncoding).json,
                    ]],
                ])
            }
        }
        if total > symbols.count {
            log(.info, "workspace/symbol: \(total) matches; only the first \(symbols.count) are returned")
        }
        return .array(symbols)
    }

    /// Walks every workspace folder and re-scans the files that changed; `progressToken(filesToScan)` says whether and how to report progress.
    func refreshWorkspaceList(progressToken: (Int) -> JSON?) {
        if workspaceList.generation != configuration.generation {
            workspaceList.entries = [:]
            workspaceList.generation = configuration.generation
        }
        var seen: Set<String> = []
        var toScan: [(folder: String, file: WalkedFile)] = []
        let folderPaths = workspaceFolders.map(\.path)
        for folder in folderPaths {
            let nested = folderPaths.filter { $0 != folder && $0.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") }
            for file in WorkspaceWalker.files(under: folder) {
                // A file in a nested workspace folder belongs to that folder and its configuration.
                if nested.contains(where: { file.path.hasPrefix($0 + "/") }) { continue }
                guard seen.insert(file.path).inserted else { continue }
                if let entry = workspaceList.entries[file.path], entry.size == file.size,
                   entry.modificationTime == file.modificationTime {
                    continue
                }
                toScan.append((folder, file))
            }
        }
        workspaceList.entries = workspaceList.entries.filter { seen.contains($0.key) }
        guard !toScan.isEmpty else { return }

        let token = progressToken(toScan.count)
        if let token {
            sendNotification("$/progress", params: ["token": token, "value": [
                "kind": "begin", "title": "highlight-ls: scanning the workspace", "cancellable": false,
                "message": .string("0/\(toScan.count) files"), "percentage": 0,
            ]])
        }
        let byFolder = Dictionary(grouping: toScan, by: \.folder)
        var done = 0
        for folder in byFolder.keys.sorted() {
            let files = (byFolder[folder] ?? []).map(\.file)
            let config = configuration.byFolder[folder] ?? configuration.fallback
            let options = ScanOptions(maximumExcerptBytes: Self.maximumSymbolNameBytes, selection: .listed)
            guard config.applicability.contains(where: \.list) else {
                for file in files {
                    workspaceList.entries[file.path] = .init(size: file.size, modificationTime: file.modificationTime, matches: [])
                }
                continue
            }
            let base = done
            let scanned = WorkspaceScanner.scan(files, configuration: config, options: options) { finished, _ in
                guard let token else { return }
                let count = base + finished
                self.sendNotification("$/progress", params: ["token": token, "value": [
                    "kind": "report", "message": .string("\(count)/\(toScan.count) files"),
                    "percentage": .integer(count * 100 / max(toScan.count, 1)),
                ]])
            }
            done += files.count
            for result in scanned {
                workspaceList.entries[result.file.path] = .init(
                    size: result.file.size, modificationTime: result.file.modificationTime, matches: result.matches)
            }
        }
        if let token {
            sendNotification("$/progress", params: ["token": token, "value": [
                "kind": "end", "message": .string("\(toScan.count) files scanned"),
            ]])
        }
    }

    /// Asks the client for a progress token for the next long scan, when it supports server-created progress.
    func prepareWorkspaceProgressToken() {
        guard client.workDoneProgress, workspaceList.readyProgressToken == nil, !workspaceList.creatingProgressToken else { return }
        let token = "highlight-ls-scan-\(workspaceList.nextProgressToken)"
        workspaceList.nextProgressToken += 1
        workspaceList.creatingProgressToken = true
        sendRequest("window/workDoneProgress/create", params: ["token": .string(token)]) { [weak self] result in
            guard let self else { return }
            self.workspaceList.creatingProgressToken = false
            if case .success = result { self.workspaceList.readyProgressToken = token }
        }
    }

    /// The open documents whose files lie in a workspace folder, by path.
    func openDocumentsInWorkspaceFolders() -> [String: Document] {
        var found: [String: Document] = [:]
        for document in documents.values {
            guard let path = filePath(fromURI: document.uri), !workspacePlace(ofDocument: document.uri).folder.isEmpty else { continue }
            found[path] = document
        }
        return found
    }

    /// The matches of the rules marked `list` in an open document's current text, located.
    func listedMatches(of document: Document) -> [LocatedMatch] {
        let config = configuration(forDocumentURI: document.uri)
        guard config.applicability.contains(where: \.list) else { return [] }
        let filter = ruleFilter(forDocument: document.uri, languageId: document.languageId, config: config, selecting: .listed)
        var syntax = document.syntax
        return document.text.withUnsafeBytes { text in
            let list = filter.matches(of: config.ruleSet, in: text, languageID: document.languageId, syntax: &syntax)
            return LocatedMatch.locate(list.matches, in: text, maximumExcerptBytes: Self.maximumSymbolNameBytes)
        }
    }

    /// The most bytes of a line a symbol's name is made from (its 120 characters, at four bytes each).
    static let maximumSymbolNameBytes = 480

    /// The symbol's name: the line from the match on, trimmed, at most 120 characters.
    static func symbolName(_ match: LocatedMatch) -> String {
        var name = match.excerpt.trimmingCharacters(in: .whitespaces)
        if name.isEmpty { name = match.text }
        if name.count > 120 { name = String(name.prefix(119)) + "…" }
        return name
    }

    /// Whether `needle` (lowercased scalars) occurs in order in `text`, case-insensitively.
    static func isSubsequence(_ needle: [Unicode.Scalar], of text: String) -> Bool {
        var index = 0
        for scalar in text.lowercased().unicodeScalars where index < needle.count && scalar == needle[index] {
            index += 1
        }
        return index == needle.count
    }
}
