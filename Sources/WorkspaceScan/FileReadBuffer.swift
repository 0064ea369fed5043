import Foundation

// Reading files for a scan without an allocation per file. Each worker owns
// one buffer and reads every file it scans into it with `open`/`read`; the
// buffer grows (to the largest file seen so far) and is never shrunk or
// zeroed, so after the first few files a read is one `open`, one `fstat`,
// usually one `read` and a `close`, and touches no fresh pages.
//
// When the caller allows it (the command line does, the server does not), a
// file of a megabyte or more is mapped instead (`mmap` with `MAP_POPULATE`):
// its pages come straight from the page cache, with no copy through the
// buffer, which for a tree of large files was a quarter of a `list` run. A
// mapped file that another process truncates while it is searched kills the
// process with SIGBUS, which a one-shot command may risk (as grep tools do)
// and a long-running server may not.

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

    /// Creates a buffer of `capacity` bytes (at least one).
    init(capacity: Int = 256 << 10) {
        storage = .allocate(capacity: max(1, capacity))
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

    /// Reads the file at `path` into the buffer and returns how many bytes it holds, or why not.
    ///
    /// The size is taken from `fstat` on the open file; a file that shrinks while it is read is
    /// read as far as it went, and bytes appended after the `fstat` are left out.
    /// With `binaryCheckBytes` above zero, the file's first bytes are read (that many, or all of a
    /// smaller file) and a NUL byte among them gives `.binary` before the rest is read, so that a
    /// binary file costs one small read whatever its size.
    /// With `mapsLargeFiles`, a file of `mappingThreshold` bytes or more is mapped rather than copied
    /// (see above for the risk); the mapping lasts until the next read.
    func read(_ path: String, limit: Int, mapsLargeFiles: Bool = false, binaryCheckBytes: Int = 0) -> Result<Int, ScannedFile.Skipped> {
        unmap()
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.unreadable) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.unreadable) }
        guard let size = Int(exactly: info.st_size), size >= 0 else { return .failure(.unreadable) }
        guard size <= limit else { return .failure(.tooLarge) }
        let mapping = mapsLargeFiles && size >= Self.mappingThreshold
        let head = min(size, max(binaryCheckBytes, 0))
        // Only the first bytes until the file is known not to be binary.
        reserve(head)
        guard let base = storage.baseAddress else { return .failure(.unreadable) }
        var filled = fill(descriptor, base, from: 0, to: head)
        if head > 0, memchr(base, 0, filled) != nil { return .failure(.binary) }
        guard filled == head else { return .success(filled) }
        if mapping, let address = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, 0),
           address != UnsafeMutableRawPointer(bitPattern: -1) {
            mapped = UnsafeMutableRawBufferPointer(start: address, count: size)
            return .success(size)
        }
        reserve(size, keeping: filled)
        guard let whole = storage.baseAddress else { return .failure(.unreadable) }
        filled = fill(descriptor, whole, from: filled, to: size)
        return .success(filled)
    }

    /// Reads from `descriptor` into `base[from..<to]` until it is full or the file ends; returns where it stopped.
    private func fill(_ descriptor: Int32, _ base: UnsafeMutablePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var filled = start
        while filled < end {
            let count = Foundation.read(descriptor, base + filled, end - filled)
            if count > 0 {
                filled += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return filled
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
