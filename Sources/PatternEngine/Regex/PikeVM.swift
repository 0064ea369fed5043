// The Pike VM: a breadth-first simulation of the NFA, one step per byte.
//
// Threads live in an ordered list; each NFA state appears at most once per
// position (the first thread to reach it wins), so a step costs O(states) and
// a search O(text x states), whatever the pattern.
//
// Leftmost-first search (RE2's default). Threads are kept in priority order:
// the order in which a backtracking matcher would try them (alternation
// branches as written, greedy repetitions preferring another round, lazy ones
// preferring to stop), and a thread for a new start is appended after all
// others, so an earlier start always outranks a later one. When a thread
// reaches `match`, the match is recorded and every lower-priority thread
// (those after it) is dropped, as are new starts; the higher-priority threads
// run on and replace the match if one of them matches later. The last match
// recorded is the leftmost-first match.
//
// Leftmost-longest search. Threads carry the position where they started and
// the list is kept sorted by start: surviving threads keep their order and a
// thread for a new start is appended after them. When two threads reach the
// same state, the earlier start wins, which is right because their futures
// are identical and the earlier start is preferred. When a thread reaches
// `match`, every thread with a later start is dropped and no new starts are
// made; threads with the same or an earlier start run on, since they may
// still produce a longer (same start) or more leftmost (earlier start) match.
// The search ends when no thread is left.
//
// Captures. `captures` runs a second NFA that carries capture slots, anchored
// at the known match start, and reads the slots of the highest-priority thread
// (union targets in written order, as a backtracker would try them) that
// reaches `match` exactly at the known match end: sub-matches follow
// leftmost-first (Perl) rules within the overall leftmost-longest match.

/// Reusable buffers for Pike VM runs (sized for one NFA).
struct PikeVMScratch: Sendable {
    fileprivate var closure = ClosureScratch()
    fileprivate var currentStates: [Int32] = []
    fileprivate var currentStarts: [Int] = []
    fileprivate var nextStates: [Int32] = []
    fileprivate var nextStarts: [Int] = []
}

/// Membership stamps and a stack for epsilon closures.
struct ClosureScratch: Sendable {
    var stamps: [UInt32] = []
    var generation: UInt32 = 0
    var stack: [Int32] = []

    /// Starts a new list: every state counts as absent again.
    mutating func newGeneration(stateCount: Int) {
        if stamps.count != stateCount {
            stamps = Array(repeating: 0, count: stateCount)
            generation = 0
        }
        if generation == UInt32.max {
            for index in stamps.indices { stamps[index] = 0 }
            generation = 0
        }
        generation += 1
    }
}

/// Side classes at one position, computed on first use (most steps need none).
private struct PositionContext {
    let position: Int
    private var left: SideClass?
    private var right: SideClass?

    init(position: Int) {
        self.position = position
    }

    mutating func holds(_ kind: LookKind, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        let leftClass = left ?? SideClass.before(position, in: text)
        let rightClass = right ?? SideClass.after(position, in: text)
        left = leftClass
        right = rightClass
        return kind.holds(left: leftClass, right: rightClass)
    }
}

/// NFA simulation engines.
enum PikeVM {
    /// The leftmost, then longest, match of `nfa` starting at or after `from`; `nfa` must admit only non-empty matches.
    ///
    /// - Complexity: O((n - from) x m) for n text bytes and m NFA states.
    static func leftmostLongest(
        _ nfa: NFA, in text: UnsafeBufferPointer<UInt8>, from: Int, scratch: inout PikeVMScratch
    ) -> Range<Int>? {
        search(nfa, in: text, from: from, kind: .leftmostLongest, scratch: &scratch)
    }

