import HighlightConfig
import LanguageSyntax
import PatternEngine
import TextIndex

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

    /// The deepest workspace folder containing the document; nil outside every folder, or for a
    /// document that is not a file.
    func workspaceFolder(ofDocument uri: String) -> WorkspaceFolder? {
        guard let path = filePath(fromURI: uri),
              let place = LanguageServer.workspacePlace(ofPath: path, folders: workspaceFolders.map(\.path))
        else { return nil }
        return workspaceFolders.first { $0.path == place.folder }
    }
}

/// The deepest of `folders` containing the absolute `path`, and the path relative to it; nil
/// outside every folder. Paths are compared as bytes, segment by segment (`ConfigFile.relativePath`).
func workspacePlace(ofPath path: String, folders: [String]) -> (folder: String, relativePath: String)? {
    var best: (folder: String, relativePath: String)?
    for folder in folders {
        let normalised = ConfigFile.absolutePath(folder, currentDirectory: "/")
        guard let relative = ConfigFile.relativePath(of: path, inFolder: normalised), !relative.isEmpty else { continue }
        if best.map({ relative.utf8.count < $0.relativePath.utf8.count }) ?? true { best = (folder, relative) }
    }
    return best
}
