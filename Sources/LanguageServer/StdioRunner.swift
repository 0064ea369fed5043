#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Threads
import JSONRPC
import JSONValue

// The process around the server: a reader thread turns stdin into messages, the calling
// thread runs the server over them in order, a writer thread empties the output queue to
// stdout, and stdout carries protocol messages only.
//
//   stdin ──reader thread──▶ inbox ──server loop──▶ Server ──▶ OutputQueue ──writer thread──▶ stdout
//              │ $/cancelRequest   ▲                 ▲ flush() when the inbox is empty
//              └──▶ cancelled ids  └── job results ◀── job pool (BackgroundJobs.swift)
//
// Reading never waits for highlighting, and highlighting never waits for a slow reader: a
// burst of changes is handled before the decorations of the burst are published once, and
// decorations (and diagnostics) that the client has not read yet are replaced by newer ones
// for the same document. A closed stdout wakes the server loop, which logs and exits.

/// Runs the language server on stdin/stdout until `exit` or end of input; returns the exit code.
public enum StdioRunner {
    public static func run(clientProcessID: Int32? = nil) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        #if os(Linux)
        // A client that writes a large document into a full pipe may sleep before it tries again
        // (Emacs does), so a large `didOpen` through the default 64 KiB pipe costs it many such
        // sleeps. A larger pipe takes it in a few writes. Where stdin is no pipe, or the system
        // refuses, nothing changes.
        // F_SETPIPE_SZ, which Glibc's Swift module leaves out (it is behind _GNU_SOURCE).
        let setPipeSize: Int32 = 1031
        _ = fcntl(STDIN_FILENO, setPipeSize, Int32(1 << 20))
        #endif
        let inbox = Inbox()
        let output = OutputQueue(fileDescriptor: STDOUT_FILENO) { inbox.push(.outputClosed) }
        let log: @Sendable (String) -> Void = { line in
            _ = Array(("highlight-ls: " + line + "\n").utf8).withUnsafeBytes { writeAll($0, to: STDERR_FILENO) }
        }

        let readerStarted = startThread(stackBytes: 1 << 22) {
            let end = readFramedMessages(fileDescriptor: STDIN_FILENO) { event in
                switch event {
                case .error(let problem):
                    log("[warning] framing: \(problem.message)")
                case .body(let body):
                    // A large message about one document (a big `didOpen` or whole-text `didChange`) is
                    // decoded by a job, so that the messages behind it about other documents do not wait.
                    if body.count >= Server.undecodedMessageUTF8Count,
                       let uri = JSONParser.string(atPath: ["params", "textDocument", "uri"], in: body) {
                        inbox.push(.undecoded(body, aboutDocument: uri), bodyBytes: body.count)
                        return
                    }
                    // Decoding here keeps the server loop free while large texts are parsed.
                    switch Server.decodeIncoming(body: body) {
                    case .valid(let message):
                        // Noted only for a request still waiting in the inbox (`PendingRequests`).
                        if case .notification("$/cancelRequest", let params) = message, let id = params?["id"] {
                            inbox.cancel(RequestID(id))
                        }
                        inbox.push(.message(message), bodyBytes: body.count)
                    case .invalid(let answer):
                        log("[warning] invalid message answered with an error")
                        output.enqueue(answer.framedBytes)
                    }
                }
            }
            inbox.push(.end(end))
        }
        guard readerStarted else {
            log("[error] no thread to read the input with; exiting")
            return 1
        }

        if let clientProcessID { watchParent(clientProcessID, log: log) }

