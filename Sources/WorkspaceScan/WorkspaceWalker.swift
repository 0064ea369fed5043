import Foundation

// Walks a directory tree the way a developer expects a "search the project"
// to: `.git` and hidden entries are skipped, `.gitignore` and `.ignore` files
// (nested ones included) are obeyed, symbolic links are not followed. The walk
// itself only lists; reading, the size limit and the binary check happen when
// a file is scanned.

/// A regular file found by the walk.
public struct WalkedFile: Sendable, Hashable {
    /// The path as the walk reached it (the root joined with the relative path).
    public var path: String
    /// The path relative to the root, segments separated by `/`.
    public var relativePath: String
    /// The size in bytes when listed.
    public var size: Int
    /// The modification time when listed, in nanoseconds since 1970.
    public var modificationTime: Int64

    /// Creates a file entry.
    public init(path: String, relativePath: String, size: Int, modificationTime: Int64) {
        self.path = path
        self.relativePath = relativePath
        self.size = size
        self.modificationTime = modificationTime
    }
}

/// Lists the files of a tree, respecting ignore files.
public enum WorkspaceWalker {
    /// What to skip.
    public struct Options: Sendable, Hashable {
        /// Whether `.gitignore` and `.ignore` files are obeyed (default true).
        public var respectsIgnoreFiles: Bool
        /// Whether entries whose name starts with `.` are walked (default false; `.git` never is).
        public var includesHidden: Bool

        /// Creates options.
        public init(respectsIgnoreFiles: Bool = true, includesHidden: Bool = false) {
            self.respectsIgnoreFiles = respectsIgnoreFiles
            self.includesHidden = includesHidden
        }
    }

    /// The regular files under `root` (or `root` itself when it is a file), in walk order: the entries
    /// of each directory by the bytes of their names, a subdirectory's files where its name falls.
    ///
    /// - Complexity: one `readdir` per directory and one `lstat` per entry, plus reading each ignore file.
    public static func files(under root: String, options: Options = Options()) -> [WalkedFile] {
        var found: [WalkedFile] = []
        walk(under: root, options: options) { found.append($0) }
        return found
    }

    /// Calls `visit` with each regular file under `root` (or `root` itself when it is a file), in the order of `files(under:options:)`.
    ///
    /// - Complexity: one `readdir` per directory and one `lstat` per entry, plus reading each ignore file.
    public static func walk(under root: String, options: Options = Options(), visit: (WalkedFile) -> Void) {
        walk(under: root, options: options, unreadableFolder: { _ in }, visit: visit)
    }

    /// Calls `visit` with each regular file under `root`, as `walk(under:options:visit:)` does, and
    /// `unreadableFolder` with each folder that could not be listed (so that nothing is left out silently).
    ///
    /// - Complexity: one `readdir` per directory and one `lstat` per entry, plus reading each ignore file.
    public static func walk(
        under root: String, options: Options = Options(), unreadableFolder: (String) -> Void, visit: (WalkedFile) -> Void
    ) {
        var info = stat()
        guard stat(root, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) != S_IFDIR {
            let name = root.split(separator: "/").last.map(String.init) ?? root
            visit(WalkedFile(path: root, relativePath: name, size: Int(info.st_size), modificationTime: nanoseconds(info)))
            return
        }
        walk(
            directory: root, relative: "", segments: [], ignores: IgnoreStack(), options: options, unreadable: unreadableFolder,
            visit: visit)
    }

    private static func walk(
        directory: String, relative: String, segments: [[Unicode.Scalar]], ignores: IgnoreStack, options: Options,
        unreadable: (String) -> Void, visit: (WalkedFile) -> Void
    ) {
        guard let handle = opendir(directory) else {
            unreadable(directory)
            return
        }
        // Kept open while the entries are visited: each is looked up relative to it, not by its whole path.
        defer { closedir(handle) }
        let directoryDescriptor = dirfd(handle)
        var entries: [(key: [UInt8], name: String)] = []
        var ignoreFilesPresent: Set<String> = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == ".gitignore" || name == ".ignore" { ignoreFilesPresent.insert(name) }
            if name == "." || name == ".." || name == ".git" { continue }
            if !options.includesHidden, name.hasPrefix(".") { continue }
            entries.append((Array(name.utf8), name))
        }
        // Entries in byte order, each directory walked where its name falls: a stable order without a global sort.
        entries.sort { $0.key.lexicographicallyPrecedes($1.key) }

        var ignores = ignores
        if options.respectsIgnoreFiles {
            // Pushed shallowest-precedence first, so `.ignore` ends up above `.gitignore`.
            for name in [".gitignore", ".ignore"] where ignoreFilesPresent.contains(name) {
                let path = join(directory, name)
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                ignores = ignores.pushing(IgnoreFile(text: String(decoding: data, as: UTF8.self), directory: relative))
            }
        }

        var entrySegments = segments + [[]]
        for (_, name) in entries {
            let path = join(directory, name)
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard directoryDescriptor >= 0 ? fstatat(directoryDescriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 : lstat(path, &info) == 0
            else { continue }
            let type = info.st_mode & S_IFMT
            entrySegments[entrySegments.count - 1] = Array(name.unicodeScalars)
            if type == S_IFDIR {
                if ignores.isIgnored(segments: entrySegments, isDirectory: true) { continue }
                walk(
                    directory: path, relative: relativePath, segments: entrySegments, ignores: ignores, options: options,
                    unreadable: unreadable, visit: visit)
            } else if type == S_IFREG {
                if ignores.isIgnored(segments: entrySegments, isDirectory: false) { continue }
                visit(WalkedFile(
                    path: path, relativePath: relativePath, size: Int(info.st_size), modificationTime: nanoseconds(info)))
            }
        }
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
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
