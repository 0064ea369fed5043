#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Writes framed messages to a file descriptor, one whole message at a time, from any thread.
///
/// A closed pipe (EPIPE) marks the output closed instead of killing the process; the caller
/// checks `isClosed` and shuts down after logging. SIGPIPE must be ignored by the process
/// (the executable does so at start-up).
public final class OutputChannel: Sendable {
    private let fileDescriptor: Int32
    private let state = Mutex(false)  // true once the peer has closed the pipe

    public init(fileDescriptor: Int32) { self.fileDescriptor = fileDescriptor }

    /// `true` once a write failed because the reader went away.
    public var isClosed: Bool { state.withLock { $0 } }

    /// Writes all of `bytes`, retrying short writes and EINTR.
    public func write(_ bytes: [UInt8]) {
        state.withLock { closed in
            guard !closed else { return }
            bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                var written = 0
                while written < buffer.count {
                    let result = Glibc.write(fileDescriptor, base + written, buffer.count - written)
                    if result > 0 {
                        written += result
                    } else if result < 0 && errno == EINTR {
                        continue
                    } else {
                        closed = true
                        return
                    }
                }
            }
        }
    }
}

/// How reading the input stream ended.
public enum InputEnd: Sendable, Equatable {
    /// End of file between messages: a clean end.
    case endOfFile
    /// End of file or a read error in the middle of a message.
    case truncated
}

/// Reads a file descriptor until end of file, handing every framed event to `onEvent` in order.
///
/// Runs on the calling thread (the server gives it a thread of its own, so reading never waits
/// for highlighting).
public func readFramedMessages(fileDescriptor: Int32, maximumBodyLength: Int = MessageFramer.defaultMaximumBodyLength,
                               onEvent: (FramedEvent) -> Void) -> InputEnd {
    var framer = MessageFramer(maximumBodyLength: maximumBodyLength)
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return -1 }
            return Glibc.read(fileDescriptor, base, buffer.count)
        }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { return framer.isInsideMessage ? .truncated : .endOfFile }
        for event in framer.append(chunk[0..<count]) { onEvent(event) }
    }
}
