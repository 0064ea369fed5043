/// What a client holds of a sequence the server sends it (a document's semantic tokens, or its
/// decorated lines), and what has changed in it since, composed edit by edit: the elements at the
/// start and at the end that still equal what was sent. So the next update sends what changed,
/// found in O(1), rather than the whole sequence compared with the last one.
///
///     sent:     a b c d e f g h
///     now:      a b X Y Z g h          prefix 2, suffix 2: send "elements 2..<5 replace 2..<6"
struct SentSpan: Equatable {
    /// What is known of the difference.
    enum Change: Equatable {
        /// The client holds exactly the current sequence.
        case none
        /// Elements `prefix..<count - suffix` now replace `prefix..<sentCount - suffix` of what was sent.
        case middle(prefix: Int, suffix: Int)
        /// A change that was not followed (a recomputation): only the whole sequence will do.
        case unknown
    }

    /// How many elements the client holds.
    let sentCount: Int
    /// How many elements there are now.
    private(set) var count: Int
    private(set) var change = Change.none

    /// A span for a client that was just sent all `count` elements.
    init(sentCount: Int) {
        self.sentCount = sentCount
        count = sentCount
    }

    /// Notes that elements `lower..<oldUpper` were replaced by `lower..<newUpper`.
    mutating func replace(lower: Int, oldUpper: Int, newUpper: Int) {
        let newCount = count - (oldUpper - lower) + (newUpper - lower)
        guard lower >= 0, oldUpper >= lower, newUpper >= lower, oldUpper <= count, newCount >= newUpper else {
            change = .unknown
            return
        }
        count = newCount
        let suffix = newCount - newUpper
        switch change {
        case .unknown: break
        case .none: change = .middle(prefix: lower, suffix: suffix)
        case .middle(let oldPrefix, let oldSuffix): change = .middle(prefix: min(oldPrefix, lower), suffix: min(oldSuffix, suffix))
        }
    }

    /// Notes a change that was not followed.
    mutating func forget() {
        change = .unknown
    }

    /// The replaced part, `sent` (indices into what was sent) by `current` (indices into the sequence
    /// now); nil when unknown. Empty ranges when nothing changed.
    var replaced: (sent: Range<Int>, current: Range<Int>)? {
        switch change {
        case .unknown: return nil
        case .none: return (sentCount..<sentCount, count..<count)
        case .middle(let prefix, let suffix):
            // Both ends are within both sequences, whatever edits were composed.
            let start = min(prefix, sentCount, count)
            let end = min(suffix, sentCount - start, count - start)
            return (start..<(sentCount - end), start..<(count - end))
        }
    }
}
