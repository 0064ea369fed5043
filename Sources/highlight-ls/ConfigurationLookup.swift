#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import HighlightConfig
import WorkspaceScan

// Which configuration searches each file on the command line. `ConfigPlacement` (shared with the
// server) finds the folder whose `.highlights.json` governs a folder's files, once per folder;
// this lookup loads each configuration file once, reports its problems once, and keeps the
// configurations in the order they were first used, for output formats that list rules.

/// The configurations used by one run of `print`, `list` or `check`.
final class ConfigurationLookup {
    /// A configuration and where it came from.
    struct Entry {
        /// The configuration (built-ins only when no file governs), shared by the files it searches.
        var shared: SharedConfiguration
        /// The folder holding its file, against which `files` globs match; nil for the built-ins alone.
        var folder: String?
        /// The file it was read from; nil for the built-ins alone.
        var file: String?

        init(configuration: HighlightConfiguration, folder: String?, file: String?) {
            shared = SharedConfiguration(configuration)
            self.folder = folder
            self.file = file
        }

        /// The configuration (built-ins only when no file governs).
        var configuration: HighlightConfiguration { shared.configuration }
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
    /// Which folder's `.highlights.json` governs each folder's files.
    private var placement = ConfigPlacement()
    /// For each folder as a walk spells it (`file.path` up to its last `/`): its entry and the
    /// relative path its files' names are appended to, so that a file costs no path arithmetic.
    private var walkedFolders: [String: FolderAnswer] = [:]
    /// The folder of the last walked file, and its answer: a walk lists a folder's files together.
    private var lastWalkedFolder: (spelling: String, answer: FolderAnswer)?

    /// What every file directly inside one folder gets: the entry and the start of its relative path.
    private struct FolderAnswer {
        var index: Int
        /// The folder's path relative to the entry's base, with a trailing `/` (empty for the base itself).
        var relativePrefix: String
    }

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
        if let folderOfPath {
            let name = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { Substring(path.utf8[path.utf8.index(after: $0)...]) }
                ?? Substring(path)
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

    /// The configuration of a file found by a walk, and the path its `files` globs match: the same
    /// answer as `configuration(forFile:report:)`, from a cache by folder, so that a file costs
    /// one comparison of its folder with the previous file's and one concatenation.
    func configuration(forWalkedFile path: String, report: (ConfigDiagnostic) -> Void) -> (index: Int, relativePath: String) {
        let bytes = path.utf8
        guard let slash = Self.lastSlash(in: path) else {
            // A bare name: a file in the current directory, spelt `.` here.
            return configuration(forWalkedFile: "./" + path, report: report)
        }
        let name = Substring(bytes[bytes.index(after: slash)...])
        let folderBytes = bytes[..<slash]
        if let last = lastWalkedFolder, Self.sameBytes(last.spelling, folderBytes) {
            return (last.answer.index, Self.joined(last.answer.relativePrefix, name))
        }
        let spelling = String(Substring(folderBytes))
        let answer: FolderAnswer
        if let known = walkedFolders[spelling] {
            answer = known
        } else {
            // The folder's answer is that of a file in it with an empty name: the relative path
            // of `folder/` is the prefix of every file's.
            let absolute = ConfigFile.absolutePath(spelling.isEmpty ? "/" : spelling, currentDirectory: currentDirectory)
            let (index, prefix) = configuration(forFile: "", absoluteFolder: absolute, report: report)
            answer = FolderAnswer(index: index, relativePrefix: prefix)
            walkedFolders[spelling] = answer
        }
        lastWalkedFolder = (spelling, answer)
        return (answer.index, Self.joined(answer.relativePrefix, name))
    }

    /// The last `/` of `path` (read from its bytes in memory for native strings).
    private static func lastSlash(in path: String) -> String.Index? {
        let bytes = path.utf8
        let offset = bytes.withContiguousStorageIfAvailable { buffer in buffer.lastIndex(of: UInt8(ascii: "/")) }
        guard let offset else { return bytes.lastIndex(of: UInt8(ascii: "/")) }
        return offset.map { bytes.index(bytes.startIndex, offsetBy: $0) }
    }

    /// `prefix` then `name`, in one allocation.
    private static func joined(_ prefix: String, _ name: Substring) -> String {
        var joined = ""
        joined.reserveCapacity(prefix.utf8.count + name.utf8.count)
        joined += prefix
        joined += name
        return joined
    }

    /// Whether `string` is spelt with exactly `bytes` (one `memcmp` for native strings).
    private static func sameBytes(_ string: String, _ bytes: Substring.UTF8View) -> Bool {
        let compared = string.utf8.withContiguousStorageIfAvailable { left in
            bytes.withContiguousStorageIfAvailable { right in
                guard left.count == right.count else { return false }
                guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return true }
                return memcmp(leftBase, rightBase, left.count) == 0
            }
        }
        return (compared ?? nil) ?? string.utf8.elementsEqual(bytes)
    }

