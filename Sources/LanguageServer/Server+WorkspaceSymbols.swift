#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import HighlightConfig
import JSONRPC
import JSONValue
import LanguageSyntax
import TextIndex
import WorkspaceScan

// `workspace/symbol`: the matches of the rules marked `list` in every file of
// every workspace folder, found on disk by the workspace scanner, except that an
// open document inside a folder is searched in the editor's text, not the file's:
// the editor's view wins, and closing the document goes back to the disk. Each
// file is searched with the configuration that governs it, found as for an open
// document and on the command line (`configurationPlace(ofPath:…)`); a
// `.highlights.json` the server has not read yet is read by the search itself,
// and the loop keeps what it read.
//
// The search is a background job (BackgroundJobs.swift): the loop takes a
// `WorkspaceSymbolSearch` snapshot (folders, configurations, the scanned files so
// far, the open documents' texts) and goes on serving keystrokes. A newer request
// supersedes a running one, which is answered RequestCancelled; a configuration
// change cancels it with ContentModified.
//
// `highlight/counts` asks the same search a second question: not which matches, but how many
// of each rule, for a status line. It is the same job on the same scanned files (one walker,
// one cache of entries), answered with counts instead of symbols, so the two never disagree.
//
// Results stay current without a file watcher: each search walks the folders
// again (a `readdir` and `lstat` per entry, no reading) and re-scans only the
// files whose size or modification time changed, or all of them after a
// configuration change; the loop keeps what a finished search scanned. Long scans
// report `$/progress`, with the request's `workDoneToken` when the client sends
// one, or else with a token the server created ahead of time
// (`window/workDoneProgress/create`), since a token may be used only after the
// client has answered its creation.

/// One scanned file, valid while its size and modification time are unchanged.
struct ScannedFileEntry: Sendable {
    var size: Int
    var modificationTime: Int64
    /// The folder whose `.highlights.json` governed the file when it was scanned (nil for none).
    var configurationFolder: String?
    var matches: [LocatedMatch]
}

/// The scanned files of the workspace and what is needed to report progress.
struct WorkspaceListState {
    /// Scanned files by absolute path.
    var entries: [String: ScannedFileEntry] = [:]
    /// The configuration generation `entries` were scanned under.
    var generation = -1
    /// A progress token the client has created and the server not used yet.
    var readyProgressToken: String?
    /// Whether a token is being created.
    var creatingProgressToken = false
    var nextProgressToken = 1
}

/// An open document as a search sees it: an immutable copy of what it needs.
struct OpenDocumentSnapshot: Sendable {
    var uri: String
    var path: String
    var languageId: String
    var text: TextBuffer
    var syntax: SyntaxIndex?
    /// Where its configuration comes from, as the loop found it.
    var place: ConfigPlace
}

/// Everything a `workspace/symbol` or `highlight/counts` search needs, taken from the server at the request.
struct WorkspaceSymbolSearch: Sendable {
    /// What the search answers once the files are scanned.
    enum Question: Sendable {
        /// `workspace/symbol`: the matches the query selects.
        case symbols(query: String)
        /// `highlight/counts`: how many matches each rule has; only the named rules when `rules`
        /// is not nil (lowercased).
        case counts(rules: Set<String>?)
    }

    /// The search's answer, one case per question.
    enum Answer: Sendable {
        case symbols(JSON)
        case counts(WorkspaceCounts)
    }

    var question: Question
    /// Workspace folder paths.
    var folders: WorkspaceFolders
    /// The configurations the loop has read, by governing folder.
    var configurations: [String: HighlightConfiguration]
    var fallback: HighlightConfiguration
    /// Reads the `.highlights.json` files the loop has not read (its `files` list is empty).
    var loader: ConfigurationLoad
    /// Which folder governs each folder's files, as far as the loop has asked.
    var placement: ConfigPlacement
    var generation: Int
    /// What earlier searches scanned, when it was scanned under `generation`.
    var entries: [String: ScannedFileEntry]
    var openDocuments: [OpenDocumentSnapshot]
    var encoding: PositionEncoding
    /// The request's own progress token.
    var clientProgressToken: JSON?
    /// The request's `partialResultToken`: symbols are then sent in batches as they are found
    /// (`$/progress`), and the answer itself is empty, as LSP asks.
    var partialResultToken: JSON?
    /// A token the server created, to use when the scan is long.
    var readyProgressToken: String?

