#if canImport(Glibc)
import Glibc
#endif
import Foundation
import JSONRPC
import JSONValue
import Synchronization
import Testing

/// The real executable over real pipes, under faults: a dying parent, a closed stdout, a client
/// that does not read, cancellation of queued requests, an oversized message, and configuration
/// files that flip while requests run.
@Suite struct ProcessFaultTests {
    /// The server process with its pipes; reads are plain read(2) with EINTR retries.
    final class ServerProcess {
        let process = Process()
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        private let errorBytes = ByteCollector()
        private let errorReader = DispatchGroup()
        private var framer = MessageFramer()
        private var pending: [JSON] = []

        init(arguments: [String] = [], directory: URL? = nil) throws {
            // A server that ends early must fail the test, not kill the test process.
            signal(SIGPIPE, SIG_IGN)
            let executable = try #require(ProcessTests.executable, "build the highlight-ls product first (swift build)")
            process.executableURL = executable
            process.arguments = arguments
            if let directory { process.currentDirectoryURL = directory }
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = stderr
            try process.run()
            // stderr is read as it comes: a server blocked on a full stderr pipe would hang the test.
            let errorDescriptor = stderr.fileHandleForReading.fileDescriptor
            let collected = errorBytes
            errorReader.enter()
            let group = errorReader
            Thread {
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let count = chunk.withUnsafeMutableBytes { read(errorDescriptor, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    collected.bytes.withLock { $0 += chunk[0..<count] }
                }
                group.leave()
            }.start()
            // A safety net, not a synchronisation: a server that hangs is killed so the run ends
            // (and the test fails) instead of blocking everyone's `swift test`.
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + 120) { kill(pid, SIGKILL) }
        }

        var pid: Int32 { process.processIdentifier }

        func send(_ json: JSON) { write(framed(json.encoded())) }

        var inputDescriptor: Int32 { stdin.fileHandleForWriting.fileDescriptor }

        func write(_ bytes: [UInt8]) { Self.writeAll(bytes, to: inputDescriptor) }

        static func writeAll(_ bytes: [UInt8], to fileDescriptor: Int32) {
            var written = 0
            while written < bytes.count {
                let result = bytes[written...].withUnsafeBytes { Glibc.write(fileDescriptor, $0.baseAddress, $0.count) }
                if result > 0 { written += result } else if result < 0 && errno == EINTR { continue } else { return }
            }
        }

        func closeInput() { try? stdin.fileHandleForWriting.close() }

        /// The next message from the server, or nil at the end of its output.
        func next() -> JSON? {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let fileDescriptor = stdout.fileHandleForReading.fileDescriptor
            while pending.isEmpty {
                let count = chunk.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return nil }
                for case .body(let body) in framer.append(chunk[0..<count]) {
                    if let json = try? JSONParser.parse(body) { pending.append(json) }
                }
            }
            return pending.removeFirst()
        }

        /// Messages until the response with `id` (included).
        func messages(untilResponse id: JSON) -> [JSON] {
            var messages: [JSON] = []
            while let message = next() {
                messages.append(message)
                if message["id"] == id, message["method"] == nil { break }
            }
            return messages
        }

        func response(_ id: JSON) -> JSON? { messages(untilResponse: id).last.flatMap { $0["id"] == id ? $0 : nil } }

        /// Everything the server wrote to stderr, once it has ended.
        func errorOutput() -> String {
            errorReader.wait()
            return errorBytes.bytes.withLock { String(decoding: $0, as: UTF8.self) }
        }

        func waitForExit() -> (status: Int32, reason: Process.TerminationReason) {
            process.waitUntilExit()
            return (process.terminationStatus, process.terminationReason)
        }

