import Foundation
import HighlightConfig
import LanguageServer
import LanguageSyntax
import PatternEngine
import WorkspaceScan

// `print`, `list` and `check`: the same configuration loading, engine, filters and scopes as the
// server, on files. `list` and `check` walk directories with the workspace scanner (ignore files
// obeyed, binary and large files skipped) and search files on all cores.

/// Runs `print`, `list` or `check`; returns the process exit code.
func runFileCommand(_ command: String, arguments: [String]) -> Int32 {
    var configPath: String?
    var json = false
    var paths: [String] = []
    var index = 0
    while index < arguments.count {
        let argument = arguments[index]
        switch argument {
        case "--config":
            guard index + 1 < arguments.count else { return fail("--config needs a file") }
            configPath = arguments[index + 1]
            index += 1
        case "--json" where command == "list":
            json = true
        default:
            if argument.hasPrefix("--") { return fail("unknown option \(argument) for \(command)") }
            paths.append(argument)
        }
        index += 1
    }
    guard !paths.isEmpty else { return fail("\(command) needs at least one file") }
    guard let config = loadConfiguration(explicitPath: configPath) else { return 2 }

    guard command != "print" else { return printFiles(paths, config: config) }
    var options = ScanOptions()
    if command == "check" {
        guard config.applicability.contains(where: \.blocking) else {
            warn("no rule is marked \"blocking\": nothing to check")
            return 0
        }
        options.selection = .blocking
    }
    var status: Int32 = 0
    for path in paths where !FileManager.default.fileExists(atPath: path) {
        warn("cannot read \(path)")
        status = command == "check" ? 2 : 1
    }
    // The walk and the scan overlap: files are searched while the walk goes on.
    let files = WorkspaceScanner.scan(walking: paths, configuration: config, options: options) { file in
        // Paths relative to the current directory, for `files` globs and for output.
        var shown = file.path
        while shown.hasPrefix("./") { shown.removeFirst(2) }
        return WalkedFile(path: file.path, relativePath: shown, size: file.size, modificationTime: file.modificationTime)
    }
    var found = 0
    for scanned in files {
        if scanned.skipped == .unreadable {
            warn("cannot read \(scanned.file.path)")
            status = command == "check" ? 2 : 1
        }
        if scanned.truncated { warn("\(scanned.file.path): too many matches; only the first \(scanned.matches.count) are shown") }
        found += scanned.matches.count
        writeToStandardOutput(listLines(path: scanned.file.path, matches: scanned.matches, config: config, json: json))
    }
    if command == "check" {
        warn(found == 0 ? "no blocking matches in \(files.count) files" : "\(found) blocking matches")
        if found > 0, status == 0 { status = 1 }
    }
    return status
}

/// `print`: each file with its highlights, as the server would show it (language from the file name).
private func printFiles(_ paths: [String], config: HighlightConfiguration) -> Int32 {
    var status: Int32 = 0
    for path in paths {
        guard let data = FileManager.default.contents(atPath: path) else {
            warn("cannot read \(path)")
            status = 1
            continue
        }
        // Invalid UTF-8 is replaced (U+FFFD) exactly as an editor would show it.
        let text = Array(String(decoding: data, as: UTF8.self).utf8)
        let matches = text.withUnsafeBufferPointer { config.matches(in: $0, origin: TextOrigin(guessingLanguageOf: path)) }
        if matches.truncated { warn("\(path): too many matches; only the first \(matches.matches.count) are shown") }
        writeToStandardOutput(renderANSI(text: text, matches: matches.matches, config: config, colours: useColours()))
    }
    return status
}

