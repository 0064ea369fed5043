// Threads of their own, and a condition to wait on, straight from POSIX.
//
// The server's reader, writer and parent watcher, and the scanner's helpers while every pooled
// thread is busy, each need a thread that is not Dispatch's; the server's queues need a lock
// with a condition. Foundation's `Thread` and `NSCondition` would do, but they are the only
// things that would bring the whole of Foundation into the binary (its internationalisation
// tables are most of its size, and the runtime looks through all of its conformances at
// start-up); FoundationEssentials has neither.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with a condition variable: `lock`, check a predicate, `wait` while it does not hold, and `signal` or
/// `broadcast` after changing what it reads (with the lock held).
public final class Condition: @unchecked Sendable {
    // Allocated once and never moved: pthread objects must keep their address.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let variable = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(variable, nil)
    }

    deinit {
        pthread_cond_destroy(variable)
        pthread_mutex_destroy(mutex)
        variable.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Unlocks, sleeps until signalled (or woken spuriously), and locks again. Call with the lock held, in a loop
    /// over the predicate.
    public func wait() { pthread_cond_wait(variable, mutex) }

    /// As `wait()`, but returns false once `deadline` (`Deadline(secondsFromNow:)`) has passed.
    public func wait(until deadline: Deadline) -> Bool {
        var time = deadline.time
        return pthread_cond_timedwait(variable, mutex, &time) != ETIMEDOUT
    }

    /// Wakes one waiter.
    func signal() { pthread_cond_signal(variable) }

    /// Wakes every waiter.
    public func broadcast() { pthread_cond_broadcast(variable) }

    /// A moment on the clock that `wait(until:)` measures against (the realtime clock, pthread's default).
    public struct Deadline: Sendable {
        fileprivate var time: timespec

        /// `seconds` from now (negative and non-finite values count as none).
        public init(secondsFromNow seconds: Double) {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            let wait = seconds.isFinite ? min(max(seconds, 0), 1e9) : 0
            let whole = Int(wait)
            var nanoseconds = Int(now.tv_nsec) + Int((wait - Double(whole)) * 1e9)
            var total = Int(now.tv_sec) + whole
            if nanoseconds >= 1_000_000_000 {
                nanoseconds -= 1_000_000_000
                total += 1
            }
            time = timespec(tv_sec: time_t(total), tv_nsec: nanoseconds)
        }
    }
}

/// Starts a detached thread that runs `body`, on a stack of `stackBytes` (nil: the system's default); false, and
/// `body` never runs, when the system has no thread to give.
@discardableResult
public func startThread(stackBytes: Int? = nil, _ body: @escaping @Sendable () -> Void) -> Bool {
    let start = Unmanaged.passRetained(ThreadStart(body: body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    if let stackBytes { pthread_attr_setstacksize(&attributes, max(stackBytes, Int(PTHREAD_STACK_MIN))) }
    #if os(Linux)
    var thread = pthread_t()
    #else
    var thread: pthread_t?
    #endif
    let result = pthread_create(&thread, &attributes, { context in
        guard let context = context as UnsafeMutableRawPointer? else { return nil }
        let start = Unmanaged<ThreadStart>.fromOpaque(context).takeRetainedValue()
        start.body()
        return nil
    }, start)
    if result != 0 {
        Unmanaged<ThreadStart>.fromOpaque(start).release()
        return false
    }
    return true
}

/// What a new thread runs, handed to it through pthread's context pointer.
private final class ThreadStart {
    let body: @Sendable () -> Void

    init(body: @escaping @Sendable () -> Void) { self.body = body }
}
