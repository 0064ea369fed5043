// Compile budgets: what one regex, and a whole rule set, may cost to compile.
//
// A configuration is untrusted input (a repository's `.highlights.json`), and a few bytes
// of pattern can ask for a great deal of automaton: `\pL{280}` is 8 bytes of text and
// about 90,000 NFA states per direction. So cost is *measured while compiling*, state by
// state: every state added to an NFA is charged to a meter (a state count, an estimate of
// its bytes, and, every few hundred states, the clock), and compiling stops with an error
// as soon as the meter runs out, before the memory is spent. A rule over its budget is an
// error for that rule alone; the rule set's budget caps the sum of all its rules, so a
// thousand rules each just under the rule budget cannot add up to gigabytes. Before any
// state is built, a lower bound of the pattern's size (computed from the syntax tree in
// time linear in the pattern) is checked against the budget, so a file of many oversized
// rules is refused in time proportional to its length, not the budget once per rule.
// The time limits are a backstop for a slow machine; states and bytes decide in practice.

/// What compiling may spend: automaton states, bytes, and time.
public struct CompileBudget: Sendable, Hashable {
    /// The most NFA states (forward, reverse and capture NFAs together).
    var maximumStates: Int
    /// The most bytes the NFAs may take, as estimated from their states.
    var maximumBytes: Int
    /// The longest compiling may take, by the monotonic clock.
    var maximumDuration: Duration

    /// Creates a budget.
    init(maximumStates: Int, maximumBytes: Int, maximumDuration: Duration) {
        self.maximumStates = maximumStates
        self.maximumBytes = maximumBytes
        self.maximumDuration = maximumDuration
    }

    /// The budget of one regex rule: ample for real patterns (`\w{1,64}` takes about 30,000 states in all).
    public static let rule = CompileBudget(maximumStates: 150_000, maximumBytes: 8 << 20, maximumDuration: .seconds(1))
    /// The budget of a whole rule set (every regex rule together). Its time bounds a whole
    /// configuration's compiling: past it, every rule still to compile is refused at once.
    public static let ruleSet = CompileBudget(maximumStates: 2_000_000, maximumBytes: 96 << 20, maximumDuration: .seconds(1))
    /// No budget beyond the hard cap on states per NFA (tests and tools).
    static let unlimited = CompileBudget(maximumStates: .max, maximumBytes: .max, maximumDuration: .seconds(1 << 40))
}

/// Charges NFA states against a budget as they are added, and says which limit ran out.
struct CompileMeter: Sendable {
    private(set) var statesUsed = 0
    private(set) var bytesUsed = 0
    private let stateLimit: Int
    private let byteLimit: Int
    private let deadline: ContinuousClock.Instant?
    /// Whose budget each limit is, for messages ("the rule's budget", "the rule set's budget").
    private let stateOwner: String
    private let byteOwner: String
    private let timeOwner: String
    private var untilClockCheck = CompileMeter.clockCheckInterval

    /// The clock is read once per this many states, so metering costs next to nothing.
    static let clockCheckInterval = 512

    /// A meter for `budget` alone, starting now.
    init(budget: CompileBudget, owner: String, start: ContinuousClock.Instant = .now) {
        stateLimit = budget.maximumStates
        byteLimit = budget.maximumBytes
        deadline = Self.deadline(start: start, duration: budget.maximumDuration)
        stateOwner = owner
        byteOwner = owner
        timeOwner = owner
    }

    /// A meter for one rule of a rule set: each limit is the rule's own or what is left of the set's, whichever is smaller.
    init(rule: CompileBudget, setStatesLeft: Int, setBytesLeft: Int, setDeadline: ContinuousClock.Instant?, start: ContinuousClock.Instant = .now) {
        let ruleOwner = "the rule's budget"
        let setOwner = "what was left of the rule set's budget"
        stateLimit = min(rule.maximumStates, max(setStatesLeft, 0))
        stateOwner = rule.maximumStates <= setStatesLeft ? ruleOwner : setOwner
        byteLimit = min(rule.maximumBytes, max(setBytesLeft, 0))
        byteOwner = rule.maximumBytes <= setBytesLeft ? ruleOwner : setOwner
        let ruleDeadline = Self.deadline(start: start, duration: rule.maximumDuration)
        switch (ruleDeadline, setDeadline) {
        case (let a?, let b?):
            deadline = min(a, b)
            timeOwner = a <= b ? ruleOwner : setOwner
        case (let a?, nil):
            deadline = a
            timeOwner = ruleOwner
        case (nil, let b):
            deadline = b
            timeOwner = setOwner
        }
    }

    /// `start` plus `duration`, or nil when the duration means no deadline.
    static func deadline(start: ContinuousClock.Instant, duration: Duration) -> ContinuousClock.Instant? {
        duration >= .seconds(1 << 30) ? nil : start.advanced(by: duration)
    }

    /// A meter that never runs out (short of the hard cap on NFA states).
    static let unlimited = CompileMeter(budget: .unlimited, owner: "no budget")

    /// The estimated bytes of one state: its slot in the state array plus any transition list on the heap.
    static func estimatedBytes(of state: NFAState) -> Int {
        let slot = MemoryLayout<NFAState>.stride
        let heapHeader = 32
        switch state {
        case .sparse(let transitions): return slot + heapHeader + transitions.count * MemoryLayout<ByteTransition>.stride
        case .union(let targets): return slot + heapHeader + targets.count * MemoryLayout<Int32>.stride
        default: return slot
        }
    }

