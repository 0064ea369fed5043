import Threads

// Jobs that wait on a subprocess (git), run a few at a time on threads of their own, and their results handed back
// in the order the jobs were added, each as soon as it and those before it are done:
//
//     add(a, job) add(b, none) add(c, job) ...      calling thread, in walk order
//         │                       │
//         ▼                       ▼
//     [ worker ] [ worker ]   at most `width` jobs at once (one a core: each job is a git process)
//         │                       │
//         └──── results ──────────┴──▶ ready(a), ready(b), ready(c)   calling thread, same order

/// A bounded pool of threads that run jobs, whose results are taken by ticket.
final class JobPool<Output: Sendable>: @unchecked Sendable {
    // Every stored `var` below is read and written with `condition` locked; that is what makes the class Sendable.
    private let condition = Condition()
    private var jobs: [(ticket: Int, job: @Sendable () -> Output)] = []
    private var firstJob = 0
    private var results: [Int: Output] = [:]
    private var nextTicket = 0
    private var threads = 0
    private var closed = false
    private let width: Int

    /// A pool that runs at most `width` jobs at once.
    init(width: Int) {
        self.width = max(1, width)
    }

    /// Queues `job`, starting a thread for it while there are fewer than `width`; returns its ticket. A job the
    /// system has no thread for runs on the calling thread, at once.
    func add(_ job: @escaping @Sendable () -> Output) -> Int {
        condition.lock()
        let ticket = nextTicket
        nextTicket += 1
        let startsThread = threads < width
        if startsThread { threads += 1 }
        jobs.append((ticket, job))
        condition.broadcast()
        condition.unlock()
        if startsThread, !startThread({ [self] in work() }) {
            condition.lock()
            threads -= 1
            condition.unlock()
            // With no thread to be had, the job runs here; it may be another queued before it, which is as good.
            work(untilEmpty: true)
        }
        return ticket
    }

    /// The result of the job `ticket`, waiting for it when `waits`; nil when it is not done and `waits` is false.
    func result(_ ticket: Int, waits: Bool) -> Output? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let done = results.removeValue(forKey: ticket) { return done }
            guard waits else { return nil }
            condition.wait()
        }
    }

    /// Lets the threads end once the queue is empty.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Runs queued jobs until the pool is closed and empty (or, `untilEmpty`, until it is empty).
    private func work(untilEmpty: Bool = false) {
        while true {
            condition.lock()
            while firstJob == jobs.count, !closed, !untilEmpty { condition.wait() }
            guard firstJob < jobs.count else {
                if !untilEmpty { threads -= 1 }
                condition.unlock()
                return
            }
            let (ticket, job) = jobs[firstJob]
            firstJob += 1
            if firstJob == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                firstJob = 0
            }
            condition.unlock()
            let output = job()
            condition.lock()
            results[ticket] = output
            condition.broadcast()
            condition.unlock()
        }
    }
}

/// Items in the order they were added, each waiting for its job's result or needing none; `ready` gets them in that
/// order as soon as each and those before it are done.
struct OrderedJobs<Item, Output: Sendable> {
    private let pool: JobPool<Output>
    // An item handed on is dropped at once (nil), so that a file's matches are freed once it is written.
    private var waiting: [(item: Item?, ticket: Int?)] = []
    private var first = 0

    init(width: Int) {
        pool = JobPool(width: width)
    }

    /// Adds `item`, with the job whose result it waits for (nil: none), then hands on every item that is ready.
    mutating func add(_ item: Item, job: (@Sendable () -> Output)?, ready: (Item, Output?) -> Void) {
        waiting.append((item, job.map { pool.add($0) }))
        handOn(waits: false, ready: ready)
    }

    /// Hands on every item, waiting for the jobs still running; the pool's threads end.
    mutating func finish(ready: (Item, Output?) -> Void) {
        handOn(waits: true, ready: ready)
        pool.close()
    }

    private mutating func handOn(waits: Bool, ready: (Item, Output?) -> Void) {
        while first < waiting.count {
            let (item, ticket) = waiting[first]
            var output: Output?
            if let ticket {
                guard let done = pool.result(ticket, waits: waits) else { return }
                output = done
            }
            waiting[first].item = nil
            first += 1
            if let item { ready(item, output) }
        }
        waiting.removeAll(keepingCapacity: true)
        first = 0
    }
}
