import JSONRPC
import Synchronization

@testable import LanguageServer

/// Jobs a test runs when it chooses, in the order it chooses, and the server that hands them over.
final class ManualJobs: Sendable {
    typealias Job = (id: Int, work: @Sendable () -> JobResult)

    let pending = Mutex<[Job]>([])

    /// A server whose jobs wait here and whose messages go to `outbox`.
    func server(sendingTo outbox: Outbox) -> Server {
        Server(
            send: { outbox.messages.append($0) }, log: { _ in },
            jobRunner: { id, work in self.pending.withLock { $0.append((id, work)) } }, jobSend: { _ in })
    }

    /// The number of jobs waiting.
    var count: Int { pending.withLock { $0.count } }

    /// Runs every waiting job in order, and the jobs those start, handing each result to `server`;
    /// returns how many ran.
    @discardableResult
    func runAll(on server: Server) -> Int {
        var ran = 0
        while let job = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            server.finishJob(job.id, result: job.work())
            ran += 1
        }
        return ran
    }
}

/// The messages a server sent, in order.
final class Outbox {
    var messages: [Message] = []
}
