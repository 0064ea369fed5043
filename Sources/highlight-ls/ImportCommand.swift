import FoundationEssentials
import HighlightConfig
import TextIndex

// `highlight-ls import FILE`: the settings of another highlighter as a `.highlights.json`. The
// readers make an `ImportResult` from the file's text (ImportVSCode.swift, ImportTodoComments.swift,
// ImportHlTodo.swift); this file reads the file, checks every rule through the configuration
// parser (so what is printed is known to load), and prints the result or merges it into the
// current directory's `.highlights.json` the way the server's marks are written.

/// What `highlight-ls import` was asked to do.
struct ImportRequest {
    var path: String
    /// The tool, when `--from` names it; else it is told by the file's name.
    var source: ImportSource?
    /// Merge into `./.highlights.json` instead of printing.
    var writes: Bool
}

/// Runs `highlight-ls import`; returns the exit code: 0 when everything was carried over as it was, 1 when something
/// was named on standard error (the rest is printed or written all the same), 2 when the file cannot be read as
/// settings of the tool.
func runImportCommand(_ request: ImportRequest) -> Int32 {
    guard let source = request.source ?? ImportSource.detected(fromPath: request.path) else {
        warn("cannot tell which highlighter \(request.path) is for by its name; pass --from "
            + ImportSource.allCases.map(\.rawValue).joined(separator: "|"))
        return 2
    }
    let utf8: [UInt8]
    switch ConfigFile.readRegularFile(atPath: request.path, limit: ConfigFile.maximumSizeInBytes) {
    case .read(let bytes): utf8 = bytes
    case .missing:
        warn("\(request.path): no such file")
        return 2
    case .tooLarge:
        warn("\(request.path) is larger than \(ConfigFile.maximumSizeInBytes) bytes")
        return 2
    case .refused(let reason):
        warn("\(request.path): \(terminalText(reason))")
        return 2
    }
    var result: ImportResult
    switch importResult(of: utf8, from: source) {
    case .success(let imported): result = imported
    case .failure(let failure):
        writeToStandardError("\(request.path):\(failure.place.line):\(failure.place.column): \(failure.message)\n")
        return 2
    }
    guard !result.tools.isEmpty else {
        warn("\(request.path) has no settings of \(source.toolNames)")
        return 2
    }
    result.keepLoadableRules()
    // In the order of the file, as a compiler lists its errors.
    let problems = result.problems.enumerated().sorted {
        ($0.element.place.line, $0.element.place.column, $0.offset) < ($1.element.place.line, $1.element.place.column, $1.offset)
    }.map(\.element)
    for problem in problems {
        writeToStandardError(terminalText(problem.line(file: request.path)) + "\n")
    }
    let status: Int32 = result.problems.isEmpty ? 0 : 1
    // Each rule loads alone (above); the whole text is read back too, so that what is printed is known to load.
    let text = result.configurationText(sourcePath: request.path)
    let (_, diagnostics) = ConfigLayer.parse(fileContents: Array(text.utf8), source: "the imported configuration")
    guard diagnostics.isEmpty else {
        diagnostics.forEach { warn(terminalText($0.description)) }
        return 2
    }
    guard request.writes else {
        writeToStandardOutput(text)
        return status
    }
    return writeImport(result, sourcePath: request.path) ?? status
}

/// Why a settings file could not be read at all, and where.
struct ImportFailure: Error {
    var place: TextLocation
    var message: String
}

/// The import of a settings text of `source`; the pure core of the command, with no file access.
func importResult(of utf8: [UInt8], from source: ImportSource) -> Result<ImportResult, ImportFailure> {
    switch source {
    case .vscode:
        return VSCodeImport.run(utf8).mapError {
            ImportFailure(place: LineIndex(utf8: utf8).textLocation(ofUTF8Offset: $0.utf8Offset), message: "invalid JSON: \($0.message)")
        }
    case .todoComments:
        return TodoCommentsImport.run(utf8)
    case .hlTodo:
        return HlTodoImport.run(utf8)
    }
}

extension ImportSource {
    /// The tools this source stands for, for messages.
    var toolNames: String {
        switch self {
        case .vscode: return "vscode-highlight, Todo Tree or TODO Highlight"
        case .todoComments: return "todo-comments.nvim (a table passed to require(\"todo-comments\").setup)"
        case .hlTodo: return "hl-todo (hl-todo-keyword-faces)"
        }
    }
}

extension ImportResult {
    /// Leaves out, and names, each rule that the configuration parser would not load as written (a sign too wide,
    /// a regex the engine refuses): what is printed is known to load.
    mutating func keepLoadableRules() {
        rules.removeAll { rule in
            let text = "{ \"rules\": [ \(rule.jsonText) ] }"
            let (_, diagnostics) = ConfigLayer.parse(fileContents: Array(text.utf8), source: "import")
            guard let diagnostic = diagnostics.first else { return false }
            problems.append(ImportProblem(
                place: rule.place, construct: "the rule \(rule.name)", reason: "as converted, \(diagnostic.message)",
                nearest: "nothing; the rule is left out"))
            return true
        }
    }
}

/// Merges `result` into `./.highlights.json` (made when there is none); nil when it was written, else the exit code.
///
/// The file is written as every file the command line writes is (`ConfigFile.writeAtomically`): never through a
/// symbolic link, and through a new file renamed over the old one. The rules go in as the server's marks do
/// (`MarkRuleInsertion`), so the file's comments and layout stay as they were.
func writeImport(_ result: ImportResult, sourcePath: String) -> Int32? {
    let folder = "."
    let path = ConfigFile.path(inFolder: folder)
    let bytes: [UInt8]
    let replacing: ConfigFile.Replacing
    var added = result.rules.count
    switch ConfigFile.readRegularFile(atPath: path, limit: ConfigFile.maximumSizeInBytes) {
    case .missing:
        bytes = Array(result.configurationText(sourcePath: sourcePath).utf8)
        replacing = .nothing
    case .read(let existing):
        guard let (merged, skipped) = result.insertions(into: existing) else {
            warn("\(path) is not a JSON object with a rules array; nothing was written")
            return 2
        }
        for name in skipped {
            warn("\(path) has a rule named \(name) already; the imported one is not added")
        }
        added -= skipped.count
        bytes = merged
        replacing = .regularFile
    case .tooLarge:
        warn("\(path) is larger than \(ConfigFile.maximumSizeInBytes) bytes; nothing was written")
        return 2
    case .refused(let reason):
        warn("cannot write \(path): \(terminalText(reason))")
        return 2
    }
    switch ConfigFile.writeAtomically(bytes, named: ConfigFile.name, inFolder: folder, replacing: replacing) {
    case .written:
        writeToStandardError("wrote \(path) (\(added) rule\(added == 1 ? "" : "s") added)\n")
        return nil
    case .exists:
        warn("\(path) appeared while it was written; nothing was written")
        return 2
    case .refused(let reason):
        warn("cannot write \(path): \(terminalText(reason))")
        return 2
    }
}
