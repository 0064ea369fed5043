// JSON strings scanned thirty-two bytes a step (see AVX2.swift for the rules of this module).
//
// JSONValue's parser looks for the end of a string's plain bytes: the first quote, backslash
// or control byte. Per step one load, three compares OR-ed into one mask; the first set bit is
// the byte, and the high bits of the lanes before it say whether the plain bytes held any
// non-ASCII (which then needs the UTF-8 check).

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
        let quote = Bytes32(repeating: 0x22)
        let backslash = Bytes32(repeating: 0x5C)
        let space = Bytes32(repeating: 0x20)
        while end &- position >= 32 {
            let block = Bytes32(loading: text, at: position)
            let special = ((block .== quote) | (block .== backslash) | (block .< space)).highBits
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
}
