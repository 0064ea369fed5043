import Foundation
import HighlightConfig
import LanguageServer
import PatternEngine
import TextIndex

// `print` and `list`: the same configuration loading and the same engine as the server, on files.

/// Runs `print` or `list`; returns the process exit code.
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

    var status: Int32 = 0
    let files = command == "list" ? expandDirectories(paths) : paths
    for path in files {
        guard let data = FileManager.default.contents(atPath: path) else {
            warn("cannot read \(path)")
            status = 1
            continue
        }
        // Invalid UTF-8 is replaced (U+FFFD) exactly as an editor would show it.
        let text = Array(String(decoding: data, as: UTF8.self).utf8)
        let matches = text.withUnsafeBufferPointer { config.ruleSet.matches(in: $0) }
        if matches.truncated { warn("\(path): too many matches; only the first \(matches.matches.count) are shown") }
        if command == "print" {
            writeToStandardOutput(renderANSI(text: text, matches: matches.matches, config: config, colours: useColours()))
        } else {
            writeToStandardOutput(listLines(path: path, text: text, matches: matches.matches, config: config, json: json))
        }
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

/// Files under the given paths; directories are walked, skipping hidden entries.
func expandDirectories(_ paths: [String]) -> [String] {
    var files: [String] = []
    for path in paths {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            files.append(path)
            continue
        }
        guard let walker = FileManager.default.enumerator(atPath: path) else { continue }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
                walker.skipDescendants()
                continue
            }
            let full = (path as NSString).appendingPathComponent(relative)
            var entryIsDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: full, isDirectory: &entryIsDirectory), !entryIsDirectory.boolValue {
                found.append(full)
            }
        }
        files += found.sorted()
    }
    return files
}

/// `path:line:column: rule: text` (1-based line, 1-based byte column, as grep and rg print), or JSON lines.
func listLines(path: String, text: [UInt8], matches: [Match], config: HighlightConfiguration, json: Bool) -> String {
    let index = LineIndex(utf8: text)
    var out = ""
    for match in matches {
        let range = match.utf8Range
        let line = index.line(containingUTF8Offset: range.lowerBound)
        let column = range.lowerBound - index.utf8Offset(ofLineStart: line)
        let name = config.rules.indices.contains(match.ruleIndex) ? config.rules[match.ruleIndex].name : ""
        let matched = String(decoding: text[range], as: UTF8.self)
        if json {
            let utf16Start = utf16Offset(text, range.lowerBound)
            let utf16End = utf16Start + matched.utf16.count
            out += "{\"path\":\(quoted(path)),\"line\":\(line + 1),\"column\":\(column + 1),\"rule\":\(quoted(name)),"
                + "\"text\":\(quoted(matched)),\"utf8\":[\(range.lowerBound),\(range.upperBound)],\"utf16\":[\(utf16Start),\(utf16End)]}\n"
        } else {
            out += "\(path):\(line + 1):\(column + 1): \(name): \(matched.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r"))\n"
        }
    }
    return out
}

private func utf16Offset(_ text: [UInt8], _ utf8Offset: Int) -> Int {
    String(decoding: text[0..<utf8Offset], as: UTF8.self).utf16.count
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
