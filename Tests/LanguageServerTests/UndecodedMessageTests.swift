import JSONRPC
import JSONValue
import Synchronization
import Testing

@testable import LanguageServer

/// A large message about one document is decoded by a job: the messages behind it about other
/// documents are answered meanwhile, and those about its document wait for it, in order.
@Suite struct UndecodedMessageTests {
    /// A server whose jobs run only when the test says, and what it answered.
    final class Session {
        /// The jobs the server started, waiting for the test to run them.
        final class Jobs: Sendable {
            let waiting = Mutex<[(id: Int, work: @Sendable () -> JobResult)]>([])
        }

        var answers: [(id: RequestID, result: Result<JSON, ResponseError>)] = []
        let jobs = Jobs()
        var server: Server!

        init() {
            let jobs = jobs
            server = Server(send: { [unowned self] message in
                if case .response(let id, let result) = message { answers.append((id, result)) }
            }, log: { _ in }, jobRunner: { id, work in jobs.waiting.withLock { $0.append((id, work)) } })
            server.handle(.request(id: RequestID(1), method: "initialize", params: ["capabilities": [:]]))
            server.handle(.notification(method: "initialized", params: [:]))
        }

        func runJobs() {
            while let job = jobs.waiting.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                server.finishJob(job.id, result: job.work())
            }
        }

        var answeredIDs: [Int] { answers.compactMap { $0.id.json.integerValue } }
    }

    static func body(_ message: Message) -> [UInt8] {
        message.json.encoded()
    }

    @Test func otherDocumentsGoOnWhileALargeMessageIsDecoded() {
        let session = Session()
        let small = "file:///small.txt"
        let large = "file:///large.txt"
        session.server.handle(.notification(method: "textDocument/didOpen", params: [
            "textDocument": ["uri": .string(small), "languageId": "plaintext", "version": 1, "text": "TODO small\n"],
        ]))
        let text = String(repeating: "TODO \"quoted\" line\n", count: 80_000)
        let opening = Self.body(.notification(method: "textDocument/didOpen", params: [
            "textDocument": ["uri": .string(large), "languageId": "plaintext", "version": 1, "text": .string(text)],
        ]))
        #expect(opening.count >= Server.undecodedMessageUTF8Count)
        #expect(JSONParser.string(atPath: ["params", "textDocument", "uri"], in: opening) == large)
        session.server.receive(undecoded: opening, aboutDocument: large)
        let tokens = { (id: Int, uri: String) in
            Message.request(id: RequestID(id), method: "highlight/matches", params: ["textDocument": ["uri": .string(uri)]])
        }
        session.server.handle(tokens(2, large))
        session.server.handle(tokens(3, small))
        // The small document's request is answered before the large message is decoded; the large one's waits.
        #expect(session.answeredIDs == [1, 3])
        session.runJobs()
        #expect(session.answeredIDs == [1, 3, 2])
        guard case .success(let matches)? = session.answers.last?.result else {
            Issue.record("no matches for the large document: \(String(describing: session.answers.last))")
            return
        }
        #expect(matches.arrayValue?.count == 80_000)
    }

    @Test func anUndecodableLargeMessageIsAnsweredWithItsError() {
        let session = Session()
        var body = Array(#"{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///a"}},"x":""#.utf8)
        body += [UInt8](repeating: UInt8(ascii: "a"), count: 10) + [0xFF] + Array(#""}"#.utf8)
        session.server.receive(undecoded: body, aboutDocument: "file:///a")
        session.runJobs()
        guard case .failure(let error)? = session.answers.last?.result else {
            Issue.record("no error answer: \(session.answers)")
            return
        }
        #expect(error.code == ResponseError.parseErrorCode)
    }
}
