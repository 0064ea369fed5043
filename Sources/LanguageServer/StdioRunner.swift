import Foundation
import JSONRPC
import JSONValue

// The process around the server: a reader thread turns stdin into messages, the calling
// thread runs the server over them in order, and stdout carries protocol messages only.
//
//   stdin ──reader thread──▶ inbox ──server loop──▶ Server ──▶ OutputChannel ──▶ stdout
//              │ $/cancelRequest                     ▲ flush() when the inbox is empty
//              └────────────▶ cancelled ids ─────────┘
//
// Reading never waits for highlighting, and a burst of changes is handled before the
// decorations of the burst are published once.

/// Runs the language server on stdin/stdout until `exit` or end of input; returns the exit code.
public enum StdioRunner {
    public static func run(clientProcessID: Int32? = nil) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let output = OutputChannel(fileDescriptor: STDOUT_FILENO)
        let inbox = Inbox()
        let log: @Sendable (String) -> Void = { line in FileHandle.standardError.write(Data(("highlight-ls: " + line + "\n").utf8)) }

        let reader = Thread {
            let end = readFramedMessages(fileDescriptor: STDIN_FILENO) { event in
                switch event {
                case .error(let problem):
                    log("[warning] framing: \(problem.message)")
                case .body(let body):
                    // Decoding here keeps the server loop free while large texts are parsed.
                    switch Server.decodeIncoming(body: body) {
                    case .valid(let message):
                        if case .notification("$/cancelRequest", let params) = message, let id = params?["id"] {
                            inbox.cancel(RequestID(id))
                        }
                        inbox.push(.message(message))
                    case .invalid(let answer):
                        log("[warning] invalid message answered with an error")
                        output.write(answer.framedBytes)
                    }
                }
            }
            inbox.push(.end(end))
        }
        reader.stackSize = 1 << 22
        reader.start()

        if let clientProcessID { watchParent(clientProcessID, log: log) }

        let server = Server(send: { output.write($0.framedBytes) }, log: log)
        while true {
            guard let item = inbox.pop(onIdle: { server.flush() }) else { continue }
            switch item {
            case .end(.endOfFile):
                log("[info] input closed; exiting")
                return server.exitCode ?? 1
            case .end(.truncated):
                log("[error] input ended in the middle of a message; exiting")
                return 1
            case .message(let message):
                if case .request(let id, _, _) = message, inbox.takeCancellation(id) {
                    output.write(Message.response(id: id, result: .failure(.requestCancelled)).framedBytes)
                    continue
                }
                if case .initializeRequest(let pid) = InitializeProbe(message), clientProcessID == nil, let pid {
                    watchParent(pid, log: log)
                }
                server.handle(message)
                if let code = server.exitCode { return code }
                if output.isClosed {
                    log("[error] stdout was closed by the client; exiting")
                    return 1
                }
            }
        }
    }

    /// Exits the process within a few seconds of the client process dying.
    static func watchParent(_ processID: Int32, log: @escaping @Sendable (String) -> Void) {
        let watcher = Thread {
            while true {
                sleep(2)
                if kill(processID, 0) != 0 && errno == ESRCH {
                    log("[error] client process \(processID) is gone; exiting")
                    exit(1)
                }
            }
        }
        watcher.start()
    }
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
        case end(InputEnd)
    }

    private struct State {
        var items: [Item] = []
        var head = 0
        var cancelled: Set<RequestID> = []
    }

    // NSCondition guards `state`; all access goes through `condition.lock()`.
    private let condition = NSCondition()
    private nonisolated(unsafe) var state = State()  // Guarded by `condition` (see above).

    func push(_ item: Item) {
        condition.lock()
        state.items.append(item)
        condition.signal()
        condition.unlock()
    }

    func cancel(_ id: RequestID) {
        condition.lock()
        // Only ids of requests still waiting can be cancelled; a bounded set either way.
        if state.cancelled.count < 1024 { state.cancelled.insert(id) }
        condition.unlock()
    }

    func takeCancellation(_ id: RequestID) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return state.cancelled.remove(id) != nil
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
        let item = state.items[state.head]
        state.head += 1
        if state.head == state.items.count {
            state.items.removeAll(keepingCapacity: true)
            state.head = 0
            state.cancelled.removeAll()
        }
        condition.unlock()
        return item
    }
}