/// The configuration: `--config FILE`, else the nearest `.highlights.json` upwards from the current directory, on top of the built-ins.
func loadConfiguration(explicitPath: String?) -> HighlightConfiguration? {
    var path = explicitPath
    if path == nil {
        var directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        while true {
            let candidate = ConfigFile.path(inFolder: directory.path)
            if FileManager.default.fileExists(atPath: candidate) {
                path = candidate
                break
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { break }
            directory = parent
        }
    }
    var layers: [ConfigLayer] = []
    if let path {
        switch ConfigFile.load(path: path) {
        case .missing:
            warn("\(path): no such file")
            return nil
        case .unusable(let diagnostics):
            diagnostics.forEach { warn($0.description) }
            return nil
        case .loaded(let layer, let diagnostics):
            diagnostics.forEach { warn($0.description) }
            layers.append(layer)
        }
    }
    let config = HighlightConfiguration(layers: layers)
    config.diagnostics.forEach { warn($0.description) }
    return config
}

/// `path:line:column: rule: text` (1-based line, 1-based byte column, as grep and rg print), or JSON lines.
func listLines(path: String, matches: [LocatedMatch], config: HighlightConfiguration, json: Bool) -> String {
    var out = ""
    for match in matches {
        let name = config.rules.indices.contains(match.ruleIndex) ? config.rules[match.ruleIndex].name : ""
        let range = match.utf8Range
        if json {
            out += "{\"path\":\(quoted(path)),\"line\":\(match.start.line + 1),\"column\":\(match.start.utf8Column + 1),\"rule\":\(quoted(name)),"
                + "\"text\":\(quoted(match.text)),\"utf8\":[\(range.lowerBound),\(range.upperBound)],"
                + "\"utf16\":[\(match.start.utf16Offset),\(match.end.utf16Offset)],"
                + "\"utf32\":[\(match.start.utf32Offset),\(match.end.utf32Offset)]}\n"
        } else {
            let text = match.text.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
            out += "\(path):\(match.start.line + 1):\(match.start.utf8Column + 1): \(name): \(text)\n"
        }
    }
    return out
}

private func quoted(_ string: String) -> String {
    var out = "\""
    for scalar in string.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20: out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

/// The text with each match wrapped in the ANSI escape sequences of its style.
func renderANSI(text: [UInt8], matches: [Match], config: HighlightConfiguration, colours: Bool) -> String {
    guard colours else { return String(decoding: text, as: UTF8.self) }
    var out = ""
    var position = 0
    for match in matches {
        let range = match.utf8Range
        out += String(decoding: text[position..<range.lowerBound], as: UTF8.self)
        let style = config.styles.indices.contains(match.ruleIndex) ? config.styles[match.ruleIndex] : Style.neutral
        let start = ansiStart(style)
        // Styles are reset at line ends so that a match spanning lines does not colour the margin.
        let matched = String(decoding: text[range], as: UTF8.self)
        out += start + matched.replacingOccurrences(of: "\n", with: "\u{1B}[0m\n" + start) + "\u{1B}[0m"
        position = range.upperBound
    }
    out += String(decoding: text[position...], as: UTF8.self)
    return out
}

private func ansiStart(_ style: Style) -> String {
    var codes: [String] = []
    if style.bold { codes.append("1") }
    if style.italic { codes.append("3") }
    if style.underline { codes.append("4") }
    if style.strikethrough { codes.append("9") }
    if let color = style.color { codes.append("38;2;\(color.red);\(color.green);\(color.blue)") }
    if let background = style.backgroundColor { codes.append("48;2;\(background.red);\(background.green);\(background.blue)") }
    if codes.isEmpty { codes.append("7") }
    return "\u{1B}[" + codes.joined(separator: ";") + "m"
}

/// Colours on a terminal unless NO_COLOR is set.
func useColours() -> Bool {
    if let noColor = ProcessInfo.processInfo.environment["NO_COLOR"], !noColor.isEmpty { return false }
    return isatty(STDOUT_FILENO) == 1
}

func writeToStandardOutput(_ string: String) {
    FileHandle.standardOutput.write(Data(string.utf8))
}

func warn(_ message: String) {
    FileHandle.standardError.write(Data("highlight-ls: \(message)\n".utf8))
}

func fail(_ message: String) -> Int32 {
    warn(message)
    return 2
}
