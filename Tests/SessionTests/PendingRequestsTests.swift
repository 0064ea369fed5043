import JSONRPC
import JSONValue
import Testing

@testable import LanguageServer

/// The runner's note of cancellations: kept only for requests received and still waiting.
@Suite struct PendingRequestsTests {
    /// A step of a table case: a request put in the inbox, a cancellation read, or the loop taking a request.
    enum Step {
        case received(Int)
        case cancel(Int, kept: Bool)
        case take(Int, cancelled: Bool)
    }

    static let cases: [(String, [Step])] = [
        ("a cancellation of a waiting request cancels it", [.received(1), .cancel(1, kept: true), .take(1, cancelled: true)]),
        ("a cancellation before its request is not kept", [.cancel(1, kept: false), .received(1), .take(1, cancelled: false)]),
        ("a cancellation after the loop took the request is not kept (the server handles it)",
            [.received(1), .take(1, cancelled: false), .cancel(1, kept: false)]),
        ("a cancellation of another id leaves the request alone",
            [.received(1), .cancel(2, kept: false), .take(1, cancelled: false), .received(2), .take(2, cancelled: false)]),
        ("a reused id: the cancellation applies once, to the request taken next",
            [.received(1), .received(1), .cancel(1, kept: true), .take(1, cancelled: true), .take(1, cancelled: false)]),
        ("a cancellation is used up: the id reused later is not cancelled",
            [.received(1), .cancel(1, kept: true), .take(1, cancelled: true), .received(1), .take(1, cancelled: false)]),
        ("cancelling twice cancels once", [.received(1), .cancel(1, kept: true), .cancel(1, kept: true), .take(1, cancelled: true)]),
    ]

    @Test(arguments: cases)
    func table(name: String, steps: [Step]) {
        var requests = PendingRequests()
        for (index, step) in steps.enumerated() {
            switch step {
            case .received(let id):
                requests.received(RequestID(id))
            case .cancel(let id, let kept):
                let noted = requests.cancel(RequestID(id))
                #expect(noted == kept, "\(name), step \(index)")
            case .take(let id, let cancelled):
                let wasCancelled = requests.take(RequestID(id))
                #expect(wasCancelled == cancelled, "\(name), step \(index)")
            }
        }
        #expect(requests.waitingCount == 0, "\(name): requests left waiting")
    }

    /// Ids that differ only past a double's precision are different requests.
    @Test func idsAreComparedByTheirExactText() {
        var requests = PendingRequests()
        requests.received(RequestID(.number("12345678901234567890123")))
        let near = requests.cancel(RequestID(.number("12345678901234567890124")))
        let rounded = requests.cancel(RequestID(.integer(Int.min)))
        let exact = requests.cancel(RequestID(.number("12345678901234567890123")))
        let taken = requests.take(RequestID(.number("12345678901234567890123")))
        #expect(!near && !rounded && exact && taken)
    }
}