    /// Charges one state; returns what ran out, or nil when the state fits.
    mutating func charge(_ state: NFAState) -> String? {
        statesUsed += 1
        bytesUsed += Self.estimatedBytes(of: state)
        return checkLimits()
    }

    /// What would run out if `states` more states (of at least the smallest size each) were charged, or nil.
    func problemIfCharged(states: Int) -> String? {
        if statesUsed + states > stateLimit {
            return "more than \(stateLimit) automaton states (\(stateOwner))"
        }
        let (bytes, overflow) = states.multipliedReportingOverflow(by: MemoryLayout<NFAState>.stride)
        if overflow || bytesUsed + bytes > byteLimit {
            return "more than \(byteLimit / 1024) KiB of automaton (\(byteOwner))"
        }
        return nil
    }

    /// Charges what compiling a regex elsewhere cost, states and bytes, as if it were compiled now.
    mutating func charge(states: Int, bytes: Int) -> String? {
        statesUsed += states
        bytesUsed += bytes
        return checkLimits()
    }

    /// Charges a whole NFA built outside the compiler (the non-empty restriction's copy).
    mutating func charge(_ nfa: NFA) -> String? {
        statesUsed += nfa.states.count
        for state in nfa.states { bytesUsed += Self.estimatedBytes(of: state) }
        untilClockCheck = 0
        return checkLimits()
    }

    private mutating func checkLimits() -> String? {
        if statesUsed > stateLimit {
            return "more than \(stateLimit) automaton states (\(stateOwner))"
        }
        if bytesUsed > byteLimit {
            return "more than \(byteLimit / 1024) KiB of automaton (\(byteOwner))"
        }
        untilClockCheck -= 1
        if untilClockCheck <= 0 {
            untilClockCheck = Self.clockCheckInterval
            if let deadline, ContinuousClock.now > deadline {
                return "compiling took too long (\(timeOwner))"
            }
        }
        return nil
    }
}

/// Compiles a series of regexes (the rules of one configuration) within a rule budget each and one budget for all.
///
/// Every regex compiles within the smaller of its own budget and what is left of the set's; the states and bytes of
/// each compiled regex are then taken from the set's, and the set's time runs from the tracker's creation.
public struct RegexCompileTracker: Sendable {
    private let ruleBudget: CompileBudget
    private let setDeadline: ContinuousClock.Instant?
    private var setStatesLeft: Int
    private var setBytesLeft: Int
    /// The NFA states built so far, by every regex compiled through this tracker.
    private(set) var statesUsed = 0
    /// The estimated bytes of those states.
    private(set) var bytesUsed = 0

    /// A tracker whose set budget starts now.
    public init(ruleBudget: CompileBudget = .rule, setBudget: CompileBudget = .ruleSet) {
        self.ruleBudget = ruleBudget
        setDeadline = CompileMeter.deadline(start: .now, duration: setBudget.maximumDuration)
        setStatesLeft = setBudget.maximumStates
        setBytesLeft = setBudget.maximumBytes
    }

    /// Compiles one regex as `CompiledRegex.init` does, within the budgets.
    public mutating func compile(_ pattern: String, caseInsensitive: Bool = false, wholeWord: Bool = false) throws(RegexError) -> CompiledRegex {
        // Past the set's deadline nothing more is built, so a file of many costly rules takes the
        // deadline plus a check per rule, however many rules follow.
        if let setDeadline, ContinuousClock.now > setDeadline {
            throw RegexError.overBudget("compiling took too long (the rule set's budget was spent on the rules before)", patternUTF8Offset: 0)
        }
        var meter = CompileMeter(rule: ruleBudget, setStatesLeft: setStatesLeft, setBytesLeft: setBytesLeft, setDeadline: setDeadline)
        // A refused rule's automaton is freed at once, so only compiled rules spend the set's states and bytes; its
        // time counts against the set's deadline. Refusals are cheap: a pattern whose lower bound is over budget is
        // refused before anything is built (`CompiledRegex.init`).
        let regex = try CompiledRegex(pattern, caseInsensitive: caseInsensitive, wholeWord: wholeWord, meter: &meter)
        setStatesLeft -= meter.statesUsed
        setBytesLeft -= meter.bytesUsed
        statesUsed += meter.statesUsed
        bytesUsed += meter.bytesUsed
        return regex
    }

    /// Takes a regex compiled elsewhere (by the configuration's parser, which reports its errors
    /// where they are written) as if it had been compiled here: its cost is charged to the set's
    /// budget, and a regex the set can no longer afford is refused, as compiling it would be.
    mutating func admit(_ regex: CompiledRegex) throws(RegexError) {
        var meter = CompileMeter(rule: ruleBudget, setStatesLeft: setStatesLeft, setBytesLeft: setBytesLeft, setDeadline: setDeadline)
        if let problem = meter.charge(states: regex.compiledStates, bytes: regex.compiledBytes) {
            throw RegexError.overBudget(problem, patternUTF8Offset: 0)
        }
        setStatesLeft -= regex.compiledStates
        setBytesLeft -= regex.compiledBytes
        statesUsed += regex.compiledStates
        bytesUsed += regex.compiledBytes
    }
}
