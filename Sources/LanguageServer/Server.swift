import HighlightConfig
import JSONRPC
import JSONValue
import PatternEngine
import TextIndex

/// The language server's state machine: messages in, messages out, no I/O of its own.
///
/// Everything runs on one thread (the runner's server loop or a test), in message order.
/// Output goes through `send`; decorations for documents that changed are published by
/// `flush()`, which the runner calls when no more input is waiting, so a burst of keystrokes
/// yields one decoration update.
public final class Server {
    /// Where framed bytes for the client go.
    let send: (Message) -> Void
    /// Where log lines go (stderr in the executable).
    let logSink: (String) -> Void

    enum Lifecycle { case uninitialized, running, shutDown }
    var lifecycle = Lifecycle.uninitialized
    /// Set by the `exit` notification: 0 after `shutdown`, 1 otherwise.
    public private(set) var exitCode: Int32?

    var client = ClientCapabilities()
    var positionEncoding = PositionEncoding.utf16
    var workspaceFolders = WorkspaceFolders()
    var configuration = ConfigurationState()
    var documents: [String: Document] = [:]
    var tokenLegend = TokenLegend(ruleNames: [])
    var semanticTokensRegistrationID: String?
    /// The semantic tokens each client-held document was last sent, and what changed since.
    var previousTokens: [String: SentTokens] = [:]
    /// The decorations each document was last sent, for a client that takes deltas.
    var sentDecorations: [String: SentDecorations] = [:]
    /// The work done on documents, for the tests that hold an edit to what it changed.
    var work = WorkCounts()
    /// Whether debug lines are logged: the client asked for a `verbose` trace.
    var logsDebugLines = false
    var nextResultID = 1
    var documentsNeedingDecorations: Set<String> = []
    var scopes = ScopeState()
    var workspaceList = WorkspaceListState()
    /// Documents whose last pushed diagnostics were not empty, so that they are cleared later.
    var documentsWithPublishedDiagnostics: Set<String> = []
    var nextOutgoingRequestID = 1
    /// The server's requests awaiting the client's answer, each with the order it was sent in.
    var pendingOutgoingRequests: [RequestID: (sequence: Int, completion: (Result<JSON, ResponseError>) -> Void)] = [:]
    /// Runs long work beside the loop; nil runs it at once, in order (BackgroundJobs.swift).
    let jobRunner: JobRunner?
    /// Where jobs send progress from their own threads.
    let jobSend: @Sendable (Message) -> Void
    var jobs: [Int: BackgroundJob] = [:]
    /// The lines hover has blamed, per open document (Server+Blame.swift).
    var hoverBlames: [String: HoverBlames] = [:]
    /// Whether git cannot be run: hover then asks it nothing more, and the log has said why once.
    var gitUnavailableSaid = false
    /// Open documents whose files are in no git repository: hover asks git nothing more about them.
    var documentsOutsideRepository: Set<String> = []
    var nextJobID = 1
    /// Documents a job is opening, with the messages about them that wait until they are ready.
    var documentsOpening: [String: [Message]] = [:]
    /// Documents at least this large are opened by a background job (1 MiB; smaller in tests).
    var backgroundOpenUTF8Count = 1 << 20
    /// Messages at least this large about one document are decoded by a job (`receive(undecoded:aboutDocument:)`).
    public static let undecodedMessageUTF8Count = 1 << 20
    /// `shutdown` and `exit`, held while any document is opening.
    var messagesWaitingForEveryDocument: [Message] = []

    /// A server that sends through `send` and logs through `log`. With a `jobRunner`, long work
    /// runs beside the loop and sends its progress through `jobSend`, which must be safe to call
    /// from any thread; without one, it runs at once on the calling thread.
    public init(
        send: @escaping (Message) -> Void, log: @escaping (String) -> Void, jobRunner: JobRunner? = nil,
        jobSend: @escaping @Sendable (Message) -> Void = { _ in }
    ) {
        self.send = send
        self.logSink = log
        self.jobRunner = jobRunner
        self.jobSend = jobSend
    }

    /// Decodes a message body; a body that is not a valid message yields the error response to send instead.
    public static func decodeIncoming(body: [UInt8]) -> IncomingMessage {
        switch Message.decode(body: body) {
        case .success(let message): return .valid(message)
        case .failure(let problem): return .invalid(errorResponse: .response(id: problem.id ?? RequestID(.null), result: .failure(problem.error)))
        }
    }

