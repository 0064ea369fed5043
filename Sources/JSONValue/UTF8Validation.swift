// Strict UTF-8 validation (RFC 3629): no overlong forms, no UTF-16 surrogates
// (U+D800...U+DFFF), nothing above U+10FFFF. The parser uses it to report *where*
// invalid input starts; the fast paths let the standard library validate whole runs.

/// The offset of the first byte that starts an invalid UTF-8 sequence in `range`, or `nil` when
/// the bytes in `range` are valid UTF-8.
///
/// A sequence that is cut off by the end of `range` is invalid.
///
/// - Complexity: O(*n*) where *n* is the length of `range`.
func firstInvalidUTF8Offset(in bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> Int? {
    let end = min(range.upperBound, bytes.count)
    var offset = max(range.lowerBound, 0)
    while offset < end {
        let length = validUTF8SequenceLength(in: bytes, at: offset, end: end)
        if length == 0 { return offset }
        offset += length
    }
    return nil
}

/// The length in bytes of the valid UTF-8 sequence that starts at `offset`, or 0 when the bytes
/// there are not a valid sequence ending at or before `end`.
@inline(__always)
func validUTF8SequenceLength(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int, end: Int) -> Int {
    guard offset >= 0, offset < end, end <= bytes.count else { return 0 }
    let lead = bytes[offset]
    if lead < 0x80 { return 1 }
    // The allowed range of the second byte depends on the lead byte; this is what rules out
    // overlong forms, surrogates and scalars above U+10FFFF (RFC 3629, section 4).
    let length: Int
    var secondLow: UInt8 = 0x80
    var secondHigh: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; secondLow = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: length = 3; secondHigh = 0x9F
    case 0xF0: length = 4; secondLow = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4: length = 4; secondHigh = 0x8F
    default: return 0
    }
    guard end - offset >= length else { return 0 }
    let second = bytes[offset + 1]
    guard second >= secondLow, second <= secondHigh else { return 0 }
    var index = offset + 2
    while index < offset + length {
        guard bytes[index] & 0xC0 == 0x80 else { return 0 }
        index += 1
    }
    return length
}