        /// Peak resident memory (VmHWM) in bytes, from /proc.
        func peakMemory() -> Int? {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                  let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
            return kilobytes * 1024
        }
    }

    static func request(_ id: Int, _ method: String, _ params: JSON?) -> JSON {
        var object: [String: JSON] = ["jsonrpc": "2.0", "id": .integer(id), "method": .string(method)]
        if let params { object["params"] = params }
        return .object(object)
    }

    static func notification(_ method: String, _ params: JSON) -> JSON {
        ["jsonrpc": "2.0", "method": .string(method), "params": params]
    }

    static func initialize(processID: JSON = .null, rootURI: JSON = .null, capabilities: JSON = [:], options: JSON? = nil) -> JSON {
        var params: [String: JSON] = ["processId": processID, "rootUri": rootURI, "capabilities": capabilities]
        if let options { params["initializationOptions"] = options }
        return request(1, "initialize", .object(params))
    }

    static func didOpen(_ uri: String, _ text: String, version: Int = 1) -> JSON {
        notification("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "plaintext", "version": .integer(version), "text": .string(text)]])
    }

    /// A stand-in for the editor: a process the test can kill.
    private func startParent() throws -> Process {
        let parent = Process()
        parent.executableURL = URL(fileURLWithPath: "/bin/cat")
        parent.standardInput = Pipe()  // `cat` waits on this pipe until killed.
        parent.standardOutput = FileHandle.nullDevice
        try parent.run()
        return parent
    }

    @Test func theServerExitsWhenTheProcessIdOfInitializeDies() throws {
        let parent = try startParent()
        let server = try ServerProcess()
        server.send(Self.initialize(processID: .integer(Int(parent.processIdentifier))))
        #expect(server.response(1)?["result"] != nil)
        kill(parent.processIdentifier, SIGKILL)  // Not SIGTERM: the test process may hand its children a blocked mask.
        parent.waitUntilExit()  // Reaped: a zombie would still answer kill(pid, 0).
        // Stdin stays open: only the watcher can end the server.
        let (status, reason) = server.waitForExit()
        #expect(reason == .exit)
        #expect(status == 1)
        #expect(server.errorOutput().contains("client process \(parent.processIdentifier) is gone"))
    }

    /// An editor that died but was not reaped yet (a zombie) still answers `kill(pid, 0)`; it is gone all the same.
    @Test func aZombieClientCountsAsGone() throws {
        var child: pid_t = 0
        let spawned = "/bin/true".withCString { path in
            var arguments: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
            defer { free(arguments[0]) }
            return posix_spawn(&child, path, nil, nil, &arguments, nil)
        }
        try #require(spawned == 0)
        defer { waitpid(child, nil, 0) }
        // Not reaped until the end of the test: once it has exited, it is a zombie.
        var waited: siginfo_t = siginfo_t()
        #expect(waitid(P_PID, id_t(child), &waited, WEXITED | WNOWAIT) == 0)
        #expect(kill(child, 0) == 0)
        let server = try ServerProcess()
        server.send(Self.initialize(processID: .integer(Int(child))))
        let (status, reason) = server.waitForExit()
        #expect(reason == .exit && status == 1)
        #expect(server.errorOutput().contains("client process \(child) is gone"))
    }

    @Test func theServerExitsWhenTheClientProcessIdArgumentDies() throws {
        let parent = try startParent()
        let server = try ServerProcess(arguments: ["--clientProcessId", "\(parent.processIdentifier)"])
        kill(parent.processIdentifier, SIGKILL)  // Not SIGTERM: the test process may hand its children a blocked mask.
        parent.waitUntilExit()
        let (status, reason) = server.waitForExit()
        #expect(reason == .exit && status == 1)
        #expect(server.errorOutput().contains("is gone"))
    }

    /// A closed stdout: the server logs and exits with 1 instead of dying of SIGPIPE.
    @Test func aClosedStdoutIsLoggedAndEndsTheServer() throws {
        let server = try ServerProcess()
        try server.stdout.fileHandleForReading.close()
        server.send(Self.initialize())
        for id in 2..<50 { server.send(Self.request(id, "nothing/here", [:])) }
        // Stdin stays open: the server notices the closed output by itself.
        let (status, reason) = server.waitForExit()
        #expect(reason == .exit)
        #expect(status == 1)
        #expect(server.errorOutput().contains("stdout was closed by the client; exiting"))
    }

    /// A request still queued when its $/cancelRequest arrives is answered -32800 and not run.
    @Test func aQueuedRequestIsCancelled() throws {
        let server = try ServerProcess()
        server.send(Self.initialize())
        #expect(server.response(1)?["result"] != nil)
        // A large document keeps the server busy while the reader thread queues what follows.
        let big = String(repeating: "TODO a\n", count: 400_000)
        var bytes = framed(Self.didOpen("file:///big.txt", big).encoded())
        bytes += framed(Self.request(2, "textDocument/semanticTokens/full", ["textDocument": ["uri": "file:///big.txt"]]).encoded())
        bytes += framed(Self.request(3, "highlight/matches", ["textDocument": ["uri": "file:///big.txt"]]).encoded())
        bytes += framed(Self.notification("$/cancelRequest", ["id": 3]).encoded())
        bytes += framed(Self.request(4, "shutdown", nil).encoded())
        let input = server.inputDescriptor
        let payload = bytes
        let writer = Thread { ServerProcess.writeAll(payload, to: input) }
        writer.start()
        var responses: [JSON: JSON] = [:]
        while responses[4] == nil, let message = server.next() {
            if let id = message["id"], message["method"] == nil { responses[id] = message }
        }
        #expect(responses[2]?["result"]?["data"]?.arrayValue?.count == 400_000 * 5)
        #expect(responses[3]?["error"]?["code"] == .integer(ResponseError.requestCancelledCode))
        #expect(responses[4]?["result"] == .null)
        server.send(Self.notification("exit", [:]))
        #expect(server.waitForExit().status == 0)
    }

    /// A Content-Length over the 64 MiB maximum is skipped without being buffered, and the
    /// next message is answered.
    @Test func anOversizedMessageIsSkippedWithoutBeingBuffered() throws {
        let server = try ServerProcess()
        let length = 100 << 20
        let input = server.inputDescriptor
        let writer = Thread {
            ServerProcess.writeAll(Array("Content-Length: \(length)\r\n\r\n".utf8), to: input)
            let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
            for _ in 0..<100 { ServerProcess.writeAll(chunk, to: input) }
            ServerProcess.writeAll(framed(ProcessFaultTests.initialize().encoded()), to: input)
        }
        writer.start()
        #expect(server.response(1)?["result"] != nil)
        let peak = try #require(server.peakMemory())
        #expect(peak < 64 << 20, "peak resident memory \(peak) bytes")
        server.send(Self.request(2, "shutdown", nil))
        _ = server.response(2)
        server.send(Self.notification("exit", [:]))
        #expect(server.waitForExit().status == 0)
    }

    /// A client that does not read while it sends many changes: every request is still answered
    /// once and in order, and the last decorations of each document are those of its last version.
    @Test func aSlowReaderGetsEveryResponseAndTheLatestDecorations() throws {
        let server = try ServerProcess()
        var bytes = framed(Self.initialize(options: ["decorations": true]).encoded())
        bytes += framed(Self.notification("initialized", [:]).encoded())
        let documents = 20
        for index in 0..<documents { bytes += framed(Self.didOpen("file:///slow/\(index).txt", "TODO \(index)").encoded()) }
        var nextID = 2
        for version in 2...200 {
            for index in 0..<documents {
                bytes += framed(Self.notification("textDocument/didChange", [
                    "textDocument": ["uri": .string("file:///slow/\(index).txt"), "version": .integer(version)],
                    "contentChanges": [["text": .string(String(repeating: "TODO x ", count: version))]],
                ]).encoded())
            }
            bytes += framed(Self.request(nextID, "highlight/matches", ["textDocument": ["uri": "file:///slow/0.txt"]]).encoded())
            nextID += 1
        }
        // All of it is written before the test reads a byte.
        server.write(bytes)
        // Once idle, the server publishes the latest decorations of every document; read until
        // every document's version 200 has arrived.
        var responseIDs: [Int] = []
        var lastDecorationVersion: [String: Int] = [:]
        var decorationCount = 0
        while lastDecorationVersion.count < documents || lastDecorationVersion.values.contains(where: { $0 != 200 }),
              let message = server.next() {
            if let id = message["id"]?.integerValue, message["method"] == nil {
                responseIDs.append(id)
            } else if message["method"] == "highlight/publishDecorations", let uri = message["params"]?["textDocument"]?["uri"]?.stringValue {
                decorationCount += 1
                let version = message["params"]?["textDocument"]?["version"]?.integerValue ?? -1
                #expect(version >= lastDecorationVersion[uri] ?? 0, "versions of \(uri) go backwards")
                lastDecorationVersion[uri] = version
            }
        }
        server.send(Self.request(nextID, "shutdown", nil))
        for message in server.messages(untilResponse: .integer(nextID)) {
            if let id = message["id"]?.integerValue, message["method"] == nil { responseIDs.append(id) }
        }
        #expect(responseIDs == Array(1...nextID))
        #expect(lastDecorationVersion.count == documents)
        #expect(decorationCount <= documents * 200)
        server.send(Self.notification("exit", [:]))
        #expect(server.waitForExit().status == 0)
    }
}

/// Bytes gathered by a reader thread.
final class ByteCollector: Sendable {
    let bytes = Mutex<[UInt8]>([])
}