    /// What the search found: the answer, and the scanned files to keep.
    struct Outcome: Sendable {
        var answer: Answer
        var entries: [String: ScannedFileEntry]
        var generation: Int
        var usedReadyToken: Bool
        var total: Int
        var returned: Int
        /// The configuration files the search read that the loop had not.
        var loads: [ConfigurationLoad.Loaded]
        /// The shared layers those files were compiled with.
        var sharedLayersGeneration: Int
        /// The progress token the server had made for this search.
        var readyProgressToken: String?
        /// How many files were read and searched (the others were unchanged, or open).
        var scannedFileCount: Int
    }

    /// Walks every folder, re-scans the files that changed, and answers the question: the
    /// matching symbols, or the counts per rule.
    ///
    /// - Complexity: a walk of the folders plus O(bytes) of the changed files, spread over the cores.
    func run(_ context: JobContext) -> Outcome {
        var entries = self.entries
        var toScan: [(folder: String?, file: WalkedFile)] = []
        var seen: Set<String> = []
        // The governing folder of each folder of files, asked once per folder.
        var placement = self.placement
        for folder in folders.list {
            guard !context.isCancelled else { break }
            for walked in WorkspaceWalker.files(under: folder.path) {
                // A file in a nested workspace folder is walked with that folder.
                if let deepest = folders.place(ofPath: walked.path)?.folder, deepest.path != folder.path { continue }
                guard seen.insert(walked.path).inserted else { continue }
                let place = configurationPlace(ofPath: walked.path, folders: folders) { placement.governingFolder(ofFolder: $0) }
                if let entry = entries[walked.path], entry.size == walked.size, entry.modificationTime == walked.modificationTime,
                   entry.configurationFolder == place.folder { continue }
                // The scanner matches `files` globs against the path relative to the governing folder.
                var file = walked
                file.relativePath = place.relativePath
                toScan.append((place.folder, file))
            }
        }
        entries = entries.filter { seen.contains($0.key) }
        var configurations = self.configurations
        var loads: [ConfigurationLoad.Loaded] = []
        for folder in Set(toScan.compactMap(\.folder)).sorted() where configurations[folder] == nil && !context.isCancelled {
            let loaded = loader.read(ConfigurationLoad.File(folder: folder, buffer: nil))
            loads.append(loaded)
            configurations[folder] = loaded.configuration
        }

        var token = clientProgressToken
        if token == nil, toScan.count > Server.progressFileThreshold, let readyProgressToken { token = .string(readyProgressToken) }
        let progress = { (value: JSON) in
            if let token { context.sendProgress(token: token, value: value) }
        }
        // Partial results: first what is known without reading (open documents, files scanned
        // before), then each folder's files as they are scanned.
        var partialSent = 0
        var partialTotal = 0
        let rescanned = Set(toScan.map(\.file.path))
        let openPaths = Set(openDocuments.map(\.path))
        func sendPartial(_ sources: [String: (uri: String, folder: String?, matches: [LocatedMatch])]) {
            guard let partialResultToken, !sources.isEmpty else { return }
            guard case .symbols(let query) = question else { return }
            let (batch, total) = self.symbols(
                of: sources, query: query, configurations: configurations, limit: Server.maximumWorkspaceSymbols - partialSent)
            partialSent += batch.count
            partialTotal += total
            if !batch.isEmpty {
                context.sendProgress(token: partialResultToken, value: .array(batch))
            }
        }
        if partialResultToken != nil {
            var known: [String: (uri: String, folder: String?, matches: [LocatedMatch])] = [:]
            for (path, entry) in entries where !rescanned.contains(path) && !openPaths.contains(path) {
                known[path] = (URL(fileURLWithPath: path).absoluteString, entry.configurationFolder, entry.matches)
            }
            for document in openDocuments { known[document.path] = (document.uri, document.place.folder, listedMatches(of: document)) }
            sendPartial(known)
        }
        if !toScan.isEmpty {
            progress(["kind": "begin", "title": "highlight-ls: scanning the workspace", "cancellable": false,
                      "message": .string("0/\(toScan.count) files"), "percentage": 0])
        }
        // The files go through the scheduler every scan uses, each with its folder's configuration;
        // a folder whose configuration lists nothing is not read at all.
        var shared: [String?: SharedConfiguration] = [:]
        var items: [ScanItem] = []
        items.reserveCapacity(toScan.count)
        for (folder, file) in toScan {
            let sharedConfiguration = shared[folder] ?? SharedConfiguration(folder.flatMap { configurations[$0] } ?? fallback)
            shared[folder] = sharedConfiguration
            guard sharedConfiguration.configuration.applicability.contains(where: \.list) else {
                entries[file.path] = ScannedFileEntry(
                    size: file.size, modificationTime: file.modificationTime, configurationFolder: folder, matches: [])
                continue
            }
            items.append(ScanItem(file: file, shared: sharedConfiguration, maximumFileSize: ScanOptions().maximumFileSize))
        }
        let folderOfPath = Dictionary(toScan.map { ($0.file.path, $0.folder) }, uniquingKeysWith: { first, _ in first })
        let options = ScanOptions(maximumExcerptBytes: Server.maximumSymbolNameBytes, selection: .listed)
        var done = toScan.count - items.count
        var batch: [String: (uri: String, folder: String?, matches: [LocatedMatch])] = [:]
        WorkspaceScanner.scan(items, options: options, shouldStop: { context.isCancelled }, finish: { scanned, _ in scanned }) { result in
            let folder = folderOfPath[result.file.path] ?? nil
            entries[result.file.path] = ScannedFileEntry(
                size: result.file.size, modificationTime: result.file.modificationTime, configurationFolder: folder,
                matches: result.matches)
            if !openPaths.contains(result.file.path) {
                batch[result.file.path] = (URL(fileURLWithPath: result.file.path).absoluteString, folder, result.matches)
            }
            done += 1
            // Partial results and progress as the files are done, in the order they were walked.
            if done % Server.workspaceScanBatch == 0 || done == toScan.count {
                sendPartial(batch)
                batch.removeAll(keepingCapacity: true)
                progress(["kind": "report", "message": .string("\(done)/\(toScan.count) files"),
                          "percentage": .integer(done * 100 / max(toScan.count, 1))])
            }
        }
        sendPartial(batch)
        if !toScan.isEmpty { progress(["kind": "end", "message": .string("\(toScan.count) files scanned")]) }

        let usedReadyToken = token != nil && clientProgressToken == nil
        let scannedFileCount = items.count
        if partialResultToken != nil {
            return Outcome(
                answer: .symbols([]), entries: entries, generation: generation, usedReadyToken: usedReadyToken, total: partialTotal,
                returned: partialSent, loads: loads, sharedLayersGeneration: loader.sharedLayersGeneration, readyProgressToken: readyProgressToken,
                scannedFileCount: scannedFileCount)
        }
        var sources: [String: (uri: String, folder: String?, matches: [LocatedMatch])] = [:]
        for (path, entry) in entries { sources[path] = (URL(fileURLWithPath: path).absoluteString, entry.configurationFolder, entry.matches) }
        for document in openDocuments { sources[document.path] = (document.uri, document.place.folder, listedMatches(of: document)) }
        let answer: Answer
        let total: Int
        let returned: Int
        switch question {
        case .symbols(let query):
            let (symbols, count) = self.symbols(of: sources, query: query, configurations: configurations, limit: Server.maximumWorkspaceSymbols)
            (answer, total, returned) = (.symbols(.array(symbols)), count, symbols.count)
        case .counts(let rules):
            let counts = self.counts(of: sources, rules: rules, configurations: configurations)
            (answer, total, returned) = (.counts(counts), counts.total, counts.total)
        }
        return Outcome(
            answer: answer, entries: entries, generation: generation, usedReadyToken: usedReadyToken, total: total,
            returned: returned, loads: loads, sharedLayersGeneration: loader.sharedLayersGeneration, readyProgressToken: readyProgressToken,
            scannedFileCount: scannedFileCount)
    }