    /// The match of `nfa` starting at or after `from` under `kind`; `nfa` must admit only non-empty matches.
    ///
    /// - Complexity: O((n - from) x m) for n text bytes and m NFA states.
    static func search(
        _ nfa: NFA, in text: UnsafeBufferPointer<UInt8>, from: Int, kind: RegexMatchKind, scratch: inout PikeVMScratch
    ) -> Range<Int>? {
        let count = text.count
        guard from >= 0 && from < count else { return nil }
        // The lists move into locals for the run, so the closure scratch can be borrowed alongside them.
        var currentStates = scratch.currentStates
        var currentStarts = scratch.currentStarts
        var nextStates = scratch.nextStates
        var nextStarts = scratch.nextStarts
        var closure = scratch.closure
        scratch = PikeVMScratch()
        defer {
            scratch.currentStates = currentStates
            scratch.currentStarts = currentStarts
            scratch.nextStates = nextStates
            scratch.nextStarts = nextStarts
            scratch.closure = closure
        }
        currentStates.removeAll(keepingCapacity: true)
        currentStarts.removeAll(keepingCapacity: true)
        closure.newGeneration(stateCount: nfa.count)
        var context = PositionContext(position: from)
        addClosure(nfa, nfa.start, start: from, context: &context, text: text, states: &currentStates,
                   starts: &currentStarts, scratch: &closure)
        var bestStart = -1
        var bestEnd = -1
        var makesNewStarts = true
        var position = from
        while true {
            nextStates.removeAll(keepingCapacity: true)
            nextStarts.removeAll(keepingCapacity: true)
            closure.newGeneration(stateCount: nfa.count)
            var nextContext = PositionContext(position: position + 1)
            var cutoff = Int.max
            let byte: UInt8 = position < count ? text[position] : 0
            var index = 0
            while index < currentStates.count {
                let start = currentStarts[index]
                if start > cutoff { break }
                let state = currentStates[index]
                index += 1
                switch nfa.states[Int(state)] {
                case .match:
                    if kind == .leftmostFirst {
                        // Every thread after this one has a lower priority: drop them all.
                        bestStart = start
                        bestEnd = position
                        makesNewStarts = false
                        index = currentStates.count
                        break
                    }
                    if bestStart < 0 || start < bestStart || (start == bestStart && position > bestEnd) {
                        bestStart = start
                        bestEnd = position
                    }
                    cutoff = start
                    makesNewStarts = false
                case .bytes(let transition):
                    if position < count && transition.low <= byte && byte <= transition.high {
                        addClosure(nfa, transition.next, start: start, context: &nextContext, text: text,
                                   states: &nextStates, starts: &nextStarts, scratch: &closure)
                    }
                case .sparse(let transitions):
                    guard position < count else { break }
                    for transition in transitions where transition.low <= byte && byte <= transition.high {
                        addClosure(nfa, transition.next, start: start, context: &nextContext, text: text,
                                   states: &nextStates, starts: &nextStarts, scratch: &closure)
                    }
                default:
                    break
                }
            }
            if position >= count {
                break
            }
            if makesNewStarts {
                addClosure(nfa, nfa.start, start: position + 1, context: &nextContext, text: text,
                           states: &nextStates, starts: &nextStarts, scratch: &closure)
            }
            if nextStates.isEmpty && !makesNewStarts {
                break
            }
            swap(&currentStates, &nextStates)
            swap(&currentStarts, &nextStarts)
            position += 1
        }
        return bestStart >= 0 ? bestStart..<bestEnd : nil
    }

    /// Adds `state` and everything reachable from it without consuming input to a thread list.
    private static func addClosure(
        _ nfa: NFA, _ state: Int32, start: Int, context: inout PositionContext, text: UnsafeBufferPointer<UInt8>,
        states: inout [Int32], starts: inout [Int], scratch: inout ClosureScratch
    ) {
        scratch.stack.removeAll(keepingCapacity: true)
        scratch.stack.append(state)
        let generation = scratch.generation
        while let current = scratch.stack.popLast() {
            let index = Int(current)
            if scratch.stamps[index] == generation { continue }
            scratch.stamps[index] = generation
            switch nfa.states[index] {
            case .union(let targets):
                for target in targets.reversed() {
                    scratch.stack.append(target)
                }
            case .look(let kind, let next):
                if context.holds(kind, in: text) {
                    scratch.stack.append(next)
                }
            case .capture(_, let next):
                scratch.stack.append(next)
            case .fail:
                break
            case .bytes, .sparse, .match:
                states.append(current)
                starts.append(start)
            }
        }
    }

