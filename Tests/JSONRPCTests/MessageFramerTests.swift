#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import JSONRPC
import Testing

@Suite struct MessageFramerTests {
    /// Feeds `chunks` one after the other and returns every event, bodies as strings.
    private func events(_ chunks: [String], maximumBodyLength: Int = MessageFramer.defaultMaximumBodyLength) -> [String] {
        var framer = MessageFramer(maximumBodyLength: maximumBodyLength)
        return chunks.flatMap { framer.append(Array($0.utf8)) }.map { event in
            switch event {
            case .body(let bytes): return String(decoding: bytes, as: UTF8.self)
            case .error(let problem): return "error: " + problem.message
            }
        }
    }

    @Test func oneMessage() {
        #expect(events(["Content-Length: 2\r\n\r\n{}"]) == ["{}"])
    }

    @Test func headersInAnyOrderAndCase() {
        #expect(events(["content-type: application/vscode-jsonrpc; charset=utf8\r\nCONTENT-length:   3 \r\n\r\nabc"]) == ["abc"])
    }

    @Test func manyMessagesInOneRead() {
        #expect(events(["Content-Length: 1\r\n\r\naContent-Length: 1\r\n\r\nb\r\nContent-Length: 1\r\n\r\nc"]) == ["a", "b", "c"])
    }

    @Test func messageSplitAtEveryByte() {
        let stream = "Content-Length: 5\r\n\r\nhelloContent-Length: 2\r\n\r\nhi"
        #expect(events(stream.map { String($0) }) == ["hello", "hi"])
    }

    @Test(arguments: ["abc", "-1", "99999999999999999999", "", "1 2"])
    func malformedContentLengthIsSkippedAndTheStreamResynchronises(value: String) {
        let result = events(["Content-Length: \(value)\r\n\r\n{}Content-Length: 2\r\n\r\nok"])
        #expect(result.count == 2)
        #expect(result.first?.hasPrefix("error: invalid Content-Length") == true)
        #expect(result.last == "ok")
    }

    /// A repeated header with the same value is one header; different values leave the body's end
    /// unknown, so that message is an error and the stream resynchronises at the next header.
    @Test func repeatedContentLength() {
        let same = events(["Content-Length: 2\r\ncontent-length:  2\r\n\r\n{}Content-Length: 2\r\n\r\nok"])
        #expect(same == ["{}", "ok"])
        let conflicting = events(["Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}Content-Length: 2\r\n\r\nok"])
        #expect(conflicting == ["error: conflicting Content-Length headers (2 and 3)", "ok"])
    }

    @Test func missingContentLength() {
        let result = events(["Content-Type: x\r\n\r\n{\"a\":1}\nContent-Length: 2\r\n\r\nok"])
        #expect(result == ["error: message without Content-Length header", "ok"])
    }

    @Test func otherCharsetIsRefusedAndItsBodySkipped() {
        let result = events(["Content-Length: 2\r\nContent-Type: application/json; charset=latin1\r\n\r\n{}Content-Length: 2\r\n\r\nok"])
        #expect(result.count == 2)
        #expect(result.first?.contains("unsupported charset") == true)
        #expect(result.last == "ok")
    }