    /// How many matches each rule has in `sources`, over the rules `rules` names (all when nil).
    ///
    /// Rules are told apart by name, so a `todo` of two folders' configurations is one count.
    func counts(
        of sources: [String: (uri: String, folder: String?, matches: [LocatedMatch])], rules: Set<String>?,
        configurations: [String: HighlightConfiguration]
    ) -> WorkspaceCounts {
        var byRule: [String: Int] = [:]
        var files = 0
        for (_, folder, matches) in sources.values {
            let config = folder.flatMap { configurations[$0] } ?? fallback
            var counted = false
            for match in matches {
                let rule = Self.ruleName(of: match, in: config)
                if let rules, !rules.contains(rule.lowercased()) { continue }
                byRule[rule, default: 0] += 1
                counted = true
            }
            if counted { files += 1 }
        }
        return WorkspaceCounts(byRule: byRule, files: files)
    }

    /// The symbols of every source, sorted by path, that the query selects, at most `limit` of
    /// them; and how many there were in all.
    ///
    /// A query that starts with a rule's name and a colon (`fixme:`, `fixme:parser`) selects only
    /// that rule's matches (the name compared case-insensitively), and the rest of the query is
    /// looked for in their text only; a name no rule has selects nothing.
    func symbols(
        of sources: [String: (uri: String, folder: String?, matches: [LocatedMatch])], query: String,
        configurations: [String: HighlightConfiguration], limit: Int
    ) -> ([JSON], Int) {
        let (ruleFilter, rest) = Self.ruleFilter(ofQuery: query)
        let needle = Array(rest.lowercased().unicodeScalars.filter { $0 != " " })
        var symbols: [JSON] = []
        var total = 0
        for path in sources.keys.sorted() {
            guard let (uri, folder, matches) = sources[path] else { continue }
            let config = folder.flatMap { configurations[$0] } ?? fallback
            for match in matches {
                let rule = Self.ruleName(of: match, in: config)
                if let ruleFilter, rule.lowercased() != ruleFilter { continue }
                let name = Server.symbolName(match)
                guard needle.isEmpty || Server.isSubsequence(needle, of: name) || (ruleFilter == nil && Server.isSubsequence(needle, of: rule))
                else { continue }
                total += 1
                guard symbols.count < limit else { continue }
                symbols.append([
                    "name": .string(name),
                    "kind": 15,  // String: a match is text, not a declaration
                    "containerName": .string(rule),
                    "location": ["uri": .string(uri), "range": [
                        "start": match.start.position(in: encoding).json,
                        "end": match.end.position(in: encoding).json,
                    ]],
                ])
            }
        }
        return (symbols, total)
    }

