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
// it is limited to a scope and one of their matches won without scopes (the index is built by
// `RuleFilter.matches` when first needed); edits update it with the text, and widen the
// re-matched lines to those whose scope changed.

/// What was said about languages without a known syntax.
struct ScopeState {
    /// Language ids without a syntax that were already reported in the log.
    var reportedUnknownLanguages: Set<String> = []
}

extension Server {
    /// Logs once per language that a document's language has no known comment and string
    /// syntax, so its rules limited by `scope` match anywhere in it.
    func noteSyntaxOfLanguage(_ languageId: String) {
        guard !languageId.isEmpty, LanguageSyntax.forLanguageID(languageId) == nil,
              scopes.reportedUnknownLanguages.insert(languageId.lowercased()).inserted
        else { return }
        log(.info, "no comment and string syntax for language \"\(languageId)\"; rules limited by \"scope\" match anywhere in it")
    }

    /// Which rules of `config` apply to the document by `languages` and `files`, before scopes.
    func ruleFilter(forDocument uri: String, languageId: String, config: HighlightConfiguration, selecting selection: RuleSelection = .all) -> RuleFilter {
        config.ruleFilter(for: TextOrigin(relativePath: configurationPlace(ofDocument: uri)?.relativePath, languageID: languageId), selecting: selection)
    }

    /// The deepest workspace folder containing the document ("" for none) and the document's path
    /// relative to it (its full path outside every folder; nil when it is not a file).
    func workspacePlace(ofDocument uri: String) -> (folder: String, relativePath: String?) {
        guard let path = filePath(fromURI: uri) else { return ("", nil) }
        return LanguageServer.workspacePlace(ofPath: path, folders: workspaceFolders.map(\.path))
    }
}

/// The deepest of `folders` containing `path` ("" for none) and the path relative to it (the full
/// path outside every folder).
func workspacePlace(ofPath path: String, folders: [String]) -> (folder: String, relativePath: String) {
    var best: String?
    for folder in folders {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        if path.hasPrefix(prefix), best.map({ folder.count > $0.count }) ?? true { best = folder }
    }
    guard let best else { return ("", path) }
    let prefix = best.hasSuffix("/") ? best : best + "/"
    return (best, String(path.dropFirst(prefix.count)))
}
