#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UTF8Decoding

// Walks a directory tree the way a developer expects a "search the project"
// to: `.git` and hidden entries are skipped, `.gitignore` and `.ignore` files
// (nested ones included) are obeyed, symbolic links are not followed. The walk
// itself only lists; reading, the size limit and the binary check happen when
// a file is scanned.

/// A regular file found by the walk.
public struct WalkedFile: Sendable, Hashable {
    /// The path as the walk reached it (the root joined with the relative path). A path that is
    /// not valid UTF-8 is shown escaped (`FileSystemPath.displayed`); `undecodedPath` then holds it.
    public var path: String
    /// The path relative to the root, segments separated by `/` (escaped as `path` is).
    public var relativePath: String
    /// The size in bytes when listed.
    public var size: Int
    /// The modification time when listed, in nanoseconds since 1970.
    public var modificationTime: Int64
    /// The path's bytes on disk when they are not valid UTF-8; nil when `path` is the path on disk.
    public var undecodedPath: [UInt8]?

    /// Creates a file entry.
    public init(path: String, relativePath: String, size: Int, modificationTime: Int64, undecodedPath: [UInt8]? = nil) {
        self.path = path
        self.relativePath = relativePath
        self.size = size
        self.modificationTime = modificationTime
        self.undecodedPath = undecodedPath
    }

    /// The path for a terminal or a CI log: as `path` shows it, with control characters escaped too
    /// (`FileSystemPath.displayed(_:controls:)`), so that a name cannot move the cursor or start a line of its own.
    public var terminalPath: String {
        FileSystemPath.displayed(undecodedPath ?? Array(path.utf8), controls: .escaped)
    }

    /// Calls `body` with the path to open, as the file system knows it (NUL-terminated).
    public func withFileSystemPath<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        try FileSystemPath.withCString(display: path, bytes: undecodedPath, body)
    }
}

/// Something the walk could not read, so that nothing is left out silently.
public struct WalkProblem: Sendable, Hashable {
    /// What could not be read.
    public enum Kind: Sendable, Hashable {
        /// A folder that could not be listed (or listed only in part): some of its files were not searched.
        case folder
        /// An entry that could not be looked at (it vanished, or an I/O error): it was not searched.
        case entry
        /// An ignore file that was not read (not a regular file, too large, unreadable): more is
        /// searched, nothing less.
        case ignoreFile
        /// The git index, read to search tracked files that ignore files match (`Options.searchesTrackedFiles`), could
        /// not be read: such files were not searched.
        case gitIndex
    }

    /// The path, shown as `WalkedFile.path` is.
    public var path: String
    /// Why, as a short phrase ("permission denied").
    public var reason: String
    public var kind: Kind

    /// The path for a terminal or a CI log, with control characters escaped too (a name both not UTF-8 and holding
    /// a control character shows its backslashes doubled once more: `path` is escaped already).
    public var terminalPath: String { FileSystemPath.displayed(Array(path.utf8), controls: .escaped) }

    /// Creates a problem.
    init(path: String, reason: String, kind: Kind) {
        self.path = path
        self.reason = reason
        self.kind = kind
    }
}