    /// Decodes a large message about one document (`receive(undecoded:aboutDocument:)`) as
    /// `decodeIncoming(body:)` does, except that a `didOpen`'s text is decoded in the body's own
    /// storage, which the document then keeps (`JSONParser.takeString(atPath:from:)`): it never
    /// becomes a `String`, whose own UTF-8 check and copy into an array would read it twice more,
    /// and no second buffer of its size is made, whose fresh pages cost more than the decoding. The
    /// rest of the message is decoded with null in the text's place; a message that is not a
    /// `didOpen` after all is decoded whole again (`TakenString.restored`).
    static func decodeDocumentMessage(body: consuming [UInt8]) -> DecodedDocumentMessage {
        switch JSONParser.takeString(atPath: ["params", "textDocument", "text"], from: body) {
        case .notTaken(let body):
            return .incoming(decodeIncoming(body: body))
        case .taken(let text, let rest, let literal):
            if case .valid(let message) = decodeIncoming(body: rest), case .notification("textDocument/didOpen", _) = message {
                return .opening(message, text: text)
            }
            return .incoming(decodeIncoming(body: TakenString.restored(bytes: text, rest: rest, literal: literal)))
        }
    }

    /// Handles one message. Every request gets exactly one response.
    public func handle(_ message: Message) {
        handle(message, openingText: nil)
    }

    /// Handles one message; `openingText` is the text of a `didOpen` whose params hold null for it
    /// (`DecodedDocumentMessage.opening`).
    func handle(_ message: Message, openingText: [UInt8]?) {
        if holdIfDocumentIsOpening(message) { return }
        // Configuration files noted as changed are read before any other kind of message, so
        // that every answer sees them; a burst of file events reloads once.
        if !configuration.foldersToReload.isEmpty, !isConfigurationFileEvent(message) { startPendingConfigurationLoad() }
        switch message {
        case .request(let id, let method, let params):
            answer(id, method: method) { () throws -> Reply in try respond(to: method, id: id, params: params) }
        case .notification(let method, let params):
            do {
                try receive(method, params: params, openingText: openingText)
            } catch {
                log(.warning, "\(method): \(error.message)")
            }
        case .response(let id, let result):
            guard let completion = pendingOutgoingRequests.removeValue(forKey: id)?.completion else {
                log(.info, "response to an unknown request \(id) ignored")
                return
            }
            completion(result)
        }
    }

    /// A handler's answer: now, or later, by a job that sends it when it ends.
    enum Reply {
        case now(JSON)
        case later
    }

    /// Sends exactly one response to a request: the result of `body`, the `ResponseError` it
    /// throws, or, for any other error (an I/O failure, a broken invariant a handler detected),
    /// InternalError (-32603) naming the method; the error is logged and the server goes on.
    /// A reply that comes later is sent by the job that makes it.
    func answer(_ id: RequestID, method: String, _ body: () throws -> Reply) {
        let result: Result<JSON, ResponseError>
        do {
            switch try body() {
            case .now(let json): result = .success(json)
            case .later: return
            }
        } catch let error as ResponseError {
            result = .failure(error)
        } catch {
            log(.error, "\(method) failed: \(error)")
            result = .failure(.internalError("\(method) failed: \(error)"))
        }
        send(.response(id: id, result: result))
    }

    /// The one dispatch site for requests. Handlers throw `ResponseError` for what the client
    /// got wrong; any other error they throw is answered as InternalError by `answer`.
    private func respond(to method: String, id: RequestID, params: JSON?) throws -> Reply {
        switch lifecycle {
        case .uninitialized where method != "initialize":
            throw ResponseError(code: ResponseError.serverNotInitializedCode, message: "the server is not initialized")
        case .shutDown:
            throw ResponseError.invalidRequest("the server is shutting down")
        default: break
        }
        switch method {
        case "initialize": return .now(try initialize(InitializeParams(params)))
        case "shutdown": return .now(shutdown())
        case "textDocument/semanticTokens/full": return .now(try semanticTokensFull(DocumentParams(params)))
        case "textDocument/semanticTokens/full/delta": return .now(try semanticTokensDelta(SemanticTokensDeltaParams(params)))
        case "textDocument/semanticTokens/range": return .now(try semanticTokensRange(DocumentRangeParams(params)))
        case "highlight/decorations": return .now(try decorationsRequest(DocumentParams(params)))
        case "highlight/matches": return .now(try matchesRequest(DocumentParams(params)))
        case "workspace/symbol": return workspaceSymbols(id: id, WorkspaceSymbolParams(params))
        case "highlight/counts": return workspaceCounts(id: id, try CountsParams(params))
        case "textDocument/diagnostic": return .now(try documentDiagnosticRequest(DocumentDiagnosticParams(params)))
        case "textDocument/documentLink": return .now(try documentLinkRequest(DocumentParams(params)))
        case "textDocument/hover": return try hoverRequest(id: id, DocumentPositionParams(params))
        case "textDocument/documentColor": return .now(try documentColorRequest(DocumentParams(params)))
        case "textDocument/colorPresentation": return .now(try colorPresentationRequest(ColorPresentationParams(params)))
        case "textDocument/codeAction": return .now(try codeActionRequest(DocumentRangeParams(params)))
        case "workspace/executeCommand": return .now(try executeCommandRequest(ExecuteCommandParams(params)))
        case "textDocument/documentSymbol": return .now(try documentSymbolRequest(DocumentParams(params)))
        default: throw ResponseError.methodNotFound(method)
        }
    }

