import FoundationEssentials
import HighlightConfig

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
///
/// The file is written as every file the command line writes is (`ConfigFile.writeAtomically`): never through a
/// symbolic link, never into a FIFO or device, and through a new file renamed over the old one, so that a failure
/// (a full disk) leaves the old file as it was.
func runInitCommand(directory: String, force: Bool) -> Int32 {
    var isDirectory = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory else {
        warn("\(directory) is not a directory")
        return 2
    }
    let path = ConfigFile.path(inFolder: directory)
    let bytes = Array(initialConfigurationText().utf8)
    switch ConfigFile.writeAtomically(bytes, named: ConfigFile.name, inFolder: directory, replacing: force ? .regularFile : .nothing) {
    case .written:
        writeToStandardError("wrote \(path)\n")
        return 0
    case .exists:
        warn("\(path) already exists; pass --force to replace it")
        return 1
    case .refused(let reason):
        // The reason may quote a link's target, which is the repository's text.
        warn("cannot write \(path): \(terminalText(reason))")
        return 1
    }
}
