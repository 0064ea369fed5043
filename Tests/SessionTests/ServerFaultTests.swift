import Foundation
import JSONRPC
import JSONValue
@testable import LanguageServer
import Seeded
import ServerFuzzing
import Testing

/// Faults inside the server, in process: failing handlers, clients that never answer, and the
/// seeded edit-sequence fuzzer (the same code as `highlight-fuzz` with HIGHLIGHT_FUZZ_TARGET=edits).
@Suite struct ServerFaultTests {
    private func makeServer() -> (Server, Outbox) {
        let outbox = Outbox()
        let server = Server(send: { outbox.messages.append($0) }, log: { _ in })
        return (server, outbox)
    }

    struct UnexpectedFailure: Error, CustomStringConvertible {
        var description: String { "the disk went away" }
    }

    /// A handler that fails with anything but a ResponseError answers -32603 naming the method,
    /// exactly once, and the server goes on.
    @Test func aFailingHandlerAnswersInternalError() {
        let (server, outbox) = makeServer()
        server.handle(.request(id: RequestID(1), method: "initialize", params: ["capabilities": [:]]))
        server.answer(RequestID(.string("x")), method: "workspace/symbol") { () throws -> Server.Reply in throw UnexpectedFailure() }
        let responses = outbox.messages.compactMap { message -> Result<JSON, ResponseError>? in
            guard case .response(RequestID(.string("x")), let result) = message else { return nil }
            return result
        }
        #expect(responses.count == 1)
        guard case .failure(let error)? = responses.first else {
            Issue.record("expected an error response")
            return
        }
        #expect(error.code == ResponseError.internalErrorCode)
        #expect(error.message == "workspace/symbol failed: the disk went away")
        // The server goes on.
        outbox.messages.removeAll()
        server.handle(.request(id: RequestID(2), method: "shutdown", params: nil))
        #expect(outbox.messages.contains { if case .response(RequestID(2), .success(.null)) = $0 { true } else { false } })
    }

    /// A client that never answers `workspace/configuration` does not make the server's table of
    /// pending requests grow.
    @Test func unansweredServerRequestsStayBounded() {
        let (server, outbox) = makeServer()
        server.handle(.request(id: RequestID(1), method: "initialize", params: ["capabilities": ["workspace": ["configuration": true]]]))
        server.handle(.notification(method: "initialized", params: [:]))
        for _ in 0..<10_000 {
            server.handle(.notification(method: "workspace/didChangeConfiguration", params: ["settings": [:]]))
        }
        let sent = outbox.messages.filter { if case .request(_, "workspace/configuration", _) = $0 { true } else { false } }
        #expect(sent.count == 10_001)
        #expect(server.pendingOutgoingRequests.count <= 64)
    }

    /// Random rule sets and edit sequences (a printed seed per case): an edited document always
    /// has the matches and tokens of a fresh copy of its text.
    @Test(arguments: 0..<8)
    func seededEditSequences(block: Int) {
        for round in 0..<40 {
            let seed = UInt64(block * 1000 + round)
            var random = SplitMix64(seed: seed)
            let bytes = random.bytes(64 + Int(random.next() % 400))
            let failures = EditSequenceFuzzing.run(bytes)
            for failure in failures.prefix(3) {
                Issue.record("seed \(seed): \(failure)")
            }
        }
    }
}
