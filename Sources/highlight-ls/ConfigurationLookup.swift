import Foundation
import HighlightConfig

// Which configuration searches each file on the command line. `ConfigFile.governingFolder` (shared
// with the server) finds the folder whose `.highlights.json` governs a folder's files; this
// cache asks it once per folder, loads each configuration file once, reports its problems once,
// and keeps the configurations in the order they were first used, for output formats that list
// rules.

/// The configurations used by one run of `print`, `list` or `check`.
final class ConfigurationLookup {
    /// A configuration and where it came from.
    struct Entry {
        /// The configuration (built-ins only when no file governs).
        var configuration: HighlightConfiguration
        /// The folder holding its file, against which `files` globs match; nil for the built-ins alone.
        var folder: String?
        /// The file it was read from; nil for the built-ins alone.
        var file: String?
    }

    /// Every configuration used so far, in order of first use.
    private(set) var entries: [Entry] = []
    /// The number of problems reported in configuration files.
    private(set) var problemCount = 0
    /// The current directory, absolute, against which relative paths are made absolute.
    let currentDirectory: String
    /// The `--config` entry, which governs every file when given.
    private var explicit: Int?
    /// The entry of each configuration folder, by absolute path ("" for none).
    private var byFolder: [String: Int] = [:]
    /// The answer for each absolute folder of files seen so far.
    private var folderAnswers: [String: Int] = [:]
    /// `stat` answers, so that walking many folders asks about each parent once.
    private var existence: [String: Bool] = [:]

    /// A lookup; with `explicitPath`, that file governs everything (nil when it cannot be read at all).
    init?(explicitPath: String?, report: (ConfigDiagnostic) -> Void) {
        currentDirectory = ConfigFile.absolutePath(FileManager.default.currentDirectoryPath, currentDirectory: "/")
        guard let explicitPath else { return }
        let absolute = ConfigFile.absolutePath(explicitPath, currentDirectory: currentDirectory)
        guard ConfigFile.entryExists(atPath: absolute) else {
            report(ConfigDiagnostic(severity: .error, message: "no such file", source: explicitPath))
            return nil
        }
        guard let entry = load(file: explicitPath, folder: ConfigFile.parentFolder(of: absolute), report: report, required: true) else {
            return nil
        }
        entries.append(entry)
        explicit = 0
    }

    /// The configuration of the file at `path` (as given or walked) and the path its `files` globs match.
    ///
    /// `folderOfPath` is the file's folder made absolute, when the caller knows it (a walk does), to save the work.
    func configuration(
        forFile path: String, absoluteFolder folderOfPath: String? = nil, report: (ConfigDiagnostic) -> Void
    ) -> (index: Int, relativePath: String) {
        let absoluteFile: String
        let folder: String
        if let folderOfPath, let name = path.split(separator: "/").last {
            folder = folderOfPath
            absoluteFile = folderOfPath == "/" ? "/" + name : folderOfPath + "/" + name
        } else {
            absoluteFile = ConfigFile.absolutePath(path, currentDirectory: currentDirectory)
            folder = ConfigFile.parentFolder(of: absoluteFile)
        }
        if let explicit {
            // A `--config` file may live anywhere (a CI folder, a shared place), so its `files` globs
            // match from the current directory, where CI runs; a file outside it is matched from
            // the `--config` file's folder, else by its whole path.
            let relative = ConfigFile.relativePath(of: absoluteFile, inFolder: currentDirectory)
                ?? entries[explicit].folder.flatMap { ConfigFile.relativePath(of: absoluteFile, inFolder: $0) }
                ?? String(absoluteFile.dropFirst())
            return (explicit, relative)
        }
        let index = entryIndex(forFolder: folder, report: report)
        let base = entries[index].folder ?? folder
        return (index, ConfigFile.relativePath(of: absoluteFile, inFolder: base) ?? String(absoluteFile.dropFirst()))
    }

    /// The entry for the files directly inside the absolute `folder`.
    private func entryIndex(forFolder folder: String, report: (ConfigDiagnostic) -> Void) -> Int {
        if let known = folderAnswers[folder] { return known }
        let governing = ConfigFile.governingFolder(ofFolder: folder) { path in
            if let known = existence[path] { return known }
            // A dangling or looping link named .highlights.json governs too, and is reported when loaded.
            let exists = ConfigFile.entryExists(atPath: path)
            existence[path] = exists
            return exists
        }.folder
        let key = governing ?? ""
        let index: Int
        if let known = byFolder[key] {
            index = known
        } else {
            var entry = Entry(configuration: .builtInOnly, folder: nil, file: nil)
            if let governing {
                let file = ConfigFile.path(inFolder: governing)
                entry = load(file: displayPath(file), folder: governing, report: report, required: false)
                    ?? Entry(configuration: .builtInOnly, folder: governing, file: file)
            }
            entries.append(entry)
            index = entries.count - 1
            byFolder[key] = index
        }
        folderAnswers[folder] = index
        return index
    }

    /// Loads one configuration file; an unusable file gives nil (after its problems are reported).
    private func load(file: String, folder: String, report: (ConfigDiagnostic) -> Void, required: Bool) -> Entry? {
        var layers: [ConfigLayer] = []
        switch ConfigFile.load(path: file) {
        case .missing:
            if required {
                note(ConfigDiagnostic(severity: .error, message: "no such file", source: file), report)
                return nil
            }
        case .unusable(let diagnostics):
            diagnostics.forEach { note($0, report) }
            return nil
        case .loaded(let layer, let diagnostics):
            diagnostics.forEach { note($0, report) }
            layers.append(layer)
        }
        let configuration = HighlightConfiguration(layers: layers)
        configuration.diagnostics.forEach { note($0, report) }
        return Entry(configuration: configuration, folder: folder, file: file)
    }

    private func note(_ diagnostic: ConfigDiagnostic, _ report: (ConfigDiagnostic) -> Void) {
        problemCount += 1
        report(diagnostic)
    }

    /// `path` relative to the current directory when it is inside it, for messages.
    func displayPath(_ absolutePath: String) -> String {
        ConfigFile.relativePath(of: absolutePath, inFolder: currentDirectory) ?? absolutePath
    }
}
