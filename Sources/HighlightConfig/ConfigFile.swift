#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials

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
    /// The file is opened without waiting and without following a link by surprise
    /// (`readRegularFile(atPath:limit:)`), so a FIFO, a device, a link loop or a dangling link in
    /// its place is reported, never waited on and never taken for a missing file.
    ///
    /// - Complexity: O(*n*) in the size of the file (at most `maximumSizeInBytes` bytes are read).
    public static func load(path: String) -> LoadResult {
        let bytes: [UInt8]
        switch readRegularFile(atPath: path, limit: maximumSizeInBytes) {
        case .missing: return .missing
        case .refused(let message):
            return .unusable([ConfigDiagnostic(severity: .error, message: message, source: path)])
        case .tooLarge:
            let message = "the file is larger than the limit of \(maximumSizeInBytes) bytes (4 MiB); it is ignored"
            return .unusable([ConfigDiagnostic(severity: .error, message: message, source: path)])
        case .read(let contents): bytes = contents
        }
        let (layer, diagnostics) = ConfigLayer.parse(fileContents: bytes, source: path)
        guard let layer else { return .unusable(diagnostics) }
        return .loaded(layer, diagnostics: diagnostics)
    }

    /// What reading a configuration file from a repository gave.
    public enum RegularFileRead: Sendable, Equatable {
        /// Nothing of that name (not even a link).
        case missing
        /// The contents.
        case read([UInt8])
        /// Larger than the limit.
        case tooLarge
        /// Something of that name that cannot be read as a file, and why (a sentence for the user).
        case refused(String)
    }

    /// Reads the regular file at `path`, at most `limit` bytes, so that nothing put in its place
    /// (by a repository, or between a check and the open) can hang or trick the reader.
    ///
    /// The entry is looked at with `lstat`. A symbolic link is resolved deliberately (`realpath`):
    /// a loop or a dangling link is refused with a message naming it. The file (or the link's
    /// target) is then opened with `O_NONBLOCK | O_NOFOLLOW`, so a FIFO swapped in cannot block the
    /// open and a link swapped in is refused, and the open descriptor is checked with `fstat`:
    /// only a regular file is read, from that descriptor.
    ///
    /// - Complexity: a few system calls plus O(*n*) in the bytes read.
    public static func readRegularFile(atPath path: String, limit: Int) -> RegularFileRead {
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        var entry = stat()
        guard lstat(path, &entry) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return .missing }
            return .refused("cannot read the file: \(describeError(code)); it is ignored")
        }
        var target = path
        if entry.st_mode & S_IFMT == S_IFLNK {
            guard let resolved = realpath(path, nil) else {
                let code = errno
                let destination = linkDestination(path).map { " to \($0)" } ?? ""
                switch code {
                case ELOOP: return .refused("\(fileName) is a symbolic link\(destination) that loops (too many levels of symbolic links); it is ignored")
                case ENOENT, ENOTDIR: return .refused("\(fileName) is a dangling symbolic link\(destination): its target does not exist; it is ignored")
                default: return .refused("\(fileName) is a symbolic link\(destination) that cannot be resolved: \(describeError(code)); it is ignored")
                }
            }
            target = String(cString: resolved)
            free(resolved)
            guard stat(target, &entry) == 0 else {
                return .refused("\(fileName) is a symbolic link to \(target), which cannot be read: \(describeError(errno)); it is ignored")
            }
        }
        // Refused before opening: opening a device can have effects of its own.
        if let problem = notARegularFile(entry, fileName: fileName) { return .refused(problem + "; it is ignored") }

        let descriptor = open(target, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT: return .missing  // removed since it was looked at
            case ELOOP: return .refused("\(fileName) was replaced by a symbolic link while it was opened; it is ignored")
            default: return .refused("cannot open the file for reading: \(describeError(code)); it is ignored")
            }
        }
        defer { close(descriptor) }
        // What was opened is what is read: whatever the path names now, the descriptor is checked.
        var opened = stat()
        guard fstat(descriptor, &opened) == 0 else {
            return .refused("cannot read the file: \(describeError(errno)); it is ignored")
        }
        if let problem = notARegularFile(opened, fileName: fileName) { return .refused(problem + "; it is ignored") }

        var bytes: [UInt8] = []
        let expected = Int(exactly: opened.st_size).map { min(max(0, $0), limit) + 1 } ?? 1
        bytes.reserveCapacity(expected)
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        // One byte past the limit is enough to tell that the file is too large.
        while bytes.count <= limit {
            let wanted = min(chunk.count, limit + 1 - bytes.count)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
            if count > 0 {
                bytes += chunk[0..<count]
            } else if count == 0 {
                break
            } else if errno == EINTR {
                continue
            } else {
                return .refused("cannot read the file: \(describeError(errno)); it is ignored")
            }
        }
        return bytes.count > limit ? .tooLarge : .read(bytes)
    }

    /// Why an entry described by `info` is not read or written as a configuration file, or nil for a regular file.
    private static func notARegularFile(_ info: stat, fileName: String) -> String? {
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "\(fileName) is a directory, not a file"
        case S_IFIFO: return "\(fileName) is not a regular file (a FIFO)"
        case S_IFSOCK: return "\(fileName) is not a regular file (a socket)"
        case S_IFCHR, S_IFBLK: return "\(fileName) is not a regular file (a device)"
        default: return "\(fileName) is not a regular file"
        }
    }

    /// The text a symbolic link holds, for messages.
    private static func linkDestination(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { storage in
            storage.baseAddress.map { readlink(path, $0, storage.count - 1) } ?? -1
        }
        guard count > 0, count < buffer.count else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `strerror` of `code`, lower-cased at the start to sit inside a sentence.
    static func describeError(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }

    /// What may stand where `writeAtomically(_:named:inFolder:replacing:)` writes.
    public enum Replacing: Sendable, Hashable {
        /// Nothing: an entry of that name (a file, a link, anything) is left alone and reported as `.exists`.
        case nothing
        /// A regular file, which is replaced whole; anything else (a link, a directory, a FIFO, a device) is refused.
        case regularFile
    }

    /// What `writeAtomically(_:named:inFolder:replacing:)` did.
    public enum WriteOutcome: Sendable, Hashable {
        /// The file now holds the bytes.
        case written
        /// An entry of that name exists and `replacing` was `.nothing`; nothing was written.
        case exists
        /// Nothing was written, and why (a sentence for the user); an old file is untouched.
        case refused(String)
    }

    /// Writes `bytes` as the file `name` directly inside `folder`, so that no link is followed out of
    /// the folder, nothing waits on a special file, and a failure leaves the old file byte for byte.
    ///
    /// The entry is looked at with `fstatat(AT_SYMLINK_NOFOLLOW)` relative to the opened folder, never
    /// opened: a symbolic link is refused (naming its target: writing through it could change a file
    /// outside the folder, and a dangling one would create one), and so is a directory, FIFO, socket or
    /// device. The bytes go to a new file in the same folder (`O_CREAT | O_EXCL | O_NOFOLLOW`, mode
    /// 0644 less the umask), are flushed with `fsync`, and that file is renamed over the name, which
    /// replaces the entry itself and never writes through it; the folder is then synced so the rename
    /// lasts. On any failure the new file is removed and the old one was never opened.
    ///
    /// - Complexity: a few system calls plus O(*n*) in the bytes written.
    public static func writeAtomically(_ bytes: [UInt8], named name: String, inFolder folder: String, replacing: Replacing) -> WriteOutcome {
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folderDescriptor >= 0 else { return .refused("cannot open the folder \(folder): \(describeError(errno))") }
        defer { close(folderDescriptor) }
        var entry = stat()
        let replacesAFile = fstatat(folderDescriptor, name, &entry, AT_SYMLINK_NOFOLLOW) == 0
        if replacesAFile {
            if entry.st_mode & S_IFMT == S_IFLNK {
                let destination = linkDestination(join(folder, name)).map { " to \($0)" } ?? ""
                return .refused("\(name) is a symbolic link\(destination); it is not written through (remove the link, "
                    + "or edit the file it points to yourself)")
            }
            guard replacing == .regularFile else { return .exists }
            if let problem = notARegularFile(entry, fileName: name) { return .refused(problem + "; it is left as it is") }
        } else if errno != ENOENT {
            return .refused("cannot look at \(name): \(describeError(errno))")
        }

        // A name of its own in the same folder, so that the rename stays within one file system.
        var temporaryName = ""
        var descriptor: Int32 = -1
        for attempt in 0..<100 where descriptor < 0 {
            temporaryName = ".\(name).\(getpid()).\(attempt).tmp"
            descriptor = openat(folderDescriptor, temporaryName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if descriptor < 0, errno != EEXIST { break }
        }
        guard descriptor >= 0 else { return .refused("cannot create a file in \(folder): \(describeError(errno))") }
        var failure: String?
        var written = 0
        while failure == nil, written < bytes.count {
            let count = bytes.withUnsafeBytes { all in
                #if canImport(Glibc)
                Glibc.write(descriptor, all.baseAddress.map { $0 + written }, all.count - written)
                #else
                Darwin.write(descriptor, all.baseAddress.map { $0 + written }, all.count - written)
                #endif
            }
            if count > 0 {
                written += count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                failure = count == 0 ? "the file system took no more bytes" : describeError(errno)
            }
        }
        // Flushed before the rename, so that a crash leaves the old file or the whole new one, never an empty one.
        if failure == nil, fsync(descriptor) != 0 { failure = describeError(errno) }
        if close(descriptor) != 0, failure == nil { failure = describeError(errno) }
        if failure == nil, renameat(folderDescriptor, temporaryName, folderDescriptor, name) != 0 { failure = describeError(errno) }
        if let failure {
            unlinkat(folderDescriptor, temporaryName, 0)
            return .refused("\(failure); \(replacesAFile ? "the old file is unchanged" : "nothing was written")")
        }
        // The rename itself made durable; a failure here loses nothing that is not already on disk.
        _ = fsync(folderDescriptor)
        return .written
    }

    /// Whether there is a directory entry at `path` (a dangling or looping link counts), as the
    /// lookup of configuration files asks: such an entry governs, and loading it reports what is wrong.
    public static func entryExists(atPath path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
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

/// Which `.highlights.json` governs the files of each folder: the one answer to "which
/// configuration governs this path" that the command line, open documents and the workspace list
/// all ask for.
///
/// The search starts in the file's own folder and goes up one folder at a time. It stops at the
/// first folder holding a `.highlights.json` (the answer), or after a folder holding `.git` (the
/// repository root), or at `/`. Each folder's answer is kept, and so is that of every folder the
/// search passed through on the way up, so a walk looks for each folder's `.highlights.json` and
/// `.git` once. The answer depends only on a file's absolute location, never on where the search
/// was started from.
public struct ConfigPlacement: Sendable {
    /// The governing folder (nil for none) of each absolute folder asked about, and of those above it.
    private var answers: [String: String?] = [:]
    private let fileExists: @Sendable (String) -> Bool

    /// A placement that looks at the file system through `fileExists` (a dangling or looping link
    /// named `.highlights.json` governs too: loading it reports what is wrong).
    public init(fileExists: @escaping @Sendable (String) -> Bool = { ConfigFile.entryExists(atPath: $0) }) {
        self.fileExists = fileExists
    }

    /// The folder holding the `.highlights.json` that governs the files directly inside the
    /// absolute, normalised `folder`; nil when none does.
    ///
    /// - Complexity: two `lstat` calls per folder never asked about before, up to the answer.
    public mutating func governingFolder(ofFolder folder: String) -> String? {
        var passed: [String] = []
        var current = folder
        var answer: String?
        while true {
            if let known = answers[current] {
                answer = known
                break
            }
            passed.append(current)
            switch ConfigFile.searchStep(atFolder: current, fileExists: fileExists) {
            case .governs: answer = current
            case .stops: answer = nil
            case .goesUp:
                current = ConfigFile.parentFolder(of: current)
                continue
            }
            break
        }
        for visited in passed { answers[visited] = .some(answer) }
        return answer
    }

    /// The governing folder of the file at `path` (made absolute against `currentDirectory`) and
    /// the file's path relative to it, which its `files` globs match; nil for both when no
    /// `.highlights.json` governs the file.
    mutating func place(ofFile path: String, currentDirectory: String = "/") -> (folder: String, relativePath: String)? {
        let absolute = ConfigFile.absolutePath(path, currentDirectory: currentDirectory)
        guard let folder = governingFolder(ofFolder: ConfigFile.parentFolder(of: absolute)),
              let relative = ConfigFile.relativePath(of: absolute, inFolder: folder)
        else { return nil }
        return (folder, relative)
    }

    /// Forgets every answer, after a `.highlights.json` or a `.git` may have appeared or gone.
    public mutating func forgetAll() {
        answers.removeAll()
    }
}

extension ConfigFile {
    /// What the search for a governing file does at one absolute, normalised folder.
    enum SearchStep: Sendable, Hashable {
        /// The folder holds a `.highlights.json`: it governs.
        case governs
        /// The search stops here without an answer (a repository root, or `/`).
        case stops
        /// The answer is the parent folder's.
        case goesUp
    }

    /// The step of `ConfigPlacement.governingFolder(ofFolder:)` at `folder` (absolute and normalised).
    static func searchStep(atFolder folder: String, fileExists: (String) -> Bool) -> SearchStep {
        if fileExists(path(inFolder: folder)) { return .governs }
        if fileExists(join(folder, ".git")) || folder == "/" { return .stops }
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

    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
