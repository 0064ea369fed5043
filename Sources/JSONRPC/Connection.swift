#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        // The rest of a large body is read straight into it: one copy, with no buffer to grow.
        if let (length, buffered) = framer.partialBody, length - buffered > chunk.count {
            var complete = true
            // A large body gets room up to a huge page past its end, so that its last bytes share their 2 MiB with
            // no page touched before (the allocator's mark after the block) and take a huge page too.
            let capacity = length >= hugePageBytes ? length + hugePageBytes : length
            let body = [UInt8](unsafeUninitializedCapacity: capacity) { body, count in
                adviseHugePages(UnsafeMutableRawBufferPointer(body))
                count = framer.takeBody(into: body)
                while count < length {
                    let read = Glibc.read(fileDescriptor, body.baseAddress! + count, length - count)
                    if read < 0 && errno == EINTR { continue }
                    guard read > 0 else {
                        complete = false
                        return
                    }
                    count += read
                }
            }
            guard complete else { return .truncated }
            onEvent(.body(body))
            continue
        }
        let count = chunk.withUnsafeMutableBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return -1 }
            return Glibc.read(fileDescriptor, base, buffer.count)
        }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { return framer.isInsideMessage ? .truncated : .endOfFile }
        for event in framer.append(chunk[0..<count]) { onEvent(event) }
    }
}

/// The size of a huge page on x86-64 and arm64 Linux.
let hugePageBytes = 2 << 20

/// Asks the kernel to back the untouched `buffer` with huge pages where it can: the pages a large
/// body is read into are otherwise faulted in one by one, which costs a large `didOpen` more than
/// reading it through the pipe. Linux only; elsewhere, or where the kernel declines, nothing changes.
func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
    #if os(Linux)
    guard buffer.count >= hugePageBytes, let base = buffer.baseAddress else { return }
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let start = (Int(bitPattern: base) + page - 1) & -page
    let end = (Int(bitPattern: base) + buffer.count) & -page
    _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE)
    #endif
}

/// Writes all of `bytes` to `descriptor`, retrying short writes and EINTR; nil, or the `errno` of the write that
/// failed (0 when a write took nothing). A closed pipe or a full disk ends it: the rest could not be written either.
@discardableResult
public func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
    guard let base = bytes.baseAddress else { return nil }
    var written = 0
    while written < bytes.count {
        let count = write(descriptor, base + written, bytes.count - written)
        if count > 0 {
            written += count
        } else if count < 0 && errno == EINTR {
            continue
        } else {
            return count < 0 ? errno : 0
        }
    }
    return nil
}
