// JSON strings scanned thirty-two bytes a step (see AVX2.swift for the rules of this module).
//
// JSONValue's parser looks for the end of a string's plain bytes: the first quote, backslash
// or control byte. Per step one load, three compares OR-ed into one mask; the first set bit is
// the byte, and the high bits of the lanes before it say whether the plain bytes held any
// non-ASCII (which then needs the UTF-8 check). `jsonUnescape` does the same while it copies
// the string out, sixty-four bytes a step, and decodes the one-letter escapes (`\n`, `\"`, ...) in the
// loop: a document's text has one at every line end.

import Swift

extension AVX2 {
    /// The first quote, backslash or control byte (below 0x20) at or after `from`, looking at thirty-two bytes a step
    /// while a whole step fits before `end`: its position, or where the steps stopped (fewer than thirty-two bytes
    /// before `end`); and whether a byte at or above 0x80 came before that position.
    ///
    /// Call only where `VectorUnit` reports AVX2.
    @inline(never)
    public static func jsonStringSpecial(text: UnsafeRawPointer, from: Int, end: Int) -> (position: Int, sawNonASCII: Bool) {
        var position = from
        var sawNonASCII = false
        #if arch(x86_64)
        while end &- position >= 32 {
            let block = Bytes32(loading: text, at: position)
            let special = block.jsonStringSpecials
            if special != 0 {
                let before = (UInt32(1) &<< UInt32(special.trailingZeroBitCount)) &- 1
                if block.highBits & before != 0 { sawNonASCII = true }
                return (position &+ special.trailingZeroBitCount, sawNonASCII)
            }
            if block.highBits != 0 { sawNonASCII = true }
            position &+= 32
        }
        #endif
        return (position, sawNonASCII)
    }

    /// Copies the string bytes at `from` to `output + written`, decoding the two-byte escapes (`\"`, `\\`, `\/`, `\b`,
    /// `\f`, `\n`, `\r`, `\t`), sixty-four bytes a step while a step and an escape's second byte fit before `end` and
    /// a step's stores fit before `outputEnd`. Stops at a quote, a `\u` or unknown escape, or a control byte (below
    /// 0x20), or where the steps no longer fit: returns where it stopped in the input and the output, and whether a
    /// byte at or above 0x80 was copied. Each step stores all sixty-four bytes, so bytes past the returned output
    /// position may be overwritten; the output may be the input's own memory if it trails `from` by 64 bytes or more.
    ///
    /// Call only where `VectorUnit` reports AVX2.
    @inline(never)
    public static func jsonUnescape(
        text: UnsafeRawPointer, from: Int, end: Int, output: UnsafeMutableRawPointer, written: Int, outputEnd: Int
    ) -> (position: Int, written: Int, sawNonASCII: Bool) {
        var position = from
        var written = written
        var sawNonASCII = false
        #if arch(x86_64)
        let bytes = text.assumingMemoryBound(to: UInt8.self)
        while end &- position > 64, outputEnd &- written >= 64 {
            let low = Bytes32(loading: text, at: position)
            let high = Bytes32(loading: text, at: position &+ 32)
            low.store(to: output, at: written)
            high.store(to: output, at: written &+ 32)
            let special = UInt64(low.jsonStringSpecials) | UInt64(high.jsonStringSpecials) &<< 32
            let nonASCII = mask(low, high)
            guard special != 0 else {
                if nonASCII != 0 { sawNonASCII = true }
                position &+= 64
                written &+= 64
                continue
            }
            let plain = special.trailingZeroBitCount
            if nonASCII & ((UInt64(1) &<< UInt64(plain)) &- 1) != 0 { sawNonASCII = true }
            position &+= plain
            written &+= plain
            guard bytes[position] == 0x5C else { break }
            // `\n` ends every line of a document's text: tested first, it is a branch predicted right.
            let escaped = bytes[position &+ 1]
            let decoded: UInt8
            if escaped == 0x6E {
                decoded = 0x0A
            } else {
                switch escaped {
                case 0x22, 0x5C, 0x2F: decoded = escaped
                case 0x62: decoded = 0x08  // b
                case 0x66: decoded = 0x0C  // f
                case 0x72: decoded = 0x0D  // r
                case 0x74: decoded = 0x09  // t
                default: return (position, written, sawNonASCII)
                }
            }
            output.storeBytes(of: decoded, toByteOffset: written, as: UInt8.self)
            written &+= 1
            position &+= 2
        }
        #endif
        return (position, written, sawNonASCII)
    }
}

#if arch(x86_64)
extension Bytes32 {
    /// Bit `i` set where lane `i` ends a JSON string's plain bytes: a quote, a backslash or a control byte (below 0x20).
    @inline(__always)
    var jsonStringSpecials: UInt32 {
        ((self .== Bytes32(repeating: 0x22)) | (self .== Bytes32(repeating: 0x5C)) | (self .< Bytes32(repeating: 0x20))).highBits
    }
}
#endif
