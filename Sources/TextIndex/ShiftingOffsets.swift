// Ascending offsets, such as line starts, that edits move.
//
// An edit moves every offset after it by the change in length. Adding that to each of them
// costs the offsets after the edit: in a 100,000-line document, most of a keystroke. Instead,
// the offsets from `boundary` on are stored `pendingShift` short, and an edit moves the
// boundary to itself and adds its change to `pendingShift`. The offsets between the old and the
// new boundary are settled one by one, so an edit costs the distance from the edit before it:
// nothing while typing in one place.
//
//     stored:  0  10  20 | 27  37  47        boundary 3, pendingShift +3
//     offsets: 0  10  20 | 30  40  50

/// Ascending offsets of which an edit moves those after it in time proportional to how far it
/// is from the edit before, not to how many offsets follow it.
public struct ShiftingOffsets: Sendable {
    @usableFromInline var stored: [Int]
    /// The first index whose stored value is short by `pendingShift`.
    @usableFromInline var boundary: Int
    @usableFromInline var pendingShift = 0

    /// Offsets with the given values.
    public init(_ offsets: [Int]) {
        stored = offsets
        boundary = offsets.count
    }

    /// How many offsets there are.
    public var count: Int { stored.count }

    /// The offset at `index`, which must be in `0..<count`.
    ///
    /// - Complexity: O(1).
    @inlinable
    public subscript(index: Int) -> Int {
        index >= boundary ? stored[index] &+ pendingShift : stored[index]
    }

    /// Replaces the offsets at `indices` with `newOffsets` (their values after the edit) and
    /// moves every offset after them by `shift`.
    ///
    /// - Complexity: O(*d* + *k*) for the *d* offsets between this replacement and the one before
    ///   and the *k* new offsets, plus moving the offsets after them in memory when *k* differs
    ///   from the count replaced.
    public mutating func replaceSubrange(_ indices: Range<Int>, with newOffsets: [Int], shiftingFollowingBy shift: Int) {
        let end = min(max(indices.upperBound, 0), stored.count)
        let start = min(max(indices.lowerBound, 0), end)
        // Settle the offsets between the old boundary and the end of the replaced ones, so that
        // those before `end` hold their values and those from `end` on are short by `pendingShift`.
        stored.withUnsafeMutableBufferPointer { buffer in
            if boundary < end {
                for index in boundary..<end { buffer[index] &+= pendingShift }
            } else {
                for index in end..<boundary { buffer[index] &-= pendingShift }
            }
        }
        stored.replaceSubrange(start..<end, with: newOffsets)
        boundary = start + newOffsets.count
        pendingShift &+= shift
        if boundary >= stored.count { pendingShift = 0 }
    }

    /// Replaces the offsets in `oldRange` (as they are before the edit) with `newOffsets` (their values after it) and
    /// moves every offset after them by `shift`; returns the indices the replaced offsets had, for an array kept in
    /// step with these offsets.
    ///
    /// - Complexity: as `replaceSubrange(_:with:shiftingFollowingBy:)`, plus O(log *n*) to find the indices.
    @discardableResult
    public mutating func replaceOffsets(in oldRange: Range<Int>, with newOffsets: [Int], shiftingFollowingBy shift: Int)
        -> Range<Int>
    {
        let first = lastIndex(atOrBefore: oldRange.lowerBound - 1) + 1
        let end = lastIndex(atOrBefore: oldRange.upperBound - 1, from: first - 1) + 1
        replaceSubrange(first..<end, with: newOffsets, shiftingFollowingBy: shift)
        return first..<end
    }

    /// The offsets as an array.
    ///
    /// - Complexity: O(*n*).
    public var values: [Int] {
        stored.indices.map { self[$0] }
    }

    /// The last index whose offset is at or before `offset`, or -1 when there is none.
    ///
    /// - Complexity: O(log *n*).
    public func lastIndex(atOrBefore offset: Int) -> Int {
        lastIndex(atOrBefore: offset, from: -1)
    }

    /// The last index whose offset is at or before `offset`, searched forward from `start` (an index
    /// whose offset is known to be at or before it, or -1): steps that double from `start`, then a
    /// binary search within the last step, so ascending lookups cost the distance between them.
    ///
    /// - Complexity: O(log *d*) for *d* indices between `start` and the answer.
    public func lastIndex(atOrBefore offset: Int, from start: Int) -> Int {
        var low = start
        var step = 1
        while low + step < stored.count, self[low + step] <= offset {
            low += step
            step *= 2
        }
        var high = min(low + step, stored.count)
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if self[middle] <= offset { low = middle } else { high = middle }
        }
        return low
    }
}

extension ShiftingOffsets: Equatable {
    /// Equal when the offsets are, however much of them is pending.
    public static func == (lhs: ShiftingOffsets, rhs: ShiftingOffsets) -> Bool {
        lhs.count == rhs.count && lhs.stored.indices.allSatisfy { lhs[$0] == rhs[$0] }
    }
}