    // MARK: Captures

    /// Capture slots for the match `span`, following leftmost-first priority among the parses of exactly that span.
    ///
    /// `nfa` must have been compiled with captures. Returns one optional range per group, group 0 first.
    ///
    /// - Complexity: O((span length + 1) x m x slots) for m NFA states.
    static func captures(_ nfa: NFA, in text: UnsafeBufferPointer<UInt8>, span: Range<Int>) -> [Range<Int>?] {
        let slotCount = nfa.captureSlotCount
        let groupCount = slotCount / 2
        var result = [Range<Int>?](repeating: nil, count: max(groupCount, 1))
        guard span.lowerBound >= 0, span.upperBound <= text.count, slotCount >= 2 else { return result }

        var stamps = [UInt32](repeating: 0, count: nfa.count)
        var generation: UInt32 = 0
        var currentStates: [Int32] = []
        var currentSlots: [Int] = []
        var nextStates: [Int32] = []
        var nextSlots: [Int] = []
        var working = [Int](repeating: -1, count: slotCount)

        enum Frame {
            case explore(Int32)
            case restore(slot: Int, value: Int)
        }
        var stack: [Frame] = []

        func addClosure(_ state: Int32, position: Int, states: inout [Int32], slots: inout [Int]) {
            var context = PositionContext(position: position)
            stack.append(.explore(state))
            while let frame = stack.popLast() {
                switch frame {
                case .restore(let slot, let value):
                    working[slot] = value
                case .explore(let current):
                    let index = Int(current)
                    if stamps[index] == generation { continue }
                    stamps[index] = generation
                    switch nfa.states[index] {
                    case .union(let targets):
                        for target in targets.reversed() {
                            stack.append(.explore(target))
                        }
                    case .look(let kind, let next):
                        if context.holds(kind, in: text) {
                            stack.append(.explore(next))
                        }
                    case .capture(let slot, let next):
                        if slot < slotCount {
                            stack.append(.restore(slot: slot, value: working[slot]))
                            working[slot] = position
                        }
                        stack.append(.explore(next))
                    case .fail:
                        break
                    case .bytes, .sparse, .match:
                        states.append(current)
                        slots.append(contentsOf: working)
                    }
                }
            }
        }

        generation += 1
        addClosure(nfa.start, position: span.lowerBound, states: &currentStates, slots: &currentSlots)
        var position = span.lowerBound
        while true {
            if position == span.upperBound {
                for (threadIndex, state) in currentStates.enumerated() {
                    guard case .match = nfa.states[Int(state)] else { continue }
                    let base = threadIndex * slotCount
                    for group in 0..<groupCount {
                        let start = currentSlots[base + 2 * group]
                        let end = currentSlots[base + 2 * group + 1]
                        if start >= 0 && end >= start {
                            result[group] = start..<end
                        }
                    }
                    return result
                }
                return result
            }
            let byte = text[position]
            nextStates.removeAll(keepingCapacity: true)
            nextSlots.removeAll(keepingCapacity: true)
            generation += 1
            for (threadIndex, state) in currentStates.enumerated() {
                var targets: [Int32] = []
                switch nfa.states[Int(state)] {
                case .bytes(let transition):
                    if transition.low <= byte && byte <= transition.high { targets.append(transition.next) }
                case .sparse(let transitions):
                    for transition in transitions where transition.low <= byte && byte <= transition.high {
                        targets.append(transition.next)
                    }
                default:
                    break
                }
                guard !targets.isEmpty else { continue }
                let base = threadIndex * slotCount
                for slot in 0..<slotCount {
                    working[slot] = currentSlots[base + slot]
                }
                for target in targets {
                    addClosure(target, position: position + 1, states: &nextStates, slots: &nextSlots)
                }
            }
            if nextStates.isEmpty {
                return result
            }
            swap(&currentStates, &nextStates)
            swap(&currentSlots, &nextSlots)
            position += 1
        }
    }
}
