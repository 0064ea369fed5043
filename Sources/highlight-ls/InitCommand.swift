import FoundationEssentials
import HighlightConfig

// `highlight-ls init`: a `.highlights.json` that works as written, with a blocking rule for CI,
// and the built-in rules shown as comments (made from `ConfigLayer.builtIn`, each exactly as built
// in, so they are always the rules this build has) for users to copy and change.

/// The JSON Schema of `.highlights.json`: `schema/highlights.schema.json`, built into the program (Package.swift).
let configurationSchema = String(decoding: PackageResources.highlights_schema_json, as: UTF8.self)

/// The `$schema` that `init` writes: a file beside the configuration, which `--print-schema` writes. There is no
/// address on the web to point at, and a relative path is read from the configuration's folder by editors.
let configurationSchemaPath = "./.highlights.schema.json"

/// The text `init` writes.
func initialConfigurationText() -> String {
    var out = """
        // highlight-ls configuration: what editors highlight and what `highlight-ls check` enforces.
        // JSON with comments and trailing commas; every key is described in docs/CONFIGURATION.md.
        {
          // Lets an editor check this file against the JSON Schema; write the schema beside it with
          //   highlight-ls --print-schema > .highlights.schema.json
          // highlight-ls itself ignores this key.
          "$schema": "\(configurationSchemaPath)",

          // true keeps the built-in rules (listed below) under the rules of this file.
          "defaults": true,

          "rules": [
            // `highlight-ls check` exits 1 wherever this matches: run it in CI to block the merge.
            { "name": "do-not-merge", "words": ["DO NOT MERGE"], "style": "error", "blocking": true },

            // A ticket id such as ABC-123, underlined; uncomment it and point the link at your tracker.
            // { "name": "ticket", "regex": "\\\\b[A-Z]{2,}-[0-9]+\\\\b", "style": { "underline": true }, "link": "https://tracker.example/browse/$0" },

            // The built-in rules, on while "defaults" is true, each as it is built in (with no "style", a rule takes
            // the style of its own name). A rule of the same name here replaces one of them (uncomment it and change
            // it), and { "name": "note", "enabled": false } turns one off.

        """
    for definition in ConfigLayer.builtIn.rules {
        guard let text = definition.jsonText else { continue }
        out += "    // \(text),\n"
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
