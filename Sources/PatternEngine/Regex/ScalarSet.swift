/// A set of Unicode scalar values stored as sorted, disjoint, non-adjacent closed ranges.
///
/// Surrogates (U+D800...U+DFFF) are never members: they cannot occur in valid UTF-8,
/// so negation and construction leave them out.
struct ScalarSet: Hashable, Sendable {
    /// Sorted, disjoint, non-adjacent ranges of scalar values.
    private(set) var ranges: [ClosedRange<UInt32>]

    /// The largest scalar value.
    static let maxScalar: UInt32 = 0x10_FFFF

    /// The empty set.
    init() {
        ranges = []
    }

    /// A set holding the given ranges (in any order, possibly overlapping).
    init(_ unsortedRanges: [ClosedRange<UInt32>]) {
        ranges = ScalarSet.normalize(unsortedRanges)
    }

    /// A set holding one scalar.
    init(scalar: Unicode.Scalar) {
        ranges = [scalar.value...scalar.value]
    }

    /// Every scalar value.
    static var all: ScalarSet {
        ScalarSet([0...0xD7FF, 0xE000...maxScalar])
    }

    /// Whether the set has no members.
    var isEmpty: Bool { ranges.isEmpty }

    /// The number of scalars in the set.
    var count: Int {
        ranges.reduce(0) { $0 + Int($1.upperBound - $1.lowerBound) + 1 }
    }

    /// Whether `value` is a member.
    ///
    /// - Complexity: O(log r) for r ranges.
    func contains(_ value: UInt32) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            let range = ranges[middle]
            if value < range.lowerBound {
                high = middle
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// The union of two sets.
    func union(_ other: ScalarSet) -> ScalarSet {
        ScalarSet(ranges + other.ranges)
    }

    /// The scalars (excluding surrogates) that are not in this set.
    func inverted() -> ScalarSet {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in ranges {
            if range.lowerBound > next {
                result.append(next...(range.lowerBound - 1))
            }
            next = range.upperBound + 1
        }
        if next <= ScalarSet.maxScalar {
            result.append(next...ScalarSet.maxScalar)
        }
        return ScalarSet(result)
    }

    /// The members that are also members of `other`.
    func intersection(_ other: ScalarSet) -> ScalarSet {
        var result: [ClosedRange<UInt32>] = []
        var left = 0
        var right = 0
        while left < ranges.count && right < other.ranges.count {
            let a = ranges[left]
            let b = other.ranges[right]
            let low = max(a.lowerBound, b.lowerBound)
            let high = min(a.upperBound, b.upperBound)
            if low <= high {
                result.append(low...high)
            }
            if a.upperBound < b.upperBound {
                left += 1
            } else {
                right += 1
            }
        }
        return ScalarSet(result)
    }

    /// Sorts, merges overlapping or adjacent ranges, and removes surrogates.
    private static func normalize(_ input: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        let sorted = input.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = []
        merged.reserveCapacity(sorted.count)
        for range in sorted {
            let clamped = range.lowerBound...min(range.upperBound, maxScalar)
            guard clamped.lowerBound <= maxScalar else { continue }
            if let last = merged.last, clamped.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, clamped.upperBound)
            } else {
                merged.append(clamped)
            }
        }
        // Cut the surrogate block out of any range that spans it.
        var result: [ClosedRange<UInt32>] = []
        result.reserveCapacity(merged.count + 1)
        for range in merged {
            if range.upperBound < 0xD800 || range.lowerBound > 0xDFFF {
                result.append(range)
                continue
            }
            if range.lowerBound < 0xD800 {
                result.append(range.lowerBound...0xD7FF)
            }
            if range.upperBound > 0xDFFF {
                result.append(0xE000...range.upperBound)
            }
        }
        return result
    }
}
