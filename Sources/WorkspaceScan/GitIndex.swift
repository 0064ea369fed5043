#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HighlightConfig

// The files a git repository tracks, read from its index, so that `check` searches a tracked file
// that an ignore file matches, as git itself does (an ignore file only keeps untracked files out).
// The index is read directly: a scanner of untrusted trees never runs a program, and git would
// read the repository's own configuration (hooks, fsmonitor, aliases) to answer.
//
// The index file (git's Documentation/gitformat-index.txt), all integers big-endian:
//
//     "DIRC"  version (2, 3 or 4)  entry count
//     entry:  40 bytes of stat data, the object hash (20 bytes, or 32 in a SHA-256 repository),
//             16-bit flags (0x4000: 16 more bits of flags follow, version 3 and up), then the path:
//               v2, v3: NUL-terminated, the entry padded with NULs to a multiple of 8 bytes
//               v4:     a varint N, then a NUL-terminated suffix: the previous path less its last
//                       N bytes, plus the suffix (no padding)
//     extensions: 4-byte signature, 32-bit size, data
//     a hash of everything before it
//
// The hash's size is not in the file; it is the one (20, else 32) whose entries and extensions end
// exactly where the trailing hash begins.

/// A repository found above a folder: where its working tree begins and where its index is.
struct GitRepository: Sendable, Hashable {
    /// The working tree's root, absolute and with links resolved.
    var workTree: String
    /// The index file: `.git/index`, or `index` in the folder a `.git` file names (`gitdir: …`, as
    /// for a linked worktree or a submodule).
    var indexPath: String

    /// The repository whose working tree holds the folder at `path` (absolute, links resolved): the
    /// nearest folder at or above it with a `.git` folder or file; nil when there is none, or when
    /// a `.git` file does not name a folder.
    static func containing(_ path: String) -> GitRepository? {
        var folder = path
        while true {
            let dotGit = folder == "/" ? "/.git" : folder + "/.git"
            var info = stat()
            if lstat(dotGit, &info) == 0 {
                // A `.git` link is followed: only the index is read through it.
                guard stat(dotGit, &info) == 0 else { return nil }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: return GitRepository(workTree: folder, indexPath: dotGit + "/index")
                case S_IFREG:
                    return gitDirectory(namedIn: dotGit, folder: folder).map { GitRepository(workTree: folder, indexPath: $0 + "/index") }
                default: return nil
                }
            }
            if folder == "/" { return nil }
            folder = ConfigFile.parentFolder(of: folder)
        }
    }

    /// The folder a `.git` file names on its `gitdir: ` line, relative to the folder holding it.
    private static func gitDirectory(namedIn file: String, folder: String) -> String? {
        guard case .read(let bytes) = ConfigFile.readRegularFile(atPath: file, limit: 64 << 10) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let line = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).first, line.hasPrefix("gitdir: ") else { return nil }
        let named = String(line.dropFirst("gitdir: ".count))
        return ConfigFile.absolutePath(named, currentDirectory: folder)
    }
}

/// Why an index could not be read.
struct GitIndexProblem: Error, Sendable, Hashable {
    /// A phrase for the user ("an index of version 5, which this program does not read").
    var reason: String
}

/// Reading a git index.
enum GitIndex {
    /// The paths the index at `path` tracks, as bytes relative to the working tree's root, in the
    /// index's order (each once, whatever its merge stages); none when there is no index (a
    /// repository where nothing was ever added).
    static func trackedPaths(inIndexAt path: String) -> Result<[[UInt8]], GitIndexProblem> {
        switch ConfigFile.readRegularFile(atPath: path, limit: 1 << 30) {
        case .missing: return .success([])
        case .read(let bytes): return trackedPaths(inIndex: bytes)
        case .tooLarge: return .failure(GitIndexProblem(reason: "it is larger than 1 GiB"))
        case .refused(let message): return .failure(GitIndexProblem(reason: message))
        }
    }

    /// The paths an index file's bytes list (see the format above).
    ///
    /// - Complexity: O(*n*) in the size of the index.
    static func trackedPaths(inIndex bytes: [UInt8]) -> Result<[[UInt8]], GitIndexProblem> {
        guard bytes.count >= 12, bytes.starts(with: Array("DIRC".utf8)) else {
            return .failure(GitIndexProblem(reason: "it is not a git index (no DIRC signature)"))
        }
        let version = bigEndian(bytes, at: 4, count: 4)
        guard (2...4).contains(version) else {
            return .failure(GitIndexProblem(reason: "it is an index of version \(version); versions 2, 3 and 4 are read"))
        }
        var lastProblem = GitIndexProblem(reason: "its entries do not end where its checksum begins")
        for hashBytes in [20, 32] {
            switch entries(of: bytes, version: version, count: bigEndian(bytes, at: 8, count: 4), hashBytes: hashBytes) {
            case .success(let paths): return .success(paths)
            case .failure(let problem): lastProblem = problem
            }
        }
        return .failure(lastProblem)
    }