    @Test func bodyOverTheMaximumIsSkippedWithoutBuffering() {
        var framer = MessageFramer(maximumBodyLength: 10)
        let first = framer.append(Array("Content-Length: 100\r\n\r\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 60))
        #expect(first.count == 1)
        let rest = framer.append(Array(repeating: UInt8(ascii: "x"), count: 40) + Array("Content-Length: 2\r\n\r\nok".utf8))
        #expect(rest == [.body(Array("ok".utf8))])
    }

    @Test func insideMessage() {
        var framer = MessageFramer()
        #expect(!framer.isInsideMessage)
        _ = framer.append(Array("Content-Length: 5\r\n\r\nab".utf8))
        #expect(framer.isInsideMessage)
        _ = framer.append(Array("cde".utf8))
        #expect(!framer.isInsideMessage)
    }

    @Test func partialBodyIsTakenWithItsBufferedBytes() {
        var framer = MessageFramer()
        _ = framer.append(Array("Content-Length: 6\r\n\r\nabc".utf8))
        #expect(framer.partialBody?.length == 6 && framer.partialBody?.buffered == 3)
        var body = [UInt8](repeating: 0, count: 6)
        let moved = body.withUnsafeMutableBufferPointer { framer.takeBody(into: $0) }
        #expect(moved == 3 && Array(body[0..<3]) == Array("abc".utf8))
        #expect(framer.partialBody == nil && !framer.isInsideMessage)
        // What follows the body is framed as usual.
        #expect(framer.append(Array("Content-Length: 2\r\n\r\nok".utf8)) == [.body(Array("ok".utf8))])
    }

    /// Large bodies are read straight into place: through a pipe, in pieces of every size, the
    /// bodies come out whole and the messages after them untouched; a cut-off body ends the input
    /// as truncated.
    @Test(arguments: [false, true])
    func largeBodiesReadThroughAPipe(cutOff: Bool) throws {
        let large = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        var stream = framed(large) + framed(Array("{}".utf8)) + framed(large.reversed()) + framed(Array("[]".utf8))
        if cutOff { stream = Array(stream[0..<(stream.count - 100_004)]) }
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        // The writer goes in pieces of growing odd sizes, so reads end anywhere in the bodies.
        let writer = DispatchGroup()
        let writeEnd = descriptors[1]
        DispatchQueue.global().async(group: writer) { [stream] in
            var written = 0
            var piece = 1
            stream.withUnsafeBytes { bytes in
                while written < bytes.count {
                    let result = write(writeEnd, bytes.baseAddress! + written, min(piece, bytes.count - written))
                    if result <= 0 { break }
                    written += result
                    piece = piece * 3 + 1
                }
            }
            close(writeEnd)
        }
        var bodies: [[UInt8]] = []
        let end = readFramedMessages(fileDescriptor: descriptors[0]) { event in
            if case .body(let body) = event { bodies.append(body) }
        }
        writer.wait()
        close(descriptors[0])
        if cutOff {
            #expect(end == .truncated)
            #expect(bodies == [large, Array("{}".utf8)])
        } else {
            #expect(end == .endOfFile)
            #expect(bodies == [large, Array("{}".utf8), large.reversed(), Array("[]".utf8)])
        }
    }

    /// A large body is read into memory advised for huge pages: the mapping that holds the middle of
    /// an 8 MiB body carries the kernel's `hg` flag (`/proc/self/smaps`), whether or not the kernel
    /// then finds a free huge page.
    @Test func largeBodiesAreAdvisedForHugePages() throws {
        #if os(Linux)
        let large = [UInt8](repeating: UInt8(ascii: "x"), count: 8 << 20)
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        let writer = DispatchGroup()
        let writeEnd = descriptors[1]
        DispatchQueue.global().async(group: writer) {
            let stream = framed(large)
            var written = 0
            stream.withUnsafeBytes { bytes in
                while written < bytes.count {
                    let result = write(writeEnd, bytes.baseAddress! + written, bytes.count - written)
                    if result <= 0 { break }
                    written += result
                }
            }
            close(writeEnd)
        }
        var flags: [Substring]?
        _ = readFramedMessages(fileDescriptor: descriptors[0]) { event in
            guard case .body(let body) = event else { return }
            let middle = body.withUnsafeBytes { UInt(bitPattern: $0.baseAddress! + $0.count / 2) }
            flags = mappingFlags(containing: middle)
        }
        writer.wait()
        close(descriptors[0])
        let found = try #require(flags, "no mapping in /proc/self/smaps holds the body")
        #expect(found.contains("hg"), "VmFlags: \(found.joined(separator: " "))")
        #endif
    }

    @Test func framingAddsTheHeader() {
        #expect(framed(Array("{}".utf8)) == Array("Content-Length: 2\r\n\r\n{}".utf8))
    }
}

#if os(Linux)
/// The `VmFlags` of the mapping in `/proc/self/smaps` that holds `address`.
private func mappingFlags(containing address: UInt) -> [Substring]? {
    guard let file = fopen("/proc/self/smaps", "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 4096)
    var inside = false
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        // A mapping's first line: "start-end perms offset device inode [path]", the bounds in hexadecimal.
        if let range = fields.first, let dash = range.firstIndex(of: "-"),
           let start = UInt(range[..<dash], radix: 16), let end = UInt(range[range.index(after: dash)...], radix: 16) {
            inside = start <= address && address < end
        } else if inside, fields.first == "VmFlags:" {
            return Array(fields.dropFirst())
        }
    }
    return nil
}
#endif
