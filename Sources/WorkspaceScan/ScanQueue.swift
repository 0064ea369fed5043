import Dispatch
import Synchronization

// The hand-over between a walk and the workers that scan what it finds. The
// walker gathers files in small batches (16 files, or fewer that make a
// megabyte) and appends each batch with one
// semaphore signal (a signal per file would wake a worker per file: a futex
// call and a context switch each, which costs more than reading a small
// file); a worker waits on the semaphore, takes the next batch and stores
// each file's result at the batch's place in walk order. When the walk ends,
// one extra signal per worker lets each of them find the queue empty and stop.
// Once the walk is over, the walking thread takes the results back in walk
// order as soon as they and all before them are done, so that a report is
// written while later files are still searched, and results handed on are
// not kept. It is woken once eight batches are complete, or the last, or at
// a file with many matches: a batch of four 7 MB files held whole until its
// last was done made a thousand-word `list` hold 220 MB of matches. What a
// worker stores is the caller's to choose (`Result`): the command line
// stores each file's report as bytes, written by the worker, so that the
// matches are freed where they were made and the walking thread only copies
// bytes out in order.

/// A work queue fed by a walk and drained by scanning workers, keeping results in walk order.
final class ScanQueue<Result: Sendable>: Sendable {
    /// Files handed over at once, at most.
    static var batchSize: Int { 16 }
    /// Bytes handed over at once: a batch ends at the file that reaches this size, so that a few large files are
    /// spread over the workers rather than searched one after another by the worker that took their batch.
    static var batchBytes: Int { 1 << 20 }
    /// Files handed over at once when the walk does not look up their sizes (`WorkspaceWalker.Options.readsFileStatus`):
    /// few, so that large files still spread over the workers.
    static var unsizedBatchSize: Int { 4 }


    private struct State {
        var batches: [[ScanItem]] = []
        /// Per batch, the results stored so far, in the batch's order; each nil again once handed back.
        var results: [[Result?]] = []
        /// Per batch, whether all its results are stored.
        var complete: [Bool] = []
        var next = 0
        /// The first batch whose results were not all handed back, and how many of them were.
        var delivered = 0
        var deliveredInBatch = 0
        /// Batches complete and not handed back.
        var completeWaiting = 0
        /// Whether the walk added its last batch.
        var walkOver = false

        /// Whether the walking thread, waiting for results, should be woken: once a few batches are complete (a wake
        /// a batch, four small files, was a futex call and a context switch each, 1,400 of them in a `list` of
        /// `/usr/include`), or the last one.
        var worthWaking: Bool {
            completeWaiting >= ScanQueue.batchesWokenFor || (walkOver && delivered + completeWaiting == results.count)
        }
    }

    /// Batches that complete before the walking thread is woken to hand their results back (unless a large result
    /// or the last batch wakes it sooner).
    static var batchesWokenFor: Int { 8 }

    private let state = Mutex(State())
    /// Batches added and not taken, and taken and not complete: counted apart from `state` (and changed only under
    /// its lock), so that `keepsBusy`, asked once a file, takes no lock.
    private let waiting = Atomic<Int>(0)
    private let inProgress = Atomic<Int>(0)
    private let available = DispatchSemaphore(value: 0)
    /// Signalled at each store, for the walking thread waiting on results.
    private let stored = DispatchSemaphore(value: 0)

    /// Appends a batch of files found by the walk.
    func add(_ files: [ScanItem]) {
        guard !files.isEmpty else { return }
        state.withLock { state in
            state.batches.append(files)
            state.results.append([])
            state.complete.append(false)
            waiting.add(1, ordering: .relaxed)
        }
        available.signal()
    }

    /// Wakes the `workers` so that each finds the queue drained and stops; no file may be added afterwards.
    func finish(workers: Int) {
        let wakes = state.withLock { state in
            state.walkOver = true
            return state.worthWaking
        }
        if wakes { stored.signal() }
        for _ in 0..<workers { available.signal() }
    }

    /// The next batch and its place; blocks until there is one, nil once the walk is over and every batch taken.
    func take() -> (Int, [ScanItem])? {
        available.wait()
        return state.withLock { state in
            guard state.next < state.batches.count else { return nil }
            defer {
                state.next += 1
                waiting.subtract(1, ordering: .relaxed)
                inProgress.add(1, ordering: .relaxed)
            }
            return (state.next, state.batches[state.next])
        }
    }

    /// Whether each of `workers` has files to search, or a batch waits to be taken: a worker that sees it may search a
    /// large file on its own core, since no core is left idle meanwhile.
    func keepsBusy(workers: Int) -> Bool {
        waiting.load(ordering: .relaxed) > 0 || inProgress.load(ordering: .relaxed) >= workers
    }

    /// Stores the results of the next files of the batch at `index` (through its last when `last`), and wakes the
    /// walking thread when enough batches are complete (see `State.worthWaking`), or when `wakes` (results worth
    /// handing back before the rest of the batch: see `isWorthHandingBack`).
    func store(_ results: [Result?], at index: Int, last: Bool, wakes: Bool = false) {
        let worthWaking = state.withLock { state in
            guard state.results.indices.contains(index) else { return false }
            state.results[index].append(contentsOf: results)
            guard last else { return false }
            state.complete[index] = true
            state.completeWaiting += 1
            inProgress.subtract(1, ordering: .relaxed)
            return state.worthWaking
        }
        if worthWaking || wakes { stored.signal() }
    }

    /// The results that are done, in walk order, from the first not handed back up to the first not done; each is
    /// handed back once, and the queue keeps no reference to it. Does not wait.
    func doneResults() -> [Result] {
        state.withLock { state in
            var done: [Result] = []
            while state.delivered < state.results.count {
                let batch = state.delivered
                while state.deliveredInBatch < state.results[batch].count {
                    if let result = state.results[batch][state.deliveredInBatch].take() { done.append(result) }
                    state.deliveredInBatch += 1
                }
                guard state.complete[batch] else { break }
                state.results[batch] = []
                state.completeWaiting -= 1
                state.delivered += 1
                state.deliveredInBatch = 0
            }
            return done
        }
    }

    /// The results of the next batches to be done, in walk order, waiting for them; nil once every batch added was
    /// handed back. Call once the walk has added its last batch.
    func nextResults() -> [Result]? {
        while true {
            let done = doneResults()
            if !done.isEmpty { return done }
            if state.withLock({ $0.delivered == $0.results.count }) { return nil }
            stored.wait()
        }
    }
}

/// The matches that make a file's result worth handing back on its own (`isWorthHandingBack`).
let matchesHandedBackAlone = 4_096

/// Whether a file's result is large enough to be handed back as soon as it and the files before it are done,
/// rather than with the rest of its batch: results that large are what a scan's memory holds.
func isWorthHandingBack(_ result: ScannedFile) -> Bool {
    result.matches.count >= matchesHandedBackAlone
}
