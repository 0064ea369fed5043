import HighlightConfig
import LanguageSyntax
import PatternEngine
import WorkspaceScan

// Scopes and filters for open documents: which rules apply to a document (its
// `languages` and `files`), and, per match, whether it starts in a comment, a
// string or code. The engine applies both *before* overlaps are resolved (an
// `accept` predicate), so a rule that does not apply never hides another.
//
// Wiring, for whoever computes a document's matches:
//
//     didOpen:    syntaxDidOpen(uri:languageId:text:)
//     didChange:  per applied edit, in order:
//                 let changed = syntaxDidChange(uri:, afterReplacing: start..<end, withUTF8Count:, in: newBytes)
//                 (a whole-text replacement: syntaxDidOpen again). `changed` is the UTF-8 range of the new
//                 text whose scopes were re-scanned: matches starting there must be recomputed too,
//                 since opening `/*` changes the scope of every line after it.
//     didClose:   syntaxDidClose(uri:)
//     matching:   let accept = matchAcceptance(forDocument: uri, languageId: document.languageId, config: config)
//                 config.ruleSet.matches(in: bytes, startingIn: range, accept: accept)
//
// `matchAcceptance` is nil when nothing is filtered, so the engine's fast path stays as it was.

/// Per-document syntax indexes and per-configuration compiled filters.
struct ScopeState {
    /// The comment and string regions of each open document whose language is in the table.
    var syntaxByURI: [String: SyntaxIndex] = [:]
    /// Language ids without a syntax that were already reported in the log.
    var reportedUnknownLanguages: Set<String> = []
    /// Compiled filters per workspace folder path ("" outside every folder), for `generation`.
    var filterSets: [String: RuleFilterSet] = [:]
    var generation = -1
}

extension Server {
    /// Builds the syntax index of a newly opened (or wholly replaced) document.
    ///
    /// A language not in the table gets none (its scoped rules match anywhere) and is named once in the log.
    func syntaxDidOpen(uri: String, languageId: String, text: UnsafeBufferPointer<UInt8>) {
        guard let syntax = LanguageSyntax.forLanguageID(languageId) else {
            scopes.syntaxByURI[uri] = nil
            if !languageId.isEmpty, scopes.reportedUnknownLanguages.insert(languageId.lowercased()).inserted {
                log(.info, "no comment and string syntax for language \"\(languageId)\"; rules limited by \"scope\" match anywhere in it")
            }
            return
        }
        scopes.syntaxByURI[uri] = SyntaxIndex(syntax: syntax, text: text)
    }

    /// Brings a document's syntax index up to date after one edit; returns the UTF-8 range of the
    /// new text whose scopes were re-scanned (nil when the document has no index).
    ///
    /// - Complexity: O(re-scanned lines): scanning stops where the line states converge again.
    @discardableResult
    func syntaxDidChange(
        uri: String, afterReplacing utf8Range: Range<Int>, withUTF8Count utf8Count: Int, in newText: UnsafeBufferPointer<UInt8>
    ) -> Range<Int>? {
        guard var index = scopes.syntaxByURI[uri] else { return nil }
        scopes.syntaxByURI[uri] = nil  // keeps the index uniquely referenced while it is updated
        let lines = index.update(afterReplacing: utf8Range, withUTF8Count: utf8Count, in: newText)
        scopes.syntaxByURI[uri] = index
        let start = index.lineStarts[lines.lowerBound]
        let end = lines.upperBound < index.lineStarts.count ? index.lineStarts[lines.upperBound] : newText.count
        return start..<max(start, end)
    }

    /// Forgets a closed document's syntax index.
    func syntaxDidClose(uri: String) {
        scopes.syntaxByURI[uri] = nil
    }

    /// Which rules of `config` apply to the document by `languages` and `files`, before scopes.
    func ruleFilter(forDocument uri: String, languageId: String, config: HighlightConfiguration) -> RuleFilter {
        if scopes.generation != configuration.generation {
            scopes.filterSets = [:]
            scopes.generation = configuration.generation
        }
        let place = workspacePlace(ofDocument: uri)
        let filters: RuleFilterSet
        if let cached = scopes.filterSets[place.folder] {
            filters = cached
        } else {
            filters = RuleFilterSet(configuration: config)
            scopes.filterSets[place.folder] = filters
        }
        return filters.filter(languageID: languageId, relativePath: place.relativePath)
    }

    /// The predicate to pass to `RuleSet.matches(in:startingIn:accept:)` for a document, or nil when every rule applies everywhere.
    func matchAcceptance(forDocument uri: String, languageId: String, config: HighlightConfiguration) -> RuleSet.MatchFilter? {
        let filter = ruleFilter(forDocument: uri, languageId: languageId, config: config)
        return filter.acceptance(syntax: scopes.syntaxByURI[uri])
    }

    /// The deepest workspace folder containing the document ("" for none) and the document's path
    /// relative to it (its full path outside every folder; nil when it is not a file).
    func workspacePlace(ofDocument uri: String) -> (folder: String, relativePath: String?) {
        guard let path = filePath(fromURI: uri) else { return ("", nil) }
        var best: String?
        for folder in workspaceFolders {
            let prefix = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
            if path.hasPrefix(prefix), best.map({ folder.path.count > $0.count }) ?? true { best = folder.path }
        }
        guard let best else { return ("", path) }
        let prefix = best.hasSuffix("/") ? best : best + "/"
        return (best, String(path.dropFirst(prefix.count)))
    }
}
