import HighlightConfig
import JSONRPC
import JSONValue
import PatternEngine
import TextIndex
import LanguageSyntax
#if canImport(Glibc)
import Glibc
#endif

extension Server {
    /// Opens a document. When the `.highlights.json` that governs it was never read, the document
    /// waits, like a large one, for a job to read it (Server+Configuration.swift), unless
    /// `waitingForConfiguration` is false (the read is done).
    func didOpen(_ params: DidOpenParams, waitingForConfiguration: Bool = true) {
        let uri = params.uri
        let text = params.text
        let version = params.version
        let languageId = params.languageID
        if documents[uri] != nil { log(.info, "\(uri) opened again; its text is replaced") }
        previousTokens[uri] = nil
        sentDecorations[uri] = nil
        if waitingForConfiguration, let folder = unreadGoverningFolder(ofDocument: uri) {
            documents[uri] = nil
            documentsNeedingDecorations.remove(uri)
            documentsOpening[uri] = []
            configuration.opensWaitingForLoad[folder, default: []].append(params)
            if !configuration.foldersLoading.contains(folder) { configuration.foldersToLoad.insert(folder) }
            startPendingConfigurationLoad()
            return
        }
        guard text.count >= backgroundOpenUTF8Count, jobRunner != nil else {
            documents[uri] = Document(uri: uri, languageId: languageId, version: version, text: text)
            documentsNeedingDecorations.insert(uri)
            configurationDocumentChanged(uri)
            return
        }
        // A large document's line index and first scan are built beside the loop; messages about
        // it wait until it is ready (BackgroundJobs.swift).
        documents[uri] = nil
        documentsOpening[uri] = []
        let config = configuration(forDocumentURI: uri)
        let filter = ruleFilter(forDocument: uri, languageId: languageId, config: config)
        let generation = configuration.generation
        startJob(.openDocument, answering: nil) { _ in
            var document = Document(uri: uri, languageId: languageId, version: version, text: text)
            var syntax: SyntaxIndex?
            let list = document.text.withUnsafeBytes { filter.matches(of: config.ruleSet, in: $0, syntax: &syntax) }
            document.syntax = syntax
            document.highlights = DocumentHighlights(configurationGeneration: generation, configuration: config, matches: list)
            return .openedDocument(document, configurationGeneration: generation)
        }
    }

    /// Takes in a large document a job opened, and handles the messages that waited for it.
    func finishOpening(_ opened: Document, configurationGeneration generation: Int) {
        var document = opened
        let uri = document.uri
        if generation != configuration.generation { document.highlights = nil }
        if document.highlights?.truncated == true {
            log(.warning, "\(uri): too many matches; only the first \(document.highlights?.matches.count ?? 0) are highlighted")
        }
        documents[uri] = document
        documentsNeedingDecorations.insert(uri)
        handleMessagesWaiting(forDocument: uri)
    }

    /// Applies the changes in order, all or nothing: a malformed change leaves the document as it was.
    func didChange(_ params: DidChangeParams) {
        let uri = params.uri
        guard documents[uri] != nil else {
            log(.warning, "didChange for \(uri), which is not open, ignored")
            return
        }
        // Nothing can fail from here on. The document is taken out of the table while it changes,
        // so that its text is edited in place rather than copied.
        guard var document = documents.removeValue(forKey: uri) else { return }
        let config = configuration(forDocumentURI: uri)
        let filter = ruleFilter(forDocument: uri, languageId: document.languageId, config: config)
        if document.highlights != nil, document.highlights?.configurationGeneration != configuration.generation {
            document.highlights = nil
            highlightsChanged(uri, .dropped("the configuration changed"))
        }
        for edit in params.changes {
            if let range = edit.range {
                // Read through the buffer rather than a copy of its index, which would keep the
                // index's storage shared and make the edit below copy it.
                var start = document.text.lineIndex.utf8Offset(of: range.start, encoding: positionEncoding)
                var end = document.text.lineIndex.utf8Offset(of: range.end, encoding: positionEncoding)
                if start > end {
                    log(.info, "\(uri): reversed range in didChange normalised")
                    swap(&start, &end)
                }
                let update = document.replace(utf8Range: start..<end, with: edit.text.utf8, ruleSet: config.ruleSet, filter: filter, work: &work)
                highlightsChanged(uri, update)
            } else {
                document.text = TextBuffer(utf8: Array(edit.text.utf8))
                document.highlights = nil
                document.syntax = nil
                highlightsChanged(uri, .dropped("the whole text was replaced"))
            }
        }
        if let version = params.version {
            if version <= document.version { log(.info, "\(uri): version \(version) after \(document.version) accepted") }
            document.version = version
        }
        documents[uri] = document
        documentsNeedingDecorations.insert(uri)
        configurationDocumentChanged(uri)
    }

