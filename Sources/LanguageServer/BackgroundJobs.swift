import JSONRPC
import JSONValue
import Synchronization
import WorkspaceScan

// What runs where. The server loop answers keystrokes; it never does work that grows with the
// workspace. Such work runs as a *job*: the loop takes an immutable snapshot of what the job
// needs, hands the job to the runner's pool, and goes on serving. When the job ends, its result
// comes back through the inbox, and the loop applies it (sends the answer, keeps caches).
//
//     request ──loop: snapshot──▶ job on the pool ──result──▶ inbox ──loop: finish──▶ answer
//                                   ▲ cancelled by $/cancelRequest, a newer request of the
//                                   │ same kind, or a configuration change
//
//   | work                                            | where |
//   |-------------------------------------------------|-------|
//   | notifications, edits, requests about a document | loop  |
//   | `workspace/symbol` (walk, read, search)          | job   |
//   | `highlight/counts` (the same search, counted)    | job   |
//   | hover's blame of a marker's line (git)           | job   |
//   | opening a document of 1 MiB or more (its line    | job   |
//   | index and first full scan)                       |       |
//   | reading `.highlights.json` files and compiling   | job   |
//   | their rules (not at `initialize`, whose answer   |       |
//   | carries the legend)                              |       |
//
// A configuration load answers no request and is never cancelled: one runs at a time, and what
// changes meanwhile is read by the next (Server+Configuration.swift). A document whose
// configuration file is read for the first time waits for it, like a large one.
//
// While a document is being opened by a job, the messages about it wait (in order) and are
// handled when it is ready; messages about other documents go on.
//
// A job sees only its snapshot, so its answer never mixes two configurations; a configuration
// change cancels the jobs that used the old one (ContentModified), and a result that arrives
// for a cancelled job is dropped. Without a runner (tests, fuzzing) a job runs at once, in
// order, on the calling thread, so transcripts stay deterministic.

/// What a running job can see of the world: whether it was cancelled, and a way to send progress.
final class JobContext: Sendable {
    private struct Output {
        let send: @Sendable (Message) -> Void
        /// Set once the loop answers the job's request: LSP ends partial results with the response.
        var answered = false
        /// Work-done progress tokens begun and not yet ended, which the answer ends.
        var begun: [JSON] = []
    }

    private let cancelled = Atomic<Bool>(false)
    private let output: Mutex<Output>

    /// A context whose progress goes to `send`, from the job's thread.
    init(send: @escaping @Sendable (Message) -> Void) {
        output = Mutex(Output(send: send))
    }

    /// Whether the job should stop: its answer is no longer wanted.
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Sends `$/progress` for `token` (work done, or a partial result), unless the request is
    /// already answered. The check and the send are one step under the lock, so no progress can
    /// follow the answer (`answer()`).
    func sendProgress(token: JSON, value: JSON) {
        output.withLock { output in
            guard !output.answered else { return }
            switch value["kind"]?.stringValue {
            case "begin": output.begun.append(token)
            case "end": output.begun.removeAll { $0 == token }
            default: break
            }
            output.send(.notification(method: "$/progress", params: ["token": token, "value": value]))
        }
    }

    /// Called by the loop just before it sends the answer: later progress is dropped, and work-done
    /// progress still open is ended first, so the client's indicator does not spin on.
    func answer() {
        output.withLock { output in
            guard !output.answered else { return }
            output.answered = true
            for token in output.begun {
                output.send(.notification(method: "$/progress", params: ["token": token, "value": ["kind": "end"]]))
            }
            output.begun = []
        }
    }
}

