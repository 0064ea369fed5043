/// The `Int` equal to `value`, or `nil` when `value` is fractional, NaN, infinite or out of range.
///
/// Written without `Int(exactly:)` or `rounded()`, which call into libm: the module then links
/// into any executable, with or without Foundation.
@inline(__always)
func exactInteger(_ value: Double) -> Int? {
    // -2^63 is exactly representable; 2^63 is the first double above `Int.max`. NaN fails both tests.
    guard value >= -9_223_372_036_854_775_808.0, value < 9_223_372_036_854_775_808.0 else { return nil }
    let truncated = Int(value)
    return Double(truncated) == value ? truncated : nil
}
