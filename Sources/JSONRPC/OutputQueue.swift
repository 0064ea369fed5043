#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Threads

// The way out: framed messages wait in a queue and a writer thread of their own writes them,
// so a client that reads slowly (or not at all) never blocks the server's thread.
//
//   server thread ──enqueue──▶ [ response 7 | decorations a.md v12 | response 8 | ... ] ──writer──▶ fd
//                              ▲ a message with a coalescing key replaces the queued one with
//                              │ the same key, in place: only the latest decorations of a
//                              │ document wait, however many versions went by.
//
// Memory stays bounded: coalesced messages take one slot per key, and when other messages
// (responses, logs) exceed `maximumQueuedBytes` the producer waits for the writer, as a
// synchronous write would. Messages without a key are written in the order they were queued.
// A failed write (EPIPE: the client closed its end) marks the queue closed, drops what waits
// and calls `onClose` once; SIGPIPE must be ignored by the process.

/// Writes framed messages to a file descriptor from a writer thread, coalescing superseded ones.
public final class OutputQueue: Sendable {
    private struct Entry {
        var bytes: [UInt8]
        var coalescingKey: String?
    }

    private struct State {
        var entries: [Entry?] = []
        var head = 0
        /// The index in `entries` of the waiting message of each coalescing key.
        var indexByKey: [String: Int] = [:]
        var queuedBytes = 0
        var writing = false
        var closed = false
        var replacedCount = 0
    }

    private let fileDescriptor: Int32
    private let maximumQueuedBytes: Int
    private let onClose: @Sendable () -> Void
    // `condition` guards `state`; every access holds its lock.
    private let condition = Condition()
    private nonisolated(unsafe) var state = State()  // Guarded by `condition` (see above).

    /// Starts the writer thread for `fileDescriptor`.
    ///
    /// - Parameters:
    ///   - maximumQueuedBytes: above this many bytes of messages without a coalescing key,
    ///     `enqueue` waits for the writer.
    ///   - onClose: called once, on the writer thread, when a write fails.
    public init(fileDescriptor: Int32, maximumQueuedBytes: Int = 64 << 20, onClose: @escaping @Sendable () -> Void = {}) {
        self.fileDescriptor = fileDescriptor
        self.maximumQueuedBytes = maximumQueuedBytes
        self.onClose = onClose
        if !startThread({ [self] in writeLoop() }) {
            // No thread to write with: closed from the start, as if the reader had gone.
            state.closed = true
        }
    }

    /// `true` once a write failed because the reader went away.
    public var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return state.closed
    }

    /// How many queued messages were replaced by a newer one with the same key (for tests and logs).
    public var replacedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return state.replacedCount
    }

    /// Queues framed bytes. A message with a `coalescingKey` replaces a queued, unwritten
    /// message with the same key (taking its place in the order); without a key, this waits
    /// while more than `maximumQueuedBytes` are queued.
    public func enqueue(_ bytes: [UInt8], coalescingKey: String? = nil) {
        condition.lock()
        let failedHere = enqueueLocked(bytes, coalescingKey: coalescingKey)
        condition.unlock()
        if failedHere { onClose() }
    }

    /// `enqueue` with the lock held; `true` when a direct write found the reader gone.
    private func enqueueLocked(_ bytes: [UInt8], coalescingKey: String?) -> Bool {
        guard !state.closed else { return false }
        if let key = coalescingKey, let index = state.indexByKey[key], let waiting = state.entries[index] {
            state.queuedBytes += bytes.count - waiting.bytes.count
            state.entries[index] = Entry(bytes: bytes, coalescingKey: key)
            state.replacedCount += 1
            return false
        }
        if coalescingKey == nil {
            while state.queuedBytes > maximumQueuedBytes && !state.closed { condition.wait() }
            guard !state.closed else { return false }
        }
        // Fast path: with nothing waiting and room in the pipe for the whole message, write it
        // here rather than waking the writer thread (the thread hop costs more than the write).
        if state.head == state.entries.count, !state.writing, bytes.count <= Self.directWriteLimit, canWriteWithoutBlocking() {
            guard bytes.withUnsafeBytes({ writeAll($0, to: fileDescriptor) }) == nil else {
                state.closed = true
                condition.broadcast()
                return true
            }
            return false
        }
        if let key = coalescingKey { state.indexByKey[key] = state.entries.count }
        state.entries.append(Entry(bytes: bytes, coalescingKey: coalescingKey))
        state.queuedBytes += bytes.count
        condition.broadcast()
        return false
    }

    /// Messages up to this size may be written by the caller: a pipe that polls writable has room
    /// for at least this much (`PIPE_BUF`), so such a write never blocks.
    static let directWriteLimit = 4096

    /// Whether the descriptor can take a write of `directWriteLimit` bytes now.
    private func canWriteWithoutBlocking() -> Bool {
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
        return poll(&descriptor, 1, 0) == 1 && descriptor.revents & Int16(POLLOUT) != 0
    }

    /// Waits until every queued message is written, the output is closed, or `seconds` (if any) pass.
    /// - Returns: `true` when everything was written.
    @discardableResult
    public func drain(seconds: Double? = nil) -> Bool {
        let deadline = seconds.map(Condition.Deadline.init(secondsFromNow:))
        condition.lock()
        defer { condition.unlock() }
        while (state.head < state.entries.count || state.writing) && !state.closed {
            if let deadline {
                if !condition.wait(until: deadline) { return false }
            } else {
                condition.wait()
            }
        }
        return !state.closed
    }

    /// Stops the writer thread after the message it is writing; what still waits is dropped.
    public func stop() {
        condition.lock()
        state.closed = true
        state.entries.removeAll()
        state.indexByKey.removeAll()
        state.head = 0
        state.queuedBytes = 0
        condition.broadcast()
        condition.unlock()
    }

    private func writeLoop() {
        while true {
            condition.lock()
            while state.head == state.entries.count && !state.closed { condition.wait() }
            if state.closed {
                condition.unlock()
                return
            }
            let index = state.head
            let entry = state.entries[index]
            state.entries[index] = nil
            state.head += 1
            if let key = entry?.coalescingKey, state.indexByKey[key] == index { state.indexByKey[key] = nil }
            if state.head == state.entries.count {
                state.entries.removeAll(keepingCapacity: state.entries.count < 4096)
                state.head = 0
            } else if state.head >= 4096 && state.head * 2 >= state.entries.count {
                compactEntries()
            }
            state.writing = true
            condition.unlock()

            let written = entry.map { entry in entry.bytes.withUnsafeBytes { writeAll($0, to: fileDescriptor) } == nil } ?? true

            condition.lock()
            state.writing = false
            if !state.closed { state.queuedBytes -= entry?.bytes.count ?? 0 }
            if !written && !state.closed {
                state.closed = true
                state.entries.removeAll()
                state.indexByKey.removeAll()
                state.head = 0
                state.queuedBytes = 0
            }
            let closed = state.closed
            condition.broadcast()
            condition.unlock()
            if !written { onClose() }
            if closed { return }
        }
    }

    /// Drops the written prefix of `entries`; called with the lock held.
    private func compactEntries() {
        let shift = state.head
        state.entries.removeSubrange(0..<shift)
        state.head = 0
        state.indexByKey = state.indexByKey.mapValues { $0 - shift }
    }
}
