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

    /// A large `didOpen`'s text is decoded straight into the document's bytes, never a `String`:
    /// escapes, non-ASCII and a lone surrogate come out as the whole decode gives them, and a
    /// message that is no `didOpen` is decoded whole.
    @Test func aLargeDidOpensTextBecomesTheDocumentsBytes() throws {
        let session = Session()
        let uri = "file:///large.txt"
        let text = String(repeating: "TODO \"é\" \\ \t 👍 line\r\n", count: 40_000) + "\u{FFFD} end"
        let params: JSON = ["textDocument": ["uri": .string(uri), "languageId": "plaintext", "version": 3, "text": .string(text)]]
        var opening = Self.body(.notification(method: "textDocument/didOpen", params: params))
        // A lone surrogate escape, which decodes to U+FFFD, in place of the one written above.
        let replacement = Array("\u{FFFD}".utf8)
        let at = try #require(opening.indices.last { Array(opening[$0...].prefix(3)) == replacement })
        opening.replaceSubrange(at..<(at + 3), with: Array(#"\udc00"#.utf8))
        guard case .opening(let message, let bytes) = Server.decodeDocumentMessage(body: opening) else {
            Issue.record("the didOpen was decoded whole")
            return
        }
        #expect(bytes == Array(text.utf8))
        #expect(message.json["params"]?["textDocument"]?["text"] == .null)
        session.server.receive(undecoded: opening, aboutDocument: uri)
        session.runJobs()
        #expect(session.server.documents[uri]?.text.utf8 == Array(text.utf8))
        #expect(session.server.documents[uri]?.version == 3)

        let change = Self.body(.notification(method: "textDocument/didChange", params: [
            "textDocument": ["uri": .string(uri), "version": 4, "text": .string(text)], "contentChanges": [],
        ]))
        guard case .incoming(.valid) = Server.decodeDocumentMessage(body: change) else {
            Issue.record("a didChange was decoded as an opening")
            return
        }
    }

    /// The text of a didOpen handed over as the body's only reference is decoded in the body's storage: no second
    /// buffer of its size. A text with a bad escape leaves the body as it came, decoded whole (and found invalid).
    @Test func aDidOpensTextIsDecodedInTheBodysOwnStorage() {
        let text = String(repeating: "let x = \"TODO\" // é\n", count: 5_000)
        let params: JSON = ["textDocument": ["uri": "file:///a.swift", "languageId": "swift", "version": 1, "text": .string(text)]]
        let body = Self.body(.notification(method: "textDocument/didOpen", params: params))
        let address = body.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        guard case .opening(_, let bytes) = Server.decodeDocumentMessage(body: consume body) else {
            Issue.record("the didOpen was decoded whole")
            return
        }
        #expect(bytes == Array(text.utf8))
        #expect(bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == address)

        var broken = Self.body(.notification(method: "textDocument/didOpen", params: params))
        let escape = broken.indices.last { broken[$0] == UInt8(ascii: "\\") && broken[$0 + 1] == UInt8(ascii: "n") }
        if let escape { broken[escape + 1] = UInt8(ascii: "q") }
        guard case .incoming(.invalid) = Server.decodeDocumentMessage(body: broken) else {
            Issue.record("a didOpen with a bad escape was not found invalid")
            return
        }
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
