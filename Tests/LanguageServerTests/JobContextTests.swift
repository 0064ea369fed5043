import JSONRPC
import JSONValue
import Synchronization
import Testing

@testable import LanguageServer

/// A job's progress stops at its request's answer: LSP ends partial results with the response,
/// and a superseded or cancelled request is answered while its job may still be running.
@Suite struct JobContextTests {
    @Test func nothingFollowsTheAnswerAndOpenProgressIsEnded() {
        let sent = Mutex<[JSON]>([])
        let context = JobContext { message in
            if case .notification("$/progress", let params) = message, let params { sent.withLock { $0.append(params) } }
        }
        context.sendProgress(token: "work", value: ["kind": "begin", "title": "scanning"])
        context.sendProgress(token: "partial", value: [["name": "TODO"]])
        context.answer()
        context.sendProgress(token: "partial", value: [["name": "late"]])
        context.sendProgress(token: "work", value: ["kind": "end"])
        context.answer()
        let values = sent.withLock { $0 }
        #expect(values == [
            ["token": "work", "value": ["kind": "begin", "title": "scanning"]],
            ["token": "partial", "value": [["name": "TODO"]]],
            ["token": "work", "value": ["kind": "end"]],
        ])
    }
}