        // Long work runs on the pool; its result comes back through the inbox to the loop.
        let jobs = DispatchQueue(label: "highlight-ls.jobs", qos: .utility, attributes: .concurrent)
        let server = Server(
            send: { output.enqueue($0.framedBytes, coalescingKey: coalescingKey(of: $0)) }, log: log,
            jobRunner: { id, work in jobs.async { inbox.push(.jobFinished(id, work())) } },
            jobSend: { output.enqueue($0.framedBytes) })
        while true {
            guard let item = inbox.pop(onIdle: { server.flush() }) else { continue }
            // Consumed, so that a large body's only reference goes on to its decoding job (`HandedBytes`).
            switch consume item {
            case .end(.endOfFile):
                log("[info] input closed; exiting")
                return finish(output, code: server.exitCode ?? 1)
            case .end(.truncated):
                log("[error] input ended in the middle of a message; exiting")
                return finish(output, code: 1)
            case .outputClosed:
                log("[error] stdout was closed by the client; exiting")
                return 1
            case .jobFinished(let id, let result):
                server.finishJob(id, result: result)
                if let code = server.exitCode { return finish(output, code: code) }
            case .undecoded(let body, let uri):
                server.receive(undecoded: consume body, aboutDocument: uri)
                if let code = server.exitCode { return finish(output, code: code) }
            case .message(let message):
                if case .request(let id, _, _) = message, inbox.takeCancellation(id) {
                    output.enqueue(Message.response(id: id, result: .failure(.requestCancelled)).framedBytes)
                    continue
                }
                if case .initializeRequest(let pid) = InitializeProbe(message), clientProcessID == nil, let pid {
                    watchParent(pid, log: log)
                }
                server.handle(message)
                if let code = server.exitCode { return finish(output, code: code) }
            }
        }
    }

    /// Lets the writer write what is queued (for a few seconds at most) before the process ends.
    private static func finish(_ output: OutputQueue, code: Int32) -> Int32 {
        output.drain(seconds: 5)
        return code
    }

    /// Notifications that carry a document's whole current state: a newer one replaces an unread older one.
    static func coalescingKey(of message: Message) -> String? {
        guard case .notification(let method, let params) = message,
              method == "highlight/publishDecorations" || method == "textDocument/publishDiagnostics",
              let uri = params?["textDocument"]?["uri"]?.stringValue ?? params?["uri"]?.stringValue else { return nil }
        return method + " " + uri
    }

    /// Exits the process within a few seconds of the client process dying.
    static func watchParent(_ processID: Int32, log: @escaping @Sendable (String) -> Void) {
        // kill(0 or a negative id, 0) would ask about a process group, never about the client.
        guard processID > 0 else {
            log("[warning] client process id \(processID) is not a process id; not watched")
            return
        }
        let watching = startThread {
            while true {
                sleep(2)
                if isGone(processID) {
                    log("[error] client process \(processID) is gone; exiting")
                    exit(1)
                }
            }
        }
        if !watching { log("[warning] no thread to watch client process \(processID) with; not watched") }
    }
}

/// Whether process `processID` has ended: it no longer exists, or it is a zombie (ended, not yet
/// reaped by its parent), which still answers `kill(pid, 0)`. The state letter in
/// `/proc/PID/stat` follows the command name, which is in parentheses and may hold any byte.
func isGone(_ processID: Int32) -> Bool {
    if kill(processID, 0) != 0 && errno == ESRCH { return true }
    #if os(Linux)
    let descriptor = open("/proc/\(processID)/stat", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 1024)
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0, let nameEnd = buffer[0..<count].lastIndex(of: UInt8(ascii: ")")), nameEnd + 2 < count else { return false }
    let state = buffer[nameEnd + 2]
    return state == UInt8(ascii: "Z") || state == UInt8(ascii: "X")
    #else
    return false
    #endif
}

/// Recognises an `initialize` request to read the client's process id from it.
private enum InitializeProbe {
    case initializeRequest(Int32?)
    case other

    init(_ message: Message) {
        guard case .request(_, "initialize", let params) = message else {
            self = .other
            return
        }
        self = .initializeRequest(params?["processId"]?.integerValue.flatMap { Int32(exactly: $0) })
    }
}

/// The queue between the reader thread and the server loop.
private final class Inbox: Sendable {
    enum Item: Sendable {
        case message(Message)
        /// A large message about one document, decoded by a job (`Server.receive(undecoded:aboutDocument:)`).
        case undecoded([UInt8], aboutDocument: String)
        case end(InputEnd)
        case outputClosed
        case jobFinished(Int, JobResult)
    }

