#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Reading files for a scan without an allocation per file. Each worker owns
// one buffer and reads every file it scans into it with `open`/`read`; the
// buffer grows (to the largest file seen so far) and is never shrunk or
// zeroed, so after the first few files a read is one `open`, one `fstat`,
// usually one `read` and a `close`, and touches no fresh pages.
//
// When the caller allows it (the command line does, the server does not), a
// file of a megabyte or more is mapped instead (`mmap`): its pages come
// straight from the page cache, with no copy through the buffer, which for a
// tree of large files was a quarter of a `list` run. They are mapped as the
// cores that search the file first touch them, not all at once beforehand
// (`MAP_POPULATE` did that on one core while the others waited). A
// mapped file that another process truncates while it is searched kills the
// process with SIGBUS, which a one-shot command may risk (as grep tools do)
// and a long-running server may not.
//
// A large file whose rules allow it may be streamed instead (`read(_:limit:
// mapsLargeFiles:binaryCheckBytes:streamingFrom:lines:)`): read a window
// (256 KiB) at a time into the same buffer and handed over in chunks of whole
// lines, each checked, searched and located while the core's cache still
// holds it. Mapped, a file's bytes come from memory once per pass (the UTF-8
// check, the search, the line walk); streamed, from memory once, in the copy.
// A walk streams while other files keep every core busy (see `WorkspaceScanner`).

/// A growable byte buffer that one worker reuses for every file it reads.
///
/// Not `Sendable`: a buffer belongs to the worker that made it.
final class FileReadBuffer {
    /// The storage; only the first `count` bytes of the last read are meaningful.
    private var storage: UnsafeMutableBufferPointer<UInt8>
    /// The last file read, when it was mapped rather than copied into `storage`.
    private var mapped: UnsafeMutableRawBufferPointer?

    /// Files at least this large are mapped when the reader allows it.
    static let mappingThreshold = 1 << 20

    /// The bytes a streamed read takes from the file at a time (see `stream`).
    let streamingWindow: Int

    /// Creates a buffer of `capacity` bytes (at least one) that streams `streamingWindow` bytes at a time (at least
    /// one; the default: small enough that a chunk is still in the core's cache when it is searched and located,
    /// large enough that the calls per chunk do not count).
    init(capacity: Int = 256 << 10, streamingWindow: Int = 256 << 10) {
        storage = .allocate(capacity: max(1, capacity))
        self.streamingWindow = max(1, streamingWindow)
    }

    deinit {
        unmap()
        storage.deallocate()
    }

    /// Releases the mapping of the last file, if it was mapped.
    private func unmap() {
        if let mapped, let base = mapped.baseAddress { munmap(base, mapped.count) }
        mapped = nil
    }

    /// The bytes the buffer can hold without growing.
    var capacity: Int { storage.count }

    /// The size of the last file read, as the open file gave it (0 when it could not say).
    private(set) var lastFileSize = 0

    /// Reads the file at `path` into the buffer and returns how many bytes it holds, or why not.
    func read(_ path: String, limit: Int, mapsLargeFiles: Bool = false, binaryCheckBytes: Int = 0) -> Result<Int, ScannedFile.Skipped> {
        read(
            WalkedFile(path: path, relativePath: path, size: 0, modificationTime: 0), limit: limit, mapsLargeFiles: mapsLargeFiles,
            binaryCheckBytes: binaryCheckBytes)
    }

    /// How a read handed the file over.
    enum Contents: Equatable {
        /// Whole, in the buffer (or mapped): `withBytes(count:)` shows this many bytes.
        case whole(Int)
        /// In chunks of whole lines, each handed to the reader's `lines` as it was read.
        case streamed
    }

    /// What a reader of chunks wants after one.
    enum NextChunk {
        /// The next chunk, if the file goes on.
        case more
        /// No more: the rest of the file is left unread.
        case stop
        /// The whole file instead, in the buffer: the chunks handed over so far do not count.
        case whole
    }

