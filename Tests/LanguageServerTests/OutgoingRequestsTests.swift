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
        server.client.semanticTokensRefresh = true
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

    /// A request the client did not announce is never sent, and its completion hears so at once.
    @Test func aRequestTheClientDidNotAnnounceIsNotSent() {
        var sent: [String] = []
        let server = Server(send: { message in
            if case .request(_, let method, _) = message { sent.append(method) }
        }, log: { _ in })
        var failures: [Int] = []
        let register: JSON = ["registrations": [["id": "a", "method": "workspace/didChangeWatchedFiles"]]]
        for (method, params) in [("workspace/semanticTokens/refresh", nil), ("workspace/applyEdit", ["edit": [:]]),
                                 ("client/registerCapability", register), ("window/showDocument", ["uri": "file:///a"])] as [(String, JSON?)] {
            server.sendRequest(method, params: params) { result in
                if case .failure(let error) = result { failures.append(error.code) }
            }
        }
        #expect(sent.isEmpty)
        #expect(failures == Array(repeating: -32601, count: 4))
        server.client.watchedFilesDynamicRegistration = true
        server.client.applyEdit = true
        server.sendRequest("client/registerCapability", params: register)
        server.sendRequest("workspace/applyEdit", params: ["edit": [:]])
        #expect(sent == ["client/registerCapability", "workspace/applyEdit"])
    }
}