    /// The most messages from the client that wait at once, and the most bytes of their bodies.
    /// At either bound the reader thread stops reading stdin until the loop has taken one
    /// (backpressure on the client's pipe), so a client that sends without reading cannot make
    /// memory grow without limit. A single message larger than the byte bound still goes in
    /// when nothing else waits (bodies are bounded by the framer's maximum).
    static let capacity = 4_096
    static let byteCapacity = 32 << 20

    private struct State {
        var items: [(item: Item, bodyBytes: Int)] = []
        var head = 0
        var queuedBytes = 0
        var requests = PendingRequests()
    }

    // `condition` guards `state`; all access goes through `condition.lock()`.
    private let condition = Condition()
    private nonisolated(unsafe) var state = State()  // Guarded by `condition` (see above).

    func push(_ item: Item, bodyBytes: Int = 0) {
        condition.lock()
        let fromClient = switch item {
        case .message, .undecoded: true
        case .end, .outputClosed, .jobFinished: false
        }
        if fromClient {
            while state.items.count - state.head >= Self.capacity
                || (state.queuedBytes > 0 && state.queuedBytes + bodyBytes > Self.byteCapacity) { condition.wait() }
        }
        if case .message(.request(let id, _, _)) = item { state.requests.received(id) }
        state.items.append((item, bodyBytes))
        state.queuedBytes += bodyBytes
        condition.broadcast()
        condition.unlock()
    }

    /// Notes a `$/cancelRequest` for `id`, if a request with that id is waiting.
    func cancel(_ id: RequestID) {
        condition.lock()
        state.requests.cancel(id)
        condition.unlock()
    }

    /// Called by the loop for each request it pops: whether it was cancelled while it waited.
    func takeCancellation(_ id: RequestID) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return state.requests.take(id)
    }

    /// The next item; calls `onIdle` (without the lock) before waiting when the inbox is empty.
    func pop(onIdle: () -> Void) -> Item? {
        condition.lock()
        if state.head == state.items.count {
            condition.unlock()
            onIdle()
            condition.lock()
            while state.head == state.items.count { condition.wait() }
        }
        let (item, bodyBytes) = state.items[state.head]
        state.head += 1
        state.queuedBytes -= bodyBytes
        // A reader waiting at the bound may go on.
        condition.broadcast()
        if state.head == state.items.count {
            state.items.removeAll(keepingCapacity: true)
            state.head = 0
        } else if state.head >= Self.capacity {
            // A client that never lets the inbox run empty: the taken messages are let go here.
            state.items.removeSubrange(0..<state.head)
            state.head = 0
        }
        condition.unlock()
        return item
    }
}

/// The requests received but not yet taken by the server loop, and the cancellations noted for them.
///
/// A `$/cancelRequest` is kept only for a request that was received and is still waiting: one
/// that arrives before its request, or names an id that is not waiting, is not kept, so it can
/// never cancel a request that comes later (with the same id, or a reused one). A cancellation
/// for a request the loop has already taken reaches the server in order, which stops its job if
/// it has one (`BackgroundJobs.swift`). Both sets are bounded by the inbox's capacity.
struct PendingRequests {
    /// How many requests with each id are waiting (a client may reuse an id).
    private var waiting: [RequestID: Int] = [:]
    private var cancelled: Set<RequestID> = []

    /// A request with `id` was put in the inbox.
    mutating func received(_ id: RequestID) {
        waiting[id, default: 0] += 1
    }

    /// Notes a cancellation of `id`; returns whether it was kept (a request with that id is waiting).
    @discardableResult
    mutating func cancel(_ id: RequestID) -> Bool {
        guard waiting[id] != nil else { return false }
        cancelled.insert(id)
        return true
    }

    /// The loop took a request with `id`; returns whether it was cancelled while it waited.
    mutating func take(_ id: RequestID) -> Bool {
        if let count = waiting[id] { waiting[id] = count > 1 ? count - 1 : nil }
        return cancelled.remove(id) != nil
    }

    /// The number of requests waiting.
    var waitingCount: Int { waiting.values.reduce(0, +) }
}
