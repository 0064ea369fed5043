import JSONRPC
import JSONValue
import Testing

@testable import LanguageServer

/// The server's own requests that the client never answers are bounded, and the ones given up
/// are the oldest.
@Suite struct OutgoingRequestsTests {
    @Test func theOldestUnansweredRequestsAreGivenUp() {
        var sent: [RequestID] = []
        let server = Server(send: { message in
            if case .request(let id, _, _) = message { sent.append(id) }
        }, log: { _ in })
        let limit = Server.maximumPendingOutgoingRequests
        var answered: [Int] = []
        for index in 0..<(limit + 3) {
            server.sendRequest("workspace/semanticTokens/refresh", params: nil) { _ in answered.append(index) }
        }
        #expect(server.pendingOutgoingRequests.count == limit)
        // Answers to the first three were given up on; every later one still arrives, in any order.
        for index in [limit + 2, 0, 3, 1, 2, limit] {
            server.handle(.response(id: sent[index], result: .success(.null)))
        }
        #expect(answered == [limit + 2, 3, limit])
    }
}