    /// Reads `file` (by its path on disk) into the buffer and returns how many bytes it holds, or why not.
    ///
    /// The file is opened with `O_NONBLOCK` and the open descriptor checked with `fstat`: a FIFO or
    /// device put in a regular file's place since the walk is refused, never waited on. The size is
    /// taken from `fstat` on the open file; a file that shrinks while it is read is read as far as
    /// it went, and bytes appended after the `fstat` are left out. A read error fails the file.
    /// With `binaryCheckBytes` above zero, the file's first bytes are read (that many, or all of a
    /// smaller file) and a NUL byte among them gives `.binary` before the rest is read, so that a
    /// binary file costs one small read whatever its size; unless they begin with a UTF-16 or UTF-32
    /// byte order mark (`ByteOrderMark`), when the file is text, read whole and never streamed.
    /// With `mapsLargeFiles`, a file of `mappingThreshold` bytes or more is mapped rather than copied
    /// (see above for the risk); the mapping lasts until the next read.
    func read(_ file: WalkedFile, limit: Int, mapsLargeFiles: Bool = false, binaryCheckBytes: Int = 0) -> Result<Int, ScannedFile.Skipped> {
        let contents = read(
            file, limit: limit, mapsLargeFiles: mapsLargeFiles, binaryCheckBytes: binaryCheckBytes, streamingFrom: Int.max
        ) { _, _ in .whole }
        // Never streamed: `streamingFrom` is beyond any file.
        return contents.map { if case .whole(let count) = $0 { count } else { 0 } }
    }

