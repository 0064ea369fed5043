#if canImport(Glibc)
import Glibc
#endif
import Foundation
import JSONRPC
import Testing

/// The output queue over a real pipe: order, coalescing while the reader is slow, a closed reader.
@Suite struct OutputQueueTests {
    /// A pipe whose read end the test holds; the queue writes to the write end.
    private struct TestPipe {
        let readEnd: Int32
        let writeEnd: Int32
        init() throws {
            var descriptors: [Int32] = [0, 0]
            try #require(pipe(&descriptors) == 0)
            readEnd = descriptors[0]
            writeEnd = descriptors[1]
        }

        /// Reads until `count` bodies have arrived.
        func readBodies(_ count: Int) -> [String] {
            var framer = MessageFramer()
            var bodies: [String] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while bodies.count < count {
                let read = chunk.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else { break }
                for case .body(let body) in framer.append(chunk[0..<read]) {
                    bodies.append(String(decoding: body, as: UTF8.self))
                }
            }
            return bodies
        }
    }

    @Test func messagesAreWrittenInOrder() throws {
        let pipe = try TestPipe()
        let queue = OutputQueue(fileDescriptor: pipe.writeEnd)
        for index in 0..<500 { queue.enqueue(framed(Array("m\(index)".utf8))) }
        #expect(pipe.readBodies(500) == (0..<500).map { "m\($0)" })
        queue.stop()
        close(pipe.readEnd)
        close(pipe.writeEnd)
    }

    /// While the reader does not read, newer messages with a key replace older ones in place;
    /// messages without a key all stay, in order.
    @Test func aSlowReaderGetsOnlyTheLatestMessageOfEachKey() throws {
        let pipe = try TestPipe()
        let queue = OutputQueue(fileDescriptor: pipe.writeEnd)
        // One message larger than the pipe's buffer: the writer blocks on it until the test reads.
        let blocker = String(repeating: "x", count: 1 << 20)
        queue.enqueue(framed(Array(blocker.utf8)))
        for version in 1...200 {
            queue.enqueue(framed(Array("a v\(version)".utf8)), coalescingKey: "a")
            if version == 1 { queue.enqueue(framed(Array("response 1".utf8))) }
            queue.enqueue(framed(Array("b v\(version)".utf8)), coalescingKey: "b")
        }
        queue.enqueue(framed(Array("response 2".utf8)))
        let bodies = pipe.readBodies(5)
        #expect(bodies.count == 5)
        #expect(Array(bodies.dropFirst()) == ["a v200", "response 1", "b v200", "response 2"])
        #expect(queue.replacedCount == 398)
        // After the queue emptied, a key starts afresh.
        queue.enqueue(framed(Array("a v201".utf8)), coalescingKey: "a")
        #expect(pipe.readBodies(1) == ["a v201"])
        queue.stop()
        close(pipe.readEnd)
        close(pipe.writeEnd)
    }

    @Test func aClosedReaderClosesTheQueueAndCallsBack() throws {
        signal(SIGPIPE, SIG_IGN)
        let pipe = try TestPipe()
        close(pipe.readEnd)
        let closed = ClosedFlag()
        let queue = OutputQueue(fileDescriptor: pipe.writeEnd) { closed.set() }
        queue.enqueue(framed(Array("lost".utf8)))
        #expect(queue.drain() == false)
        #expect(queue.isClosed)
        closed.wait()
        queue.enqueue(framed(Array("ignored".utf8)))  // Does not block or trap.
        close(pipe.writeEnd)
    }

    @Test func drainGivesUpAtItsDeadlineWhenNobodyReads() throws {
        let pipe = try TestPipe()
        let queue = OutputQueue(fileDescriptor: pipe.writeEnd)
        // More than a pipe holds (64 KiB on Linux), and nobody reads: the writer blocks in `write`.
        queue.enqueue(framed([UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)))
        let start = ContinuousClock.now
        #expect(queue.drain(seconds: 0.2) == false)
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(150) && waited < .seconds(5))
        #expect(!queue.isClosed)
        // Reading it all lets the writer finish, and then the queue drains.
        var drained = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while drained < 1 << 20 {
            let count = chunk.withUnsafeMutableBytes { read(pipe.readEnd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            drained += count
        }
        #expect(queue.drain(seconds: 5))
        queue.stop()
        close(pipe.readEnd)
        close(pipe.writeEnd)
    }

    @Test func drainWaitsForTheWriter() throws {
        let pipe = try TestPipe()
        let queue = OutputQueue(fileDescriptor: pipe.writeEnd)
        for index in 0..<10 { queue.enqueue(framed(Array("m\(index)".utf8))) }
        #expect(queue.drain())
        // Everything is in the pipe already: reading cannot block.
        #expect(pipe.readBodies(10).count == 10)
        queue.stop()
        close(pipe.readEnd)
        close(pipe.writeEnd)
    }
}

/// A one-shot flag the writer thread sets and the test waits for.
private final class ClosedFlag: Sendable {
    private let condition = NSCondition()
    private nonisolated(unsafe) var isSet = false  // Guarded by `condition`.

    func set() {
        condition.lock()
        isSet = true
        condition.broadcast()
        condition.unlock()
    }

    func wait() {
        condition.lock()
        while !isSet { condition.wait() }
        condition.unlock()
    }
}
