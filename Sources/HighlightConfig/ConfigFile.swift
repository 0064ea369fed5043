import Foundation

/// Reading a workspace folder's `.highlights.json`.
///
/// The server looks the file up in each workspace folder and, for a document, uses the
/// configuration of the deepest folder that contains it.
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