/// Paths as bytes: file names on Linux are any bytes but `/` and NUL, and the walk keeps them so.
public enum FileSystemPath {
    /// `bytes` as text when they are valid UTF-8, else nil. (`String(validating:as:)` is generic and, unspecialized
    /// for arrays, asked the runtime for type metadata at every name a walk read.)
    static func validText(_ bytes: [UInt8]) -> String? {
        UTF8Decoding.isValid(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// Which characters `displayed(_:controls:)` escapes besides bytes that are not UTF-8.
    public enum ControlCharacters: Sendable, Hashable {
        /// Kept as they are: the walk's names, which every output format then escapes its own way.
        case kept
        /// Escaped too: text for a terminal or a CI log, where an escape sequence or a line break in a name or a
        /// matched text could rewrite the screen or forge a line of its own (see `isTerminalControl`).
        case escaped
    }

    /// `bytes` as text: valid UTF-8 as it is; otherwise each byte that does not begin a valid UTF-8
    /// sequence (and, with `controls: .escaped`, each byte of a control character) is written `\xNN`
    /// (two upper-case hex digits) and each backslash `\\`, so that the name shows what is on disk
    /// and stays valid, inert text in every output format. A text with nothing to escape is never changed.
    ///
    /// - Complexity: O(*n*) in the number of bytes.
    public static func displayed<Bytes: Collection<UInt8>>(_ bytes: Bytes, controls: ControlCharacters = .kept) -> String {
        let array = Array(bytes)
        if let text = validText(array), controls == .kept || !text.unicodeScalars.contains(where: isTerminalControl) {
            return text
        }
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        var out = String.UnicodeScalarView()
        func escape(_ byte: UInt8) {
            out.append("\\")
            out.append("x")
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        var index = 0
        array.withUnsafeBufferPointer { array in
            while index < array.count {
                if let (scalar, length) = UTF8Decoding.scalar(at: index, in: array) {
                    if scalar == "\\" {
                        out.append("\\")
                        out.append("\\")
                    } else if controls == .escaped, isTerminalControl(scalar) {
                        array[index..<(index + length)].forEach(escape)
                    } else {
                        out.append(scalar)
                    }
                    index += length
                } else {
                    escape(array[index])
                    index += 1
                }
            }
        }
        return String(out)
    }

    /// Whether a terminal or a CI log may act on `scalar` rather than show it: the C0 controls but tab (line
    /// breaks, ESC that starts CSI and OSC sequences, BEL that ends them), DEL, and the C1 controls (U+009B is
    /// an 8-bit CSI to some terminals).
    public static func isTerminalControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
    }

    /// Calls `body` with `bytes` (when given) or `display` as a NUL-terminated C string.
    static func withCString<Result>(display: String, bytes: [UInt8]?, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        guard let bytes else { return try display.withCString(body) }
        let terminated = bytes.map { CChar(bitPattern: $0) } + [0]
        return try terminated.withUnsafeBufferPointer { buffer in
            // `buffer` is never empty: it ends with the NUL just appended.
            guard let base = buffer.baseAddress else { return try "".withCString(body) }
            return try body(base)
        }
    }

    /// `strerror` of `code`, lower-cased at the start to sit inside a sentence ("permission denied").
    public static func describeError(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}

/// Lists the files of a tree, respecting ignore files.
public enum WorkspaceWalker {
    /// The name of a directory entry, read through the entry up to its NUL: the C library sizes each
    /// entry to its name (`d_reclen`), so copying the whole 256-byte `d_name` field would read past
    /// a short entry's end.
    static func name(of entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
        guard let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) else { return [] }
        let start = UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self)
        return Array(UnsafeRawBufferPointer(start: start, count: strlen(start)))
    }

    /// What to skip.
    public struct Options: Sendable, Hashable {
        /// Whether `.gitignore` and `.ignore` files are obeyed (default true).
        var respectsIgnoreFiles: Bool
        /// Whether entries whose name starts with `.` are walked (default false; `.git` never is).
        var includesHidden: Bool
        /// Whether each file's size and modification time are looked up (default true; one `lstat` an entry). Without,
        /// files and folders are told apart by the types the listing gives (an `lstat` only where the file system
        /// gives none), and a file's `size` and `modificationTime` are 0: for a scan that reads each file anyway and
        /// learns its size then, which takes the lookups off the walking thread.
        public var readsFileStatus: Bool
        /// Whether, inside a git repository, the files git tracks are walked even where an ignore file matches them,
        /// as git itself reads ignore files: they keep untracked files out, never tracked ones (default false; `check`
        /// sets it, so that a repository cannot hide a tracked file from the gate with an ignore file). The
        /// repository's index is read (`GitIndex`); git is never run.
        public var searchesTrackedFiles: Bool
        /// The command line's `--glob`s, which leave out more (default none); a root that is a file is walked whatever they say.
        public var globs: WalkGlobs?

        /// Creates options.
        public init(
            respectsIgnoreFiles: Bool = true, includesHidden: Bool = false, readsFileStatus: Bool = true, searchesTrackedFiles: Bool = false,
            globs: WalkGlobs? = nil
        ) {
            self.respectsIgnoreFiles = respectsIgnoreFiles
            self.includesHidden = includesHidden
            self.readsFileStatus = readsFileStatus
            self.searchesTrackedFiles = searchesTrackedFiles
            self.globs = globs
        }
    }

    /// Ignore files larger than this (16 MiB) are not read (and reported).
    static let maximumIgnoreFileBytes = 16 << 20

    /// The regular files under `root` (or `root` itself when it is a file), in walk order: the entries
    /// of each directory by the bytes of their names, a subdirectory's files where its name falls.
    ///
    /// - Complexity: one `readdir` per directory and one `lstat` per entry (see `Options.readsFileStatus`), plus reading
    ///   each ignore file.
    public static func files(under root: String, options: Options = Options()) -> [WalkedFile] {
        var found: [WalkedFile] = []
        walk(under: root, options: options) { found.append($0) }
        return found
    }

    /// Calls `visit` with each regular file under `root` (or `root` itself when it is a file), in the order of `files(under:options:)`.
    ///
    /// - Complexity: one `readdir` per directory and one `lstat` per entry (see `Options.readsFileStatus`), plus reading
    ///   each ignore file.
    public static func walk(under root: String, options: Options = Options(), visit: (WalkedFile) -> Void) {
        walk(under: root, options: options, problem: { _ in }, visit: visit)
    }

    /// Calls `visit` with each regular file under `root`, as `walk(under:options:visit:)` does, and
    /// `problem` with each folder, entry or ignore file that could not be read (so that nothing is
    /// left out silently). Names that are not valid UTF-8 are walked and searched like any other.
    ///
    /// - Complexity: one `readdir` per directory and one `lstat` per entry (see `Options.readsFileStatus`), plus reading
    ///   each ignore file.
    public static func walk(
        under root: String, options: Options = Options(), problem: (WalkProblem) -> Void, visit: (WalkedFile) -> Void
    ) {
        var info = stat()
        guard stat(root, &info) == 0 else {
            problem(WalkProblem(path: root, reason: FileSystemPath.describeError(errno), kind: .entry))
            return
        }
        if (info.st_mode & S_IFMT) != S_IFDIR {
            let name = root.split(separator: "/").last.map(String.init) ?? root
            visit(WalkedFile(path: root, relativePath: name, size: Int(info.st_size), modificationTime: nanoseconds(info)))
            return
        }
        var tracked: TrackedFiles?
        if options.searchesTrackedFiles, options.respectsIgnoreFiles {
            switch TrackedFiles.below(root) {
            case .success(let files)?: tracked = files
            case .failure(let failure)?: problem(WalkProblem(path: root, reason: failure.reason, kind: .gitIndex))
            case nil: break
            }
        }
        walk(
            directory: root, directoryBytes: nil, relative: "", segments: [], ignores: IgnoreStack(), tracked: tracked,
            insideIgnoredFolder: false, options: options, problem: problem, visit: visit)
    }

    /// One entry of a directory: its name's bytes (the sort key), and the name as shown.
    private struct Entry {
        var bytes: [UInt8]
        var name: String
        var isValidUTF8: Bool
        /// The type the listing gave (`DT_REG`, `DT_DIR`, …; `DT_UNKNOWN` where the file system gives none).
        var listedType: UInt8
    }

    /// Walks `directory` (as shown; `directoryBytes` is its path on disk when that differs). Inside an ignored folder
    /// that holds tracked files (`tracked`), only those are walked: everything else there is ignored with the folder.
    private static func walk(
        directory: String, directoryBytes: [UInt8]?, relative: String, segments: [[Unicode.Scalar]], ignores: IgnoreStack,
        tracked: TrackedFiles?, insideIgnoredFolder: Bool, options: Options, problem: (WalkProblem) -> Void,
        visit: (WalkedFile) -> Void
    ) {
        // errno is read in the closure, before anything else can change it.
        let (opened, openError) = FileSystemPath.withCString(display: directory, bytes: directoryBytes) { path in
            let handle = opendir(path)
            return (handle, errno)
        }
        guard let handle = opened else {
            problem(WalkProblem(path: directory, reason: FileSystemPath.describeError(openError), kind: .folder))
            return
        }
        // Kept open while the entries are visited: each is looked up relative to it, not by its whole path.
        defer { closedir(handle) }
        let directoryDescriptor = dirfd(handle)
        var entries: [Entry] = []
        var ignoreFilesPresent: Set<String> = []
        while true {
            errno = 0
            guard let entry = readdir(handle) else {
                // The end, or an error that cut the listing short: its files were not all seen.
                if errno != 0 {
                    problem(WalkProblem(path: directory, reason: FileSystemPath.describeError(errno), kind: .folder))
                }
                break
            }
            let bytes = Self.name(of: entry)
            let valid = FileSystemPath.validText(bytes)
            let name = valid ?? FileSystemPath.displayed(bytes)
            if name == ".gitignore" || name == ".ignore" { ignoreFilesPresent.insert(name) }
            if name == "." || name == ".." || name == ".git" { continue }
            if !options.includesHidden, name.hasPrefix(".") { continue }
            entries.append(Entry(bytes: bytes, name: name, isValidUTF8: valid != nil, listedType: entry.pointee.d_type))
        }
        // Entries in byte order, each directory walked where its name falls: a stable order without a global sort.
        entries.sort { $0.bytes.lexicographicallyPrecedes($1.bytes) }

        // Each entry's path and relative path: the folder's, with the slash, made once, then the name.
        let directoryPrefix = directory.hasSuffix("/") ? directory : directory + "/"
        let relativePrefix = relative.isEmpty ? "" : relative + "/"
        var ignores = ignores
        if options.respectsIgnoreFiles {
            // Pushed shallowest-precedence first, so `.ignore` ends up above `.gitignore`.
            for name in [".gitignore", ".ignore"] where ignoreFilesPresent.contains(name) {
                switch readIgnoreFile(name, directoryDescriptor: directoryDescriptor) {
                case .success(let data):
                    ignores = ignores.pushing(IgnoreFile(text: String(decoding: data, as: UTF8.self), directory: relative))
                case .failure(let reason):
                    problem(WalkProblem(path: directoryPrefix + name, reason: reason.text, kind: .ignoreFile))
                }
            }
        }

        var entrySegments = segments + [[]]
        // Globs read the segments from the root, and an ignore file those below its folder: without either here, the
        // entries' own are never read (an ignore file found deeper reads only those below it).
        let readsSegments = options.globs != nil || !ignores.files.isEmpty
        for entry in entries {
            let path = directoryPrefix + entry.name
            let relativePath = relativePrefix + entry.name
            // The path on disk, kept only when it differs from the one shown.
            var pathBytes: [UInt8]?
            if directoryBytes != nil || !entry.isValidUTF8 {
                var joined = directoryBytes ?? Array(directory.utf8)
                if joined.last != UInt8(ascii: "/") { joined.append(UInt8(ascii: "/")) }
                pathBytes = joined + entry.bytes
            }
            var info = stat()
            // 0, or the errno of the failed look.
            let lookError: Int32
            if !options.readsFileStatus, entry.listedType == UInt8(DT_REG) || entry.listedType == UInt8(DT_DIR) {
                // The type is all the walk needs: the rest of `info` stays zero.
                info.st_mode = entry.listedType == UInt8(DT_DIR) ? S_IFDIR : S_IFREG
                lookError = 0
            } else if directoryDescriptor >= 0 {
                lookError = FileSystemPath.withCString(display: entry.name, bytes: entry.isValidUTF8 ? nil : entry.bytes) {
                    fstatat(directoryDescriptor, $0, &info, AT_SYMLINK_NOFOLLOW) == 0 ? 0 : errno
                }
            } else {
                lookError = FileSystemPath.withCString(display: path, bytes: pathBytes) { lstat($0, &info) == 0 ? 0 : errno }
            }
            guard lookError == 0 else {
                problem(WalkProblem(path: path, reason: FileSystemPath.describeError(lookError), kind: .entry))
                continue
            }
            let type = info.st_mode & S_IFMT
            if readsSegments { entrySegments[entrySegments.count - 1] = Array(entry.name.unicodeScalars) }
            if let globs = options.globs, type == S_IFDIR || type == S_IFREG,
               globs.leavesOut(segments: entrySegments[...], isDirectory: type == S_IFDIR) {
                continue
            }
            if type == S_IFDIR {
                let ignored = insideIgnoredFolder || ignores.isIgnored(segments: entrySegments, isDirectory: true)
                if ignored, !(tracked?.holdsTrackedFiles(folder: relativePath) ?? false) { continue }
                walk(
                    directory: path, directoryBytes: pathBytes, relative: relativePath, segments: entrySegments, ignores: ignores,
                    tracked: tracked, insideIgnoredFolder: ignored, options: options, problem: problem, visit: visit)
            } else if type == S_IFREG {
                let ignored = insideIgnoredFolder || ignores.isIgnored(segments: entrySegments, isDirectory: false)
                if ignored, !(tracked?.tracks(file: relativePath) ?? false) { continue }
                visit(WalkedFile(
                    path: path, relativePath: relativePath, size: Int(info.st_size), modificationTime: nanoseconds(info),
                    undecodedPath: pathBytes))
            }
        }
    }

    /// Why an ignore file was not read.
    private struct IgnoreFileProblem: Error {
        var text: String
    }

    /// Reads the ignore file `name` of the open directory: without waiting on a FIFO put in its
    /// place (`O_NONBLOCK`, then `fstat` of the descriptor), and at most `maximumIgnoreFileBytes`.
    private static func readIgnoreFile(_ name: String, directoryDescriptor: Int32) -> Result<[UInt8], IgnoreFileProblem> {
        let descriptor = openat(directoryDescriptor, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(IgnoreFileProblem(text: FileSystemPath.describeError(errno))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(IgnoreFileProblem(text: FileSystemPath.describeError(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(IgnoreFileProblem(text: "not a regular file")) }
        guard info.st_size <= maximumIgnoreFileBytes else {
            return .failure(IgnoreFileProblem(text: "larger than \(maximumIgnoreFileBytes >> 20) MiB"))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while bytes.count <= maximumIgnoreFileBytes {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += chunk[0..<count]
            } else if count == 0 {
                return .success(bytes)
            } else if errno != EINTR {
                return .failure(IgnoreFileProblem(text: FileSystemPath.describeError(errno)))
            }
        }
        return .failure(IgnoreFileProblem(text: "larger than \(maximumIgnoreFileBytes >> 20) MiB"))
    }

    private static func nanoseconds(_ info: stat) -> Int64 {
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }
}
