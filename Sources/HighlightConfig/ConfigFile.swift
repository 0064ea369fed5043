import Foundation

/// Finding and reading `.highlights.json` files.
///
/// Which file governs a text is decided in one place, `place(ofFile:boundary:currentDirectory:)`:
/// the nearest `.highlights.json` in the file's folder or above it, up to the repository root (a
/// folder holding `.git`) or the filesystem root, as `.editorconfig` and ignore files are found.
/// Its `files` globs match the file's path relative to the folder that holds it.
public enum ConfigFile {
    /// The file name looked up at the root of each workspace folder.
    public static let name = ".highlights.json"

    /// Files larger than this (4 MiB) are refused with a diagnostic rather than read.
    public static let maximumSizeInBytes = 4 * 1024 * 1024

    /// What reading the file gave.
    public enum LoadResult: Sendable {
        /// There is no file: not an error, the layer is simply absent.
        case missing
        /// The file was read; `diagnostics` are the problems in it, each of which dropped only its part.
        case loaded(ConfigLayer, diagnostics: [ConfigDiagnostic])
        /// The file exists but cannot be used at all (invalid JSON, too large, unreadable, a
        /// directory); the server should keep its last good layer for this file.
        case unusable([ConfigDiagnostic])
    }

    /// The path of the configuration file in `folderPath`.
    public static func path(inFolder folderPath: String) -> String {
        folderPath.hasSuffix("/") ? folderPath + name : folderPath + "/" + name
    }

    /// Reads and parses the file at `path`; diagnostics name `path` as their source.
    ///
    /// - Complexity: O(*n*) in the size of the file (at most `maximumSizeInBytes` bytes are read).
    public static func load(path: String) -> LoadResult {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .missing }
        guard !isDirectory.boolValue else {
            return .unusable([ConfigDiagnostic(severity: .error, message: "\(name) is a directory, not a file; it is ignored", source: path)])
        }
        // Opening a FIFO would wait for a writer forever, and a device might never end: only
        // regular files (or links to them) are read.
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return .unusable([ConfigDiagnostic(severity: .error, message: "\(name) is not a regular file; it is ignored", source: path)])
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .unusable([ConfigDiagnostic(severity: .error, message: "cannot open the file for reading; it is ignored", source: path)])
        }
        defer { try? handle.close() }
        let data: Data
        do {
            // One byte past the limit is enough to tell that the file is too large.
            data = try handle.read(upToCount: maximumSizeInBytes + 1) ?? Data()
        } catch {
            return .unusable([ConfigDiagnostic(severity: .error, message: "cannot read the file (\(error)); it is ignored", source: path)])
        }
        guard data.count <= maximumSizeInBytes else {
            let message = "the file is larger than the limit of \(maximumSizeInBytes) bytes (4 MiB); it is ignored"
            return .unusable([ConfigDiagnostic(severity: .error, message: message, source: path)])
        }
        let (layer, diagnostics) = ConfigLayer.parse(fileContents: [UInt8](data), source: path)
        guard let layer else { return .unusable(diagnostics) }
        return .loaded(layer, diagnostics: diagnostics)
    }
}

// MARK: - Which configuration governs a file

/// Where a file's configuration comes from, and the file's path as that configuration's `files` globs see it.
public struct ConfigPlace: Sendable, Hashable {
    /// The absolute path of the folder holding the governing `.highlights.json`; nil when no folder
    /// between the file and its repository root (or the boundary, or `/`) holds one.
    public var folder: String?
    /// The file's path relative to `folder`, segments separated by `/`; when `folder` is nil, its
    /// path relative to the folder where the search stopped.
    public var relativePath: String

    /// A place from its parts.
    public init(folder: String?, relativePath: String) {
        self.folder = folder
        self.relativePath = relativePath
    }
}