/// What a job hands back to the loop: one case per kind of job, each with what applying it needs.
enum JobOutcome: Sendable {
    /// A `workspace/symbol` or `highlight/counts` search.
    case workspaceSearch(WorkspaceSymbolSearch.Outcome, answering: RequestID)
    /// A large document, with the configuration generation its highlights were found under.
    case openedDocument(Document, configurationGeneration: Int)
    case loadedConfigurations(ConfigurationLoad.Outcome)
    /// A large message about one document, decoded beside the loop.
    case decodedMessage(DecodedDocumentMessage, aboutDocument: String)
    /// The blame of a hovered line, and the hover that waits for it.
    case hoverBlame(FileBlame, PendingHover, answering: RequestID)
}

/// A job's outcome as the runner carries it back to the loop, which alone looks inside.
public struct JobResult: Sendable {
    let outcome: JobOutcome
}

/// Runs a job's work off the server loop, then hands the result back to the loop, which calls
/// `Server.finishJob(_:result:)` with it.
public typealias JobRunner = @Sendable (_ jobID: Int, _ work: @escaping @Sendable () -> JobResult) -> Void

/// A job the loop started and has not finished.
struct BackgroundJob {
    /// What the job does; a newer request supersedes a running job of its kind only.
    enum Kind { case workspaceSymbols, workspaceCounts, openDocument, loadConfiguration, decodeMessage, hoverBlame }

    let kind: Kind
    /// The request the job answers; nil for a job that answers none (opening a document), which
    /// is never cancelled.
    let requestID: RequestID?
    let context: JobContext
}

extension Server {
    /// Starts `work` as a job answering `requestID`; its outcome is applied on the loop
    /// (`apply(_:)`), unless the job was cancelled first.
    func startJob(_ kind: BackgroundJob.Kind, answering requestID: RequestID?, work: @escaping @Sendable (JobContext) -> JobOutcome) {
        let id = nextJobID
        nextJobID += 1
        guard let jobRunner else {
            // Inline: progress is sent after the work, in the order it was made.
            let progress = Mutex<[Message]>([])
            let context = JobContext { message in progress.withLock { $0.append(message) } }
            let outcome = work(context)
            progress.withLock { $0 }.forEach(send)
            apply(outcome)
            return
        }
        let context = JobContext(send: jobSend)
        jobs[id] = BackgroundJob(kind: kind, requestID: requestID, context: context)
        jobRunner(id) { JobResult(outcome: work(context)) }
    }

    /// Applies the result of a job the runner finished; a cancelled job's result is dropped.
    func finishJob(_ id: Int, result: JobResult) {
        guard let job = jobs.removeValue(forKey: id) else { return }
        job.context.answer()
        apply(result.outcome)
    }

    /// Applies a job's outcome on the loop: the one place each kind of result is taken in.
    private func apply(_ outcome: JobOutcome) {
        switch outcome {
        case .workspaceSearch(let found, let requestID): finishWorkspaceSearch(found, answering: requestID)
        case .openedDocument(let document, let generation): finishOpening(document, configurationGeneration: generation)
        case .loadedConfigurations(let loaded): finishConfigurationLoad(loaded)
        case .decodedMessage(let decoded, let uri): finishDecoding(decoded, aboutDocument: uri)
        case .hoverBlame(let blame, let hover, let requestID): finishHoverBlame(blame, hover, answering: requestID)
        }
    }

    /// A large message about the document `uri`, not decoded yet: a job decodes it while the loop
    /// goes on with other documents' messages, and the messages about this one wait for it, as for
    /// a document a job is opening. Decoded at once when there is no job runner, or when messages
    /// about the document already wait (it goes behind them, in order).
    public func receive(undecoded body: consuming [UInt8], aboutDocument uri: String) {
        guard jobRunner != nil, documentsOpening[uri] == nil else {
            handle(Self.decodeIncoming(body: body))
            return
        }
        documentsOpening[uri] = []
        // Handed to the job as its only reference, so that a didOpen's text is decoded in the body's storage.
        let handed = HandedBytes(body)
        startJob(.decodeMessage, answering: nil) { _ in .decodedMessage(Self.decodeDocumentMessage(body: handed.take()), aboutDocument: uri) }
    }