    /// The entries' paths read with hashes of `hashBytes` bytes; a failure when they do not fit the file exactly.
    private static func entries(of bytes: [UInt8], version: Int, count: Int, hashBytes: Int) -> Result<[[UInt8]], GitIndexProblem> {
        let malformed = GitIndexProblem(reason: "its entries do not end where its checksum begins")
        var paths: [[UInt8]] = []
        paths.reserveCapacity(min(count, bytes.count / 62))
        var previous: [UInt8] = []
        var offset = 12
        for _ in 0..<count {
            let start = offset
            // Stat data, the hash and the flags.
            offset += 40 + hashBytes
            guard offset + 2 <= bytes.count else { return .failure(malformed) }
            let flags = bigEndian(bytes, at: offset, count: 2)
            offset += 2
            if version >= 3, flags & 0x4000 != 0 { offset += 2 }
            guard offset <= bytes.count else { return .failure(malformed) }
            var path: [UInt8]
            if version == 4 {
                guard let (strip, afterNumber) = varint(bytes, at: offset), strip <= previous.count else { return .failure(malformed) }
                guard let end = bytes[afterNumber...].firstIndex(of: 0) else { return .failure(malformed) }
                path = Array(previous.dropLast(strip)) + bytes[afterNumber..<end]
                offset = end + 1
            } else {
                guard let end = bytes[offset...].firstIndex(of: 0) else { return .failure(malformed) }
                path = Array(bytes[offset..<end])
                // NULs pad the entry (its terminating one included) to a multiple of eight bytes.
                offset = start + ((end - start) / 8 + 1) * 8
                guard offset <= bytes.count, bytes[end..<offset].allSatisfy({ $0 == 0 }) else { return .failure(malformed) }
            }
            previous = path
            // A conflicted path has an entry per stage, one after another; a sparse index's folder entry ends in `/`.
            if path.last == UInt8(ascii: "/") { path.removeLast() }
            if paths.last != path { paths.append(path) }
        }
        // Extensions, each skipped whole, up to the trailing hash.
        while bytes.count - offset > hashBytes {
            guard bytes.count - offset >= 8 + hashBytes else { return .failure(malformed) }
            if bytes[offset..<(offset + 4)].elementsEqual("link".utf8) {
                // The entries are then split with a shared index file, which is not read here.
                return .failure(GitIndexProblem(reason: "it is a split index (core.splitIndex), which this program does not read"))
            }
            offset += 8 + bigEndian(bytes, at: offset + 4, count: 4)
        }
        guard bytes.count - offset == hashBytes else { return .failure(malformed) }
        return .success(paths)
    }

    /// The unsigned big-endian integer of `count` bytes at `offset` (which the caller has checked are there).
    private static func bigEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Git's varint (varint.c): seven bits a byte, high bit set on all but the last, each continuation adding one
    /// before the shift so that every number has one spelling; the number and the offset after it.
    private static func varint(_ bytes: [UInt8], at start: Int) -> (Int, Int)? {
        var offset = start
        guard offset < bytes.count else { return nil }
        var byte = bytes[offset]
        offset += 1
        var value = Int(byte & 0x7F)
        while byte & 0x80 != 0 {
            guard offset < bytes.count, value < Int.max >> 8 else { return nil }
            byte = bytes[offset]
            offset += 1
            value = ((value + 1) << 7) | Int(byte & 0x7F)
        }
        return (value, offset)
    }
}

/// The files a repository tracks below a walk's root, as the walk spells paths (relative to the root,
/// each segment shown as `FileSystemPath.displayed` shows it), and the folders that hold them.
struct TrackedFiles: Sendable {
    private var files: Set<String> = []
    private var folders: Set<String> = []

    /// The tracked paths (relative to the working tree) below `prefix` (the root's path relative to the
    /// working tree, "" for the root itself), made relative to the root.
    init(paths: [[UInt8]], below prefix: [UInt8]) {
        let slash = UInt8(ascii: "/")
        for path in paths {
            var relative = path[...]
            if !prefix.isEmpty {
                guard path.count > prefix.count, path.starts(with: prefix), path[prefix.count] == slash else { continue }
                relative = path[(prefix.count + 1)...]
            }
            let segments = relative.split(separator: slash, omittingEmptySubsequences: false).map { FileSystemPath.displayed($0) }
            files.insert(segments.joined(separator: "/"))
            for end in segments.indices.dropLast() { folders.insert(segments[...end].joined(separator: "/")) }
        }
    }

    /// Whether the file at `relativePath` (as the walk spells it) is tracked.
    func tracks(file relativePath: String) -> Bool { files.contains(relativePath) }

    /// Whether the folder at `relativePath` holds a tracked file at any depth (or is itself tracked, as a submodule is).
    func holdsTrackedFiles(folder relativePath: String) -> Bool { folders.contains(relativePath) || files.contains(relativePath) }

    /// The files git tracks below `root` (a folder), when a repository holds it; nil when none does. A repository
    /// whose index cannot be read gives nil and a problem.
    static func below(_ root: String) -> Result<TrackedFiles, GitIndexProblem>? {
        guard let resolved = realpath(root, nil) else { return nil }
        let absolute = String(cString: resolved)
        free(resolved)
        guard let repository = GitRepository.containing(absolute),
              let prefix = ConfigFile.relativePath(of: absolute, inFolder: repository.workTree)
        else { return nil }
        return GitIndex.trackedPaths(inIndexAt: repository.indexPath).map { TrackedFiles(paths: $0, below: Array(prefix.utf8)) }
            .mapError { GitIndexProblem(reason: "cannot read the git index \(repository.indexPath): \($0.reason)") }
    }
}