    /// The name of the rule that found `match` under `config`; the fallback type for an index the
    /// configuration does not have.
    static func ruleName(of match: LocatedMatch, in config: HighlightConfiguration) -> String {
        config.rules.indices.contains(match.ruleIndex) ? config.rules[match.ruleIndex].name : TokenLegend.fallbackType
    }

    /// The lowercased rule name a query starts with, before a colon, and the rest of the query;
    /// `nil` and the whole query when the text before the first colon cannot be a rule name
    /// (`TODO(bob): x` is an ordinary query).
    static func ruleFilter(ofQuery query: String) -> (rule: String?, rest: Substring) {
        let trimmed = query.drop { $0 == " " }
        guard let colon = trimmed.firstIndex(of: ":") else { return (nil, trimmed) }
        let name = trimmed[..<colon]
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
              name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_.-".unicodeScalars.contains($0)) })
        else { return (nil, trimmed) }
        return (name.lowercased(), trimmed[trimmed.index(after: colon)...])
    }

    /// The matches of the rules marked `list` in an open document's text, located.
    func listedMatches(of document: OpenDocumentSnapshot) -> [LocatedMatch] {
        let config = document.place.folder.flatMap { configurations[$0] } ?? fallback
        guard config.applicability.contains(where: \.list) else { return [] }
        let place = document.place
        let filter = config.ruleFilter(for: TextOrigin(relativePath: place.relativePath, languageID: document.languageId), selecting: .listed)
        var syntax = document.syntax
        return document.text.withUnsafeBytes { text in
            let list = filter.matches(of: config.ruleSet, in: text, syntax: &syntax)
            return LocatedMatch.locate(list.matches, in: text, maximumExcerptBytes: Server.maximumSymbolNameBytes)
        }
    }
}

extension Server {
    /// The most symbols one answer carries.
    static let maximumWorkspaceSymbols = 10_000
    /// Scans of more files than this report progress with a server-created token.
    static let progressFileThreshold = 500
    /// Files scanned between two partial results and progress reports of a workspace scan.
    static let workspaceScanBatch = 256

