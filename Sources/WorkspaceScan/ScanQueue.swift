import Dispatch
import Synchronization

// The hand-over between a walk and the workers that scan what it finds. The
// walker gathers files in small batches (16 files, or fewer that make a
// megabyte) and appends each batch with one
// semaphore signal (a signal per file would wake a worker per file: a futex
// call and a context switch each, which costs more than reading a small
// file); a worker waits on the semaphore, takes the next batch and stores
// its results at the batch's place in walk order. When the walk ends, one
// extra signal per worker lets each of them find the queue empty and stop.
// Once the walk is over, the walking thread takes the results back in walk
// order as soon as a batch and all before it are done, so that a report is
// written while later files are still searched, and results handed on are
// not kept.

/// A work queue fed by a walk and drained by scanning workers, keeping results in walk order.
final class ScanQueue: Sendable {
    /// Files handed over at once, at most.
    static let batchSize = 16
    /// Bytes handed over at once: a batch ends at the file that reaches this size, so that a few large files are
    /// spread over the workers rather than searched one after another by the worker that took their batch.
    static let batchBytes = 1 << 20
    /// Files handed over at once when the walk does not look up their sizes (`WorkspaceWalker.Options.readsFileStatus`):
    /// few, so that large files still spread over the workers.
    static let unsizedBatchSize = 4

    private struct State {
        var batches: [[ScanItem]] = []
        /// Per batch, its results once stored; nil again once handed back.
        var results: [[ScannedFile]?] = []
        var next = 0
        /// The first batch whose results were not handed back.
        var delivered = 0
    }

    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    /// Signalled at each store, for the walking thread waiting on results.
    private let stored = DispatchSemaphore(value: 0)

    /// Appends a batch of files found by the walk.
    func add(_ files: [ScanItem]) {
        guard !files.isEmpty else { return }
        state.withLock { state in
            state.batches.append(files)
            state.results.append(nil)
        }
        available.signal()
    }

    /// Wakes the `workers` so that each finds the queue drained and stops; no file may be added afterwards.
    func finish(workers: Int) {
        for _ in 0..<workers { available.signal() }
    }

    /// The next batch and its place; blocks until there is one, nil once the walk is over and every batch taken.
    func take() -> (Int, [ScanItem])? {
        available.wait()
        return state.withLock { state in
            guard state.next < state.batches.count else { return nil }
            defer { state.next += 1 }
            return (state.next, state.batches[state.next])
        }
    }

    /// Whether a batch waits to be taken: a worker that sees one may search a large file on its own core only, since
    /// other workers have files to search meanwhile.
    var hasWaitingBatches: Bool {
        state.withLock { $0.next < $0.batches.count }
    }

    /// Stores the results of the batch at `index`.
    func store(_ results: [ScannedFile], at index: Int) {
        state.withLock { state in
            if state.results.indices.contains(index) { state.results[index] = results }
        }
        stored.signal()
    }

    /// The results of the batches that are done, in walk order, from the first not handed back up to the first not
    /// done; each is handed back once.
    private func doneResults() -> [ScannedFile] {
        state.withLock { state in
            var done: [ScannedFile] = []
            while state.delivered < state.results.count, let results = state.results[state.delivered] {
                done += results
                state.results[state.delivered] = nil
                state.delivered += 1
            }
            return done
        }
    }

    /// The results of the next batches to be done, in walk order, waiting for them; nil once every batch added was
    /// handed back. Call once the walk has added its last batch.
    func nextResults() -> [ScannedFile]? {
        while true {
            let done = doneResults()
            if !done.isEmpty { return done }
            if state.withLock({ $0.delivered == $0.results.count }) { return nil }
            stored.wait()
        }
    }
}
