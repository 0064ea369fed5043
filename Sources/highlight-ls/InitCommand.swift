#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import HighlightConfig
import JSONRPC

// `highlight-ls init`: a `.highlights.json` that works as written, with a blocking rule for CI,
// and the built-in rules shown (as comments, made from `ConfigLayer.builtIn`, so they are always
// the rules this build has) for users to copy and change.

/// The `$schema` written by `init`: the `$id` of `schema/highlights.schema.json`.
let configurationSchemaID = "https://example.invalid/highlights.schema.json"

/// The text `init` writes.
func initialConfigurationText() -> String {
    var out = """
        // highlight-ls configuration: what editors highlight and what `highlight-ls check` enforces.
        // JSON with comments and trailing commas; every key is described in docs/CONFIGURATION.md.
        {
          // Lets an editor find the JSON Schema (point it at your copy of schema/highlights.schema.json
          // if your editor does not fetch it); highlight-ls itself ignores this key.
          "$schema": "\(configurationSchemaID)",

          // true keeps the built-in rules (listed below) under the rules of this file.
          "defaults": true,

          "rules": [
            // `highlight-ls check` exits 1 wherever this matches: run it in CI to block the merge.
            { "name": "do-not-merge", "words": ["DO NOT MERGE"], "style": "error", "blocking": true },

            // A ticket id such as ABC-123, underlined; uncomment and point the link at your tracker.
            // { "name": "ticket", "regex": "\\\\b[A-Z]{2,}-[0-9]+\\\\b", "style": { "underline": true }, "link": "https://tracker.example/browse/$0" },

            // The built-in rules, on while "defaults" is true. A rule of the same name here replaces
            // one of them (uncomment it and change it), and { "name": "note", "enabled": false } turns one off.

        """
    for definition in ConfigLayer.builtIn.rules {
        var fields = ["\"name\": \(jsonString(definition.name))"]
        switch definition.pattern {
        case .words(let words)?: fields.append("\"words\": [" + words.map(jsonString).joined(separator: ", ") + "]")
        case .regex(let regex)?: fields.append("\"regex\": \(jsonString(regex))")
        case nil: continue
        }
        if !definition.caseSensitive { fields.append("\"caseSensitive\": false") }
        if definition.wholeWord { fields.append("\"wholeWord\": true") }
        fields.append("\"style\": \(jsonString(definition.name))")
        if definition.applicability.list { fields.append("\"list\": true") }
        out += "    // { " + fields.joined(separator: ", ") + " },\n"
    }
    out += """
          ],

          // Highlight colour literals (#f80, rgb(255 136 0)) in their own colour.
          "colors": false,
        }

        """
    return out
}

/// Writes `.highlights.json` into `directory`; returns the exit code.
func runInitCommand(directory: String, force: Bool) -> Int32 {
    var isDirectory = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory else {
        warn("\(directory) is not a directory")
        return 2
    }
    let path = ConfigFile.path(inFolder: directory)
    if FileManager.default.fileExists(atPath: path), !force {
        warn("\(path) already exists; pass --force to replace it")
        return 1
    }
    if let reason = writeFile(initialConfigurationText(), to: path) {
        warn("cannot write \(path): \(reason)")
        return 1
    }
    writeToStandardError("wrote \(path)\n")
    return 0
}

/// Writes `text` to the file at `path`, created or emptied; nil, or the system's reason it could not.
private func writeFile(_ text: String, to path: String) -> String? {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return String(cString: strerror(errno)) }
    if let failure = Array(text.utf8).withUnsafeBytes({ writeAll($0, to: descriptor) }) {
        close(descriptor)
        return failure == 0 ? "the file took no more bytes" : String(cString: strerror(failure))
    }
    return close(descriptor) == 0 ? nil : String(cString: strerror(errno))
}
