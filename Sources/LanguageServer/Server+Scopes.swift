import HighlightConfig
import LanguageSyntax
import PatternEngine
import TextIndex
import WorkspaceScan

// Scopes and filters for open documents: which rules apply to a document (its
// `languages` and `files`), and, per match, whether it starts in a comment, a
// string or code. The engine applies both *before* overlaps are resolved (an
// `accept` predicate), so a rule that does not apply never hides another.
//
// A document keeps its `SyntaxIndex` (`Document.syntax`) only while some rule that applies to
// it is limited to a scope; edits update it with the text, and widen the re-matched lines to
// those whose scope changed. Filters are compiled once per configuration and folder.

/// Per-configuration compiled filters, and what was said about unknown languages.
struct ScopeState {
    /// Language ids without a syntax that were already reported in the log.
    var reportedUnknownLanguages: Set<String> = []
    /// Compiled filters per workspace folder path ("" outside every folder), for `generation`.
    var filterSets: [String: RuleFilterSet] = [:]
    var generation = -1
}

extension Server {
    /// The syntax index of a document's text, or nil for a language not in the table (its
    /// scoped rules then match anywhere, which the log says once per language).
    func makeSyntaxIndex(languageId: String, text: TextBuffer) -> SyntaxIndex? {
        guard let syntax = LanguageSyntax.forLanguageID(languageId) else {
            if !languageId.isEmpty, scopes.reportedUnknownLanguages.insert(languageId.lowercased()).inserted {
                log(.info, "no comment and string syntax for language \"\(languageId)\"; rules limited by \"scope\" match anywhere in it")
            }
            return nil
        }
        return text.withUnsafeBytes { SyntaxIndex(syntax: syntax, text: $0) }
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