    /// The entry for the files directly inside the absolute `folder`.
    private func entryIndex(forFolder folder: String, report: (ConfigDiagnostic) -> Void) -> Int {
        if let known = folderAnswers[folder] { return known }
        let governing = placement.governingFolder(ofFolder: folder)
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

    /// A nested configuration file that narrows a blocking rule of the file above it.
    struct NestedNarrowing {
        /// The nested file and the one above it, as messages name them.
        var nestedFile: String
        var outerFile: String
        var narrowing: RuleNarrowing
        /// What the files above decide about it (`NestedConfigPolicy.inForce`).
        var policy: NestedConfigPolicy
    }

    /// Each blocking rule that a configuration file used so far switches off or narrows, compared with every file above
    /// it up to the repository root (each would govern the folder if the files below it were not there; they are
    /// loaded now if no searched file used them), so that a file in between cannot hand on a rule it narrowed. None
    /// with `--config`, which governs alone.
    ///
    /// - Complexity: one comparison per configuration file used and file above it, plus the lookups of their folders.
    func nestedNarrowings(report: (ConfigDiagnostic) -> Void) -> [NestedNarrowing] {
        guard explicit == nil else { return [] }
        var found: [NestedNarrowing] = []
        // Only the files that governed searched files; those loaded here for the comparison are compared when used.
        for index in entries.indices {
            guard let nestedFile = entries[index].file else { continue }
            var above: [Int] = []
            while let next = outerEntry(of: above.last ?? index, report: report) { above.append(next) }
            for (position, outer) in above.enumerated() {
                guard let outerFile = entries[outer].file else { continue }
                let narrowings = entries[index].configuration.narrowings(ofBlockingRulesOf: entries[outer].configuration)
                let policy = NestedConfigPolicy.inForce(above[position...].map { entries[$0].configuration.nestedConfigs })
                found += narrowings.map { NestedNarrowing(nestedFile: nestedFile, outerFile: outerFile, narrowing: $0, policy: policy) }
            }
        }
        return found
    }

    /// The entry of the file that would govern the folder of entry `index`'s file without it; nil for a file at a
    /// repository root or at `/`, or when no file above governs.
    private func outerEntry(of index: Int, report: (ConfigDiagnostic) -> Void) -> Int? {
        guard entries[index].file != nil, let folder = entries[index].folder, folder != "/",
              !ConfigFile.entryExists(atPath: folder + "/.git")
        else { return nil }
        let outer = entryIndex(forFolder: ConfigFile.parentFolder(of: folder), report: report)
        return entries[outer].file == nil ? nil : outer
    }

    /// `path` relative to the current directory when it is inside it, for messages.
    func displayPath(_ absolutePath: String) -> String {
        ConfigFile.relativePath(of: absolutePath, inFolder: currentDirectory) ?? absolutePath
    }
}
