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
    /// syntax (none in the table, none declared), so its rules limited by `scope` match anywhere in it.
    func noteMissingSyntax(ofLanguage languageId: String) {
        guard !languageId.isEmpty, scopes.reportedUnknownLanguages.insert(languageId.lowercased()).inserted
        else { return }
        log(.info, "no comment and string syntax for language \"\(languageId)\"; rules limited by \"scope\" match anywhere in it (a \"languages\" section of .highlights.json can declare it)")
    }

    /// Which rules of `config` apply to the document by `languages` and `files`, before scopes.
    func ruleFilter(forDocument uri: String, languageId: String, config: HighlightConfiguration, selecting selection: RuleSelection = .all) -> RuleFilter {
        config.ruleFilter(for: TextOrigin(relativePath: configurationPlace(ofDocument: uri)?.relativePath, languageID: languageId), selecting: selection)
    }

    /// The deepest workspace folder containing the document; nil outside every folder, or for a
    /// document that is not a file.
    func workspaceFolder(ofDocument uri: String) -> WorkspaceFolder? {
        filePath(fromURI: uri).flatMap { workspaceFolders.place(ofPath: $0)?.folder }
    }
}

/// The workspace folders in the client's order, indexed by their normalised paths, so that the
/// deepest folder holding a path is found by walking up the path's own folders: O(depth) a
/// lookup and O(*n*) a change, whatever the number of folders.
struct WorkspaceFolders: Sendable {
    /// The folders, in the order the client named them.
    private(set) var list: [WorkspaceFolder] = []
    /// The index in `list` of the first folder with each normalised path.
    private var indexByPath: [String: Int] = [:]

    init(_ folders: [WorkspaceFolder] = []) {
        list = folders
        reindex()
    }

    /// The folders' paths, in order.
    var paths: [String] { list.map(\.path) }

    /// Removes the folders with the URIs in `removed`, then adds `added` at the end.
    ///
    /// - Complexity: O(*n* + *a*) for *n* folders and *a* added.
    mutating func change(removing removed: Set<String>, adding added: [WorkspaceFolder]) {
        list.removeAll { removed.contains($0.uri) }
        list += added
        reindex()
    }

    private mutating func reindex() {
        indexByPath = [:]
        for (index, folder) in list.enumerated() {
            let normalised = ConfigFile.absolutePath(folder.path, currentDirectory: "/")
            if indexByPath[normalised] == nil { indexByPath[normalised] = index }
        }
    }

    /// The deepest folder containing the absolute `path` (not the path itself), and the path
    /// relative to it; nil outside every folder. Paths are compared as bytes, segment by segment,
    /// as `ConfigFile.relativePath(of:inFolder:)` compares them.
    ///
    /// - Complexity: O(*d*) dictionary lookups for a path *d* folders deep.
    func place(ofPath path: String) -> (folder: WorkspaceFolder, relativePath: String)? {
        guard !indexByPath.isEmpty else { return nil }
        let absolute = ConfigFile.absolutePath(path, currentDirectory: "/")
        var folder = absolute
        while folder != "/" {
            folder = ConfigFile.parentFolder(of: folder)
            if let index = indexByPath[folder], let relative = ConfigFile.relativePath(of: absolute, inFolder: folder), !relative.isEmpty {
                return (list[index], relative)
            }
        }
        return nil
    }
}
