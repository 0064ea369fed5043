import Dispatch
import Synchronization

// The hand-over between a walk and the workers that scan what it finds. The
// walker appends files as it meets them and signals a semaphore once per
// file; a worker waits on the semaphore, takes the next file in walk order
// and stores its result at that file's place. When the walk ends, one extra
// signal per worker lets each of them find the queue empty and stop.

/// A work queue fed by a walk and drained by scanning workers, keeping results in walk order.
final class ScanQueue: Sendable {
    private struct State {
        var files: [WalkedFile] = []
        var results: [ScannedFile?] = []
        var next = 0
    }

    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)

    /// Appends a file found by the walk.
    func add(_ file: WalkedFile) {
        state.withLock { state in
            state.files.append(file)
            state.results.append(nil)
        }
        available.signal()
    }

    /// Wakes the `workers` so that each finds the queue drained and stops; no file may be added afterwards.
    func finish(workers: Int) {
        for _ in 0..<workers { available.signal() }
    }

    /// The next file and its place in walk order; blocks until there is one, nil once the walk is over and every file taken.
    func take() -> (Int, WalkedFile)? {
        available.wait()
        return state.withLock { state in
            guard state.next < state.files.count else { return nil }
            defer { state.next += 1 }
            return (state.next, state.files[state.next])
        }
    }

    /// Stores the result of the file at `index` in walk order.
    func store(_ result: ScannedFile, at index: Int) {
        state.withLock { state in
            if state.results.indices.contains(index) { state.results[index] = result }
        }
    }

    /// The results in walk order (those stored so far).
    func results() -> [ScannedFile] {
        state.withLock { $0.results.compactMap { $0 } }
    }
}
