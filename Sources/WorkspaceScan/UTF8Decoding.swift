// One UTF-8 character read from bytes that may not be valid: the walk's display of file names and the
// scanner's check of a text's last bytes (WorkspaceScanner.isValidUTF8) both ask it.

/// Decoding one UTF-8 character at a time, by the rules `String(validating:)` applies.
enum UTF8Decoding {
    /// The scalar of the valid UTF-8 sequence that begins at `index`, and its length in bytes, or nil.
    @inline(__always)
    static func scalar(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        let lowest: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; lowest = 0x80
        case 0xE0...0xEF: length = 3; lowest = 0x800
        case 0xF0...0xF4: length = 4; lowest = 0x10000
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        var value = UInt32(lead) & (0xFF >> (length + 1))
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        // Overlong forms, surrogates and values past U+10FFFF are invalid.
        guard value >= lowest, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