    /// `workspace/symbol`: listed matches whose text (or rule name) contains the query's characters
    /// in order, case-insensitively. Answered by a background job; a newer request supersedes it.
    func workspaceSymbols(id: RequestID, _ params: WorkspaceSymbolParams) -> Reply {
        startWorkspaceSearch(
            .symbols(query: params.query), kind: .workspaceSymbols, answering: id, workDoneToken: params.workDoneToken,
            partialResultToken: params.partialResultToken)
        return .later
    }

    /// `highlight/counts`: how many matches each listed rule has in the workspace. Answered by the
    /// search `workspace/symbol` uses, as a background job; a newer counts request supersedes it.
    func workspaceCounts(id: RequestID, _ params: CountsParams) -> Reply {
        startWorkspaceSearch(
            .counts(rules: params.rules), kind: .workspaceCounts, answering: id, workDoneToken: params.workDoneToken,
            partialResultToken: nil)
        return .later
    }

    /// Starts a workspace search job that answers `question`, after cancelling the running one of
    /// the same kind; the search works on a snapshot of the folders, configurations, scanned files
    /// and open documents.
    func startWorkspaceSearch(
        _ question: WorkspaceSymbolSearch.Question, kind: BackgroundJob.Kind, answering id: RequestID, workDoneToken: JSON?,
        partialResultToken: JSON?
    ) {
        cancelJobs(answering: .requestCancelled) { $0.kind == kind }
        if workspaceList.generation != configuration.generation {
            workspaceList.entries = [:]
            workspaceList.generation = configuration.generation
        }
        let folders = workspaceFolders
        let openDocuments = documents.values.compactMap { document -> OpenDocumentSnapshot? in
            guard let path = filePath(fromURI: document.uri), folders.place(ofPath: path) != nil else { return nil }
            return OpenDocumentSnapshot(
                uri: document.uri, path: path, languageId: document.languageId, text: document.text, syntax: document.syntax,
                place: configurationPlace(ofPath: path))
        }
        let readyToken = workspaceList.readyProgressToken
        workspaceList.readyProgressToken = nil
        let search = WorkspaceSymbolSearch(
            question: question, folders: folders, configurations: configuration.byFolder,
            fallback: configuration.fallback, loader: configurationLoad(of: []), placement: configuration.placement,
            generation: configuration.generation,
            entries: workspaceList.entries,
            openDocuments: openDocuments, encoding: positionEncoding, clientProgressToken: workDoneToken,
            partialResultToken: partialResultToken,
            readyProgressToken: readyToken)
        startJob(kind, answering: id) { .workspaceSearch(search.run($0), answering: id) }
    }

    /// Answers a `workspace/symbol` or `highlight/counts` request with what its search found, and
    /// keeps the files it scanned.
    func finishWorkspaceSearch(_ outcome: WorkspaceSymbolSearch.Outcome, answering id: RequestID) {
        work.workspaceFilesScanned += outcome.scannedFileCount
        if outcome.generation == configuration.generation {
            workspaceList.entries = outcome.entries
            workspaceList.generation = outcome.generation
        }
        // What the search read for the first time is kept, unless the loop has read it since.
        let firstReads = outcome.loads.filter { configuration.byFolder[$0.folder] == nil && !configuration.foldersLoading.contains($0.folder) }
        applyConfigurationLoads(firstReads, sharedLayersGeneration: outcome.sharedLayersGeneration, reloaded: false)
        startPendingConfigurationLoad()
        if !outcome.usedReadyToken, workspaceList.readyProgressToken == nil { workspaceList.readyProgressToken = outcome.readyProgressToken }
        if outcome.total > outcome.returned {
            log(.info, "workspace/symbol: \(outcome.total) matches; only the first \(outcome.returned) are returned")
        }
        prepareWorkspaceProgressToken()
        switch outcome.answer {
        case .symbols(let symbols): send(.response(id: id, result: .success(symbols)))
        case .counts(let counts): send(.response(id: id, result: .success(counts.json)))
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

    /// The most bytes of a line a symbol's name is made from (its 120 characters, at four bytes each).
    static let maximumSymbolNameBytes = 480

    /// The symbol's name: the line from the match on, trimmed, at most 120 characters.
    static func symbolName(_ match: LocatedMatch) -> String {
        var name = match.excerpt.trimmingHorizontalSpace
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