    /// Handles a message a job decoded, then the messages about its document that waited for it
    /// (after a job that the message itself started, such as a large document's opening).
    private func finishDecoding(_ decoded: DecodedDocumentMessage, aboutDocument uri: String) {
        let held = documentsOpening.removeValue(forKey: uri) ?? []
        switch decoded {
        case .incoming(let incoming): handle(incoming)
        // Never held for its document: its waiting list was taken just above.
        case .opening(let message, let text): handle(message, openingText: text)
        }
        if let opening = documentsOpening[uri] {
            documentsOpening[uri] = opening + held
        } else {
            documentsOpening[uri] = held
            handleMessagesWaiting(forDocument: uri)
        }
    }

    /// Handles a decoded message, or answers one that could not be decoded with its error.
    private func handle(_ incoming: IncomingMessage) {
        switch incoming {
        case .valid(let message): handle(message)
        case .invalid(let answer):
            log(.warning, "invalid message answered with an error")
            send(answer)
        }
    }

    /// Cancels the jobs that `matching` selects, answering each one's request with `error`.
    func cancelJobs(answering error: ResponseError, where matching: (BackgroundJob) -> Bool) {
        for (id, job) in jobs {
            guard let requestID = job.requestID, matching(job) else { continue }
            jobs[id] = nil
            job.context.cancel()
            job.context.answer()
            send(.response(id: requestID, result: .failure(error)))
        }
    }

    /// `$/cancelRequest`: a job answering that request stops, or a request waiting for its
    /// document to open is taken back; either way it is answered RequestCancelled.
    func cancelRequest(_ params: CancelParams) {
        guard let requestID = params.id else { return }
        cancelJobs(answering: .requestCancelled) { $0.requestID == requestID }
        for uri in Array(documentsOpening.keys) {
            guard let waiting = documentsOpening[uri],
                  let index = waiting.firstIndex(where: { if case .request(requestID, _, _) = $0 { true } else { false } })
            else { continue }
            documentsOpening[uri]?.remove(at: index)
            send(.response(id: requestID, result: .failure(.requestCancelled)))
        }
    }

    /// Handles the messages that waited for `uri` to open, and, once no document is opening, those that waited for all.
    func handleMessagesWaiting(forDocument uri: String) {
        for message in documentsOpening.removeValue(forKey: uri) ?? [] { handle(message) }
        guard documentsOpening.isEmpty else { return }
        let waiting = messagesWaitingForEveryDocument
        messagesWaitingForEveryDocument = []
        for message in waiting { handle(message) }
    }

    /// Holds `message` when it is about a document a job is opening (or is `shutdown` or `exit`
    /// while any is); true when it was held.
    func holdIfDocumentIsOpening(_ message: Message) -> Bool {
        guard !documentsOpening.isEmpty else { return false }
        let params: JSON?
        switch message {
        case .request(_, "shutdown", _), .notification("exit", _):
            // Requests that came before must be answered before the server shuts down.
            messagesWaitingForEveryDocument.append(message)
            return true
        case .request(_, _, let requestParams): params = requestParams
        case .notification(_, let notificationParams): params = notificationParams
        case .response: return false
        }
        guard let uri = params.value(at: "textDocument.uri")?.stringValue, documentsOpening[uri] != nil else { return false }
        documentsOpening[uri]?.append(message)
        return true
    }
}

/// Bytes handed from one thread to a job that runs once, which takes them out: the job then holds their only
/// reference, and may change them in place without a copy.
///
/// `@unchecked` because the bytes are a `var`: the one who makes the box does not touch them after, and only the job
/// takes them, once.
final class HandedBytes: @unchecked Sendable {
    private var bytes: [UInt8]?

    init(_ bytes: consuming [UInt8]) { self.bytes = bytes }

    /// The bytes, leaving none behind; empty if they were taken already.
    func take() -> [UInt8] { bytes.take() ?? [] }
}