    func didClose(_ params: DocumentParams) {
        let uri = params.uri
        guard let closed = documents.removeValue(forKey: uri) else {
            log(.warning, "didClose for \(uri), which is not open, ignored")
            return
        }
        previousTokens[uri] = nil
        sentDecorations[uri] = nil
        // A document opened again may start at the same version with another text.
        hoverBlames[uri] = nil
        documentsOutsideRepository.remove(uri)
        documentsNeedingDecorations.remove(uri)
        if closed.text.utf8Count >= backgroundOpenUTF8Count {
            // Hands the large document's memory back to the system, not only to the allocator.
            releaseFreeMemoryToTheSystem(after: consume closed)
        }
        configurationDocumentChanged(uri)
    }

    func didSave(_ params: DocumentParams) {
        // Saving the config file itself reloads it even where the client watches no files.
        if let path = filePath(fromURI: params.uri), path.hasSuffix("/" + ConfigFile.name) {
            noteConfigurationFileChanged(path: path)
        }
    }

    /// Passes on what an edit did to a document's highlights to what its client holds of them: the
    /// semantic tokens and decorations it was sent then need only the part the edit replaced.
    func highlightsChanged(_ uri: String, _ update: HighlightsUpdate) {
        switch update {
        case .dropped(let reason):
            log(.debug, "\(uri): highlights recomputed in full when next needed: \(reason)")
            previousTokens[uri]?.span.forget()
            sentDecorations[uri]?.span.forget()
        case .edited(let edit):
            if var tokens = previousTokens[uri] {
                if let segments = edit.segments[positionEncoding] {
                    // A token is encoded relative to the one before it, so the token after the
                    // replaced ones changes too, when there is one.
                    let following = segments.oldUpper < tokens.span.count ? 1 : 0
                    tokens.span.replace(
                        lower: segments.lower, oldUpper: segments.oldUpper + following,
                        newUpper: segments.lower + segments.newCount + following)
                } else {
                    tokens.span.forget()
                }
                previousTokens[uri] = tokens
            }
            let lines = edit.lines
            sentDecorations[uri]?.span.replace(lower: lines.lower, oldUpper: lines.oldUpper, newUpper: lines.newUpper)
        }
    }

    /// The open document, or RequestFailed when it is not open.
    func openDocument(_ uri: String) throws(ResponseError) -> String {
        guard documents[uri] != nil else { throw .requestFailed("document \(uri) is not open") }
        return uri
    }

    /// The matches of a document under its current configuration: kept up to date by edits,
    /// computed in full only when the document is new, the configuration changed or an edit
    /// could not be followed incrementally.
    func matches(ofDocument uri: String) -> (document: Document, config: HighlightConfiguration, matches: MatchList)? {
        guard let (document, config) = highlightedDocument(uri) else { return nil }
        let highlights = document.highlights
        return (document, config, MatchList(matches: highlights?.matches ?? [], truncated: highlights?.truncated ?? false))
    }

    /// The line segments of a document's matches in `encoding` (cached per document and encoding).
    func segments(ofDocument uri: String, encoding: PositionEncoding) -> (document: Document, config: HighlightConfiguration, segments: [LineSegment])? {
        guard let (highlighted, config) = highlightedDocument(uri), var highlights = highlighted.highlights else { return nil }
        var document = highlighted
        let segments = highlights.segments(in: encoding, text: document.text, work: &work)
        document.highlights = highlights
        documents[uri] = document
        return (document, config, segments)
    }

    /// The document with up-to-date highlights, and its configuration.
    private func highlightedDocument(_ uri: String) -> (Document, HighlightConfiguration)? {
        guard var document = documents[uri] else { return nil }
        let config = configuration(forDocumentURI: uri)
        if let highlights = document.highlights, highlights.configurationGeneration == configuration.generation {
            return (document, config)
        }
        // Rules that do not apply (by `languages`, `files` or `scope`) are no candidates at all,
        // so they never hide another rule's match.
        let filter = ruleFilter(forDocument: uri, languageId: document.languageId, config: config)
        if !filter.needsSyntax { document.syntax = nil }
        if filter.needsSyntax, filter.syntax == nil { noteMissingSyntax(ofLanguage: document.languageId) }
        var syntax = document.syntax
        let list = document.text.withUnsafeBytes {
            filter.matches(of: config.ruleSet, in: $0, syntax: &syntax)
        }
        document.syntax = syntax
        work.fullRecomputations += 1
        work.searchedUTF8Count += list.searchedUTF8Count
        work.matchesFound += list.matches.count
        if list.truncated { log(.warning, "\(uri): too many matches; only the first \(list.matches.count) are highlighted") }
        document.highlights = DocumentHighlights(configurationGeneration: configuration.generation, configuration: config, matches: list)
        documents[uri] = document
        return (document, config)
    }
}

/// Gives memory the allocator holds but no longer uses back to the system (glibc's `malloc_trim`,
/// looked up at run time since Swift's Glibc module does not declare it); nothing elsewhere.
/// `document` is dropped before the trim.
func releaseFreeMemoryToTheSystem(after document: consuming Document) {
    _ = consume document
    #if canImport(Glibc)
    typealias Trim = @convention(c) (Int) -> Int32
    // The symbol is glibc's `int malloc_trim(size_t)`, so the cast matches its C signature.
    guard let symbol = dlsym(nil, "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: Trim.self)(0)
    #endif
}