    /// Reads `file` as `read(_:limit:mapsLargeFiles:binaryCheckBytes:)` does, except that a file of `streamingFrom`
    /// bytes or more (and not binary) is read in chunks of whole lines that reuse the buffer, so that the bytes are
    /// searched while the cache still holds them, and each chunk is handed to `lines` as it is read (see `stream`).
    func read(
        _ file: WalkedFile, limit: Int, mapsLargeFiles: Bool = false, binaryCheckBytes: Int = 0, streamingFrom: Int,
        lines: (_ text: UnsafeBufferPointer<UInt8>, _ chunk: Range<Int>) -> NextChunk
    ) -> Result<Contents, ScannedFile.Skipped> {
        unmap()
        lastFileSize = 0
        let (descriptor, openError) = file.withFileSystemPath { path in
            let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            return (descriptor, errno)
        }
        guard descriptor >= 0 else { return unreadable(FileSystemPath.describeError(openError)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return unreadable(FileSystemPath.describeError(errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return unreadable("not a regular file") }
        guard let size = Int(exactly: info.st_size), size >= 0 else { return unreadable("its size is out of range") }
        lastFileSize = size
        guard size <= limit else { return .failure(.tooLarge) }
        let head = min(size, max(binaryCheckBytes, 0))
        // Only the first bytes until the file is known not to be binary.
        reserve(head)
        guard let base = storage.baseAddress else { return unreadable("out of memory") }
        var filled: Int
        switch fill(descriptor, base, from: 0, to: head) {
        case .success(let count): filled = count
        case .failure(let error): return unreadable(error.reason)
        }
        // A byte order mark of UTF-16 or UTF-32 says the NULs are text: the file is read whole, to be transcoded.
        let marked = ByteOrderMark.of(UnsafeBufferPointer(start: base, count: filled)) != nil
        if head > 0, !marked, memchr(base, 0, filled) != nil { return .failure(.binary) }
        guard filled == head else { return .success(.whole(filled)) }
        if size >= streamingFrom, !marked {
            switch stream(descriptor, size: size, filled: filled, lines) {
            case .success(true): return .success(.streamed)
            case .success(false):
                // The whole file after all, from its start again.
                guard lseek(descriptor, 0, SEEK_SET) == 0 else { return unreadable(FileSystemPath.describeError(errno)) }
                filled = 0
            case .failure(let error): return unreadable(error.reason)
            }
        } else if mapsLargeFiles, size >= Self.mappingThreshold,
           let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0),
           address != UnsafeMutableRawPointer(bitPattern: -1) {
            mapped = UnsafeMutableRawBufferPointer(start: address, count: size)
            return .success(.whole(size))
        }
        reserve(size, keeping: filled)
        guard let whole = storage.baseAddress else { return unreadable("out of memory") }
        switch fill(descriptor, whole, from: filled, to: size) {
        case .success(let count): filled = count
        case .failure(let error): return unreadable(error.reason)
        }
        return .success(.whole(filled))
    }

    /// Reads the rest of the open file of `size` bytes, whose first `filled` bytes the buffer holds, in chunks of
    /// whole lines, and hands each to `lines` until it says `.stop` or the file ends (true), or `.whole` (false).
    ///
    /// `lines` gets `text` and the chunk's range in it: the chunk ends after a line feed (the last chunk may not), and
    /// `text` holds the line feed before the chunk (except for the first) and the bytes read after it, so that
    /// anything that looks at a chunk's neighbours (`^`, `\b`) sees what the whole file would show. A line longer
    /// than the window grows the buffer until it fits.
    ///
    /// - Complexity: O(size): each byte is read once, and moved once at most (the part of a line left at a window's end).
    private func stream(
        _ descriptor: Int32, size: Int, filled initial: Int,
        _ lines: (_ text: UnsafeBufferPointer<UInt8>, _ chunk: Range<Int>) -> NextChunk
    ) -> Result<Bool, FillFailure> {
        var filled = initial
        var chunkStart = 0
        var unread = size - initial
        var window = streamingWindow
        while true {
            reserve(window, keeping: filled)
            guard let base = storage.baseAddress else { return .failure(FillFailure(reason: "out of memory")) }
            let wanted = min(window - filled, unread)
            let count: Int
            switch fill(descriptor, base, from: filled, to: filled + wanted) {
            case .success(let end): count = end - filled
            case .failure(let error): return .failure(error)
            }
            filled += count
            unread -= count
            let atEnd = unread == 0 || count < wanted
            var chunkEnd = filled
            if !atEnd {
                // The last line feed, looked for from the end: a line's length back, usually.
                while chunkEnd > chunkStart, base[chunkEnd - 1] != 0x0A { chunkEnd -= 1 }
                if chunkEnd == chunkStart {
                    // No line ends in the window: a larger one.
                    window *= 2
                    continue
                }
            }
            if chunkEnd > chunkStart {
                switch lines(UnsafeBufferPointer(start: base, count: filled), chunkStart..<chunkEnd) {
                case .more: break
                case .stop: return .success(true)
                case .whole: return .success(false)
                }
            }
            if atEnd { return .success(true) }
            // The line feed that ends the chunk stays, before the next chunk.
            let kept = filled - (chunkEnd - 1)
            memmove(base, base + chunkEnd - 1, kept)
            filled = kept
            chunkStart = 1
        }
    }

    /// Reads from `descriptor` into `base[start..<end]` until it is full or the file ends; returns
    /// where it stopped, or the failure of a read error.
    private func fill(
        _ descriptor: Int32, _ base: UnsafeMutablePointer<UInt8>, from start: Int, to end: Int
    ) -> Result<Int, FillFailure> {
        var filled = start
        while filled < end {
            #if canImport(Glibc)
            let count = Glibc.read(descriptor, base + filled, end - filled)
            #else
            let count = Darwin.read(descriptor, base + filled, end - filled)
            #endif
            if count > 0 {
                filled += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                return .failure(FillFailure(reason: FileSystemPath.describeError(errno)))
            }
        }
        return .success(filled)
    }

    /// A read error, and why ("permission denied").
    private struct FillFailure: Error {
        var reason: String
    }

    private func unreadable<Read>(_ reason: String) -> Result<Read, ScannedFile.Skipped> {
        .failure(.unreadable(reason: reason))
    }

    /// Calls `body` with the first `count` bytes (clamped to the capacity).
    func withBytes<Result>(count: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let mapped {
            let bytes = UnsafeRawBufferPointer(mapped).bindMemory(to: UInt8.self)
            return try body(UnsafeBufferPointer(rebasing: bytes[0..<min(max(0, count), bytes.count)]))
        }
        return try body(UnsafeBufferPointer(rebasing: storage[0..<min(max(0, count), storage.count)]))
    }

    /// Grows the storage to hold at least `count` bytes, keeping its first `kept` bytes.
    private func reserve(_ count: Int, keeping kept: Int = 0) {
        guard count > storage.count else { return }
        // Doubling keeps the number of regrowths logarithmic in the largest file.
        let doubled = storage.count.multipliedReportingOverflow(by: 2)
        let grown = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(count, doubled.overflow ? count : doubled.partialValue))
        let copied = min(max(kept, 0), storage.count)
        if copied > 0, let from = storage.baseAddress, let to = grown.baseAddress { to.update(from: from, count: copied) }
        storage.deallocate()
        storage = grown
    }
}