extension ConfigFile {
    /// The configuration that governs the file at `path`, and the path its `files` globs match.
    ///
    /// The search starts in the file's own folder and goes up one folder at a time. It stops at
    /// the first folder holding a `.highlights.json` (the answer), or after a folder holding `.git`
    /// (the repository root), after `boundary` when the file lies inside it, or at `/`.
    /// A relative `path` is taken relative to `currentDirectory`. The result depends only on the
    /// file's absolute location, never on where the search was started from.
    ///
    /// - Complexity: two `stat` calls per folder visited (`fileExists` is called with
    ///   `ConfigFile.name` and `.git` inside each).
    public static func place(
        ofFile path: String, boundary: String? = nil, currentDirectory: String = FileManager.default.currentDirectoryPath,
        fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> ConfigPlace {
        let absolute = absolutePath(path, currentDirectory: currentDirectory)
        let directory = parentFolder(of: absolute)
        let search = governingFolder(ofFolder: directory, boundary: boundary, fileExists: fileExists)
        let base = search.folder ?? search.stoppedAt
        return ConfigPlace(folder: search.folder, relativePath: relativePath(of: absolute, inFolder: base) ?? absolute)
    }

    /// The folder whose `.highlights.json` governs the files directly inside the absolute folder
    /// `folder` (nil when there is none), and the folder where the search stopped.
    ///
    /// Callers that look up many files cache this per folder; `place(ofFile:…)` is this plus the
    /// file's relative path.
    public static func governingFolder(
        ofFolder folder: String, boundary: String? = nil,
        fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> (folder: String?, stoppedAt: String) {
        let limit = boundary.map { absolutePath($0, currentDirectory: "/") }
        var current = absolutePath(folder, currentDirectory: "/")
        while true {
            switch searchStep(atFolder: current, limit: limit, fileExists: fileExists) {
            case .governs: return (current, current)
            case .stops: return (nil, current)
            case .goesUp: current = parentFolder(of: current)
            }
        }
    }

    /// What the search for a governing file does at one absolute, normalised folder.
    public enum SearchStep: Sendable, Hashable {
        /// The folder holds a `.highlights.json`: it governs.
        case governs
        /// The search stops here without an answer (a repository root, the boundary, or `/`).
        case stops
        /// The answer is the parent folder's.
        case goesUp
    }

    /// The step of `governingFolder(ofFolder:boundary:fileExists:)` at `folder` (absolute and
    /// normalised; `limit` likewise), so that a caller that looks up many folders can remember
    /// each folder's answer and reuse it for the folders below.
    public static func searchStep(atFolder folder: String, limit: String? = nil, fileExists: (String) -> Bool) -> SearchStep {
        if fileExists(path(inFolder: folder)) { return .governs }
        if fileExists(join(folder, ".git")) || folder == limit || folder == "/" { return .stops }
        return .goesUp
    }

    /// `path` made absolute against `currentDirectory`, with `.`, `..` and repeated `/` removed
    /// lexically (symbolic links are not resolved, so that paths stay as the user wrote them).
    ///
    /// Segments are split at `/` bytes, as the file system splits them.
    public static func absolutePath(_ path: String, currentDirectory: String) -> String {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        let joined = path.utf8.first == slash ? path : currentDirectory + "/" + path
        // Most paths are normalised already: no empty, `.` or `..` segment, no trailing `/`.
        var normalised = joined.utf8.count == 1 || joined.utf8.last != slash
        var previous = slash, beforePrevious = slash, thirdBefore = slash
        for byte in joined.utf8.dropFirst() where normalised {
            if byte == slash {
                // `//`, `/./` and `/../` end here.
                if previous == slash || (previous == dot && beforePrevious == slash)
                    || (previous == dot && beforePrevious == dot && thirdBefore == slash) { normalised = false }
            }
            (thirdBefore, beforePrevious, previous) = (beforePrevious, previous, byte)
        }
        // A last segment of `.` or `..`.
        if normalised, previous == dot, beforePrevious == slash || (beforePrevious == dot && thirdBefore == slash) { normalised = false }
        if normalised { return joined }
        var segments: [Substring.UTF8View] = []
        for segment in joined.utf8.split(separator: slash, omittingEmptySubsequences: true) {
            if segment.elementsEqual([dot]) { continue }
            if segment.elementsEqual([dot, dot]) {
                if !segments.isEmpty { segments.removeLast() }
                continue
            }
            segments.append(segment)
        }
        var bytes: [UInt8] = [slash]
        for (index, segment) in segments.enumerated() {
            if index > 0 { bytes.append(slash) }
            bytes.append(contentsOf: segment)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The absolute path `path` relative to the absolute folder `folder`, or nil when it is not inside it.
    ///
    /// Paths are compared as bytes, as the file system compares them (no Unicode equivalence).
    public static func relativePath(of path: String, inFolder folder: String) -> String? {
        let slash = UInt8(ascii: "/")
        let pathBytes = path.utf8
        if folder == "/" {
            guard pathBytes.first == slash else { return nil }
            return String(Substring(pathBytes.dropFirst()))
        }
        let folderBytes = folder.utf8
        guard pathBytes.count >= folderBytes.count, pathBytes.starts(with: folderBytes) else { return nil }
        let rest = pathBytes.dropFirst(folderBytes.count)
        guard let first = rest.first else { return "" }
        guard first == slash else { return nil }
        return String(Substring(rest.dropFirst()))
    }

    /// The folder that holds the absolute path `path` (`/` for `/` itself).
    public static func parentFolder(of path: String) -> String {
        let bytes = path.utf8
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")), slash != bytes.startIndex else { return "/" }
        return String(Substring(bytes[..<slash]))
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