    /// The one dispatch site for notifications. Unknown ones (and other `$/` ones) are ignored.
    private func receive(_ method: String, params: JSON?, openingText: [UInt8]?) throws(ResponseError) {
        if method == "exit" {
            exitCode = lifecycle == .shutDown ? 0 : 1
            return
        }
        guard lifecycle == .running else {
            if lifecycle == .uninitialized { log(.info, "\(method) before initialize ignored") }
            return
        }
        switch method {
        case "initialized": initialized()
        case "textDocument/didOpen": didOpen(try DidOpenParams(params, text: openingText))
        case "textDocument/didChange": didChange(try DidChangeParams(params))
        case "textDocument/didClose": didClose(try DocumentParams(params))
        case "textDocument/didSave": didSave(try DocumentParams(params))
        case "workspace/didChangeConfiguration": didChangeConfiguration(DidChangeConfigurationParams(params))
        case "workspace/didChangeWatchedFiles": didChangeWatchedFiles(try DidChangeWatchedFilesParams(params))
        case "workspace/didChangeWorkspaceFolders": didChangeWorkspaceFolders(WorkspaceFoldersChangeParams(params))
        case "$/cancelRequest": cancelRequest(CancelParams(params))
        case "$/setTrace": logsDebugLines = SetTraceParams(params).verbose
        default: break
        }
    }

    /// How many of its own requests the server keeps awaiting an answer.
    static let maximumPendingOutgoingRequests = 64

    /// Sends a request to the client and calls `completion` with its answer. A request the client
    /// did not announce it takes (`ClientCapabilities.takes(request:params:)`) is not sent, and
    /// `completion` gets MethodNotFound at once.
    func sendRequest(_ method: String, params: JSON?, completion: @escaping (Result<JSON, ResponseError>) -> Void = { _ in }) {
        guard client.takes(request: method, params: params) else {
            log(.debug, "\(method) not sent: the client did not announce it")
            completion(.failure(.methodNotFound(method)))
            return
        }
        let id = RequestID(.string("highlight-ls-\(nextOutgoingRequestID)"))
        // A client that never answers must not make memory grow: keep a bounded number, and
        // give up on the one sent first (a dictionary has no order of its own).
        if pendingOutgoingRequests.count >= Self.maximumPendingOutgoingRequests,
           let oldest = pendingOutgoingRequests.min(by: { $0.value.sequence < $1.value.sequence })?.key {
            pendingOutgoingRequests.removeValue(forKey: oldest)
        }
        pendingOutgoingRequests[id] = (nextOutgoingRequestID, completion)
        nextOutgoingRequestID += 1
        send(.request(id: id, method: method, params: params))
    }

    func sendNotification(_ method: String, params: JSON) {
        send(.notification(method: method, params: params))
    }

    /// The levels of `window/logMessage` (`debug` is its `Log` type).
    enum LogLevel: Int { case error = 1, warning = 2, info = 3, debug = 4 }

    /// Logs to stderr and, once initialized, to the client's log; debug lines only while the
    /// client asked for a `verbose` trace (`initialize`'s `trace`, or `$/setTrace`).
    func log(_ level: LogLevel, _ message: String) {
        if level == .debug, !logsDebugLines { return }
        logSink("[\(level)] \(message)")
        if lifecycle == .running {
            sendNotification("window/logMessage", params: ["type": .integer(level.rawValue), "message": .string(message)])
        }
    }

    /// Shows a message to the user (and logs it).
    func showMessage(_ level: LogLevel, _ message: String) {
        logSink("[\(level)] \(message)")
        sendNotification("window/showMessage", params: ["type": .integer(level.rawValue), "message": .string(message)])
        if lifecycle == .running {
            sendNotification("window/logMessage", params: ["type": .integer(level.rawValue), "message": .string(message)])
        }
    }
}

/// A decoded message body: a message to handle, or the error response that answers a bad one.
public enum IncomingMessage: Sendable {
    case valid(Message)
    case invalid(errorResponse: Message)
}

/// A large message about one document, decoded by a job (`Server.decodeDocumentMessage(body:)`).
enum DecodedDocumentMessage: Sendable {
    case incoming(IncomingMessage)
    /// A `didOpen` whose text was decoded into bytes; its params hold null for the text.
    case opening(Message, text: [UInt8])
}
