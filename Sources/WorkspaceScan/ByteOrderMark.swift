// Files in UTF-16 or UTF-32 announce themselves with a byte order mark. Such a file is full of NUL
// bytes (every ASCII character has one), so the binary check would skip it; instead it is
// transcoded to UTF-8 and searched, as ripgrep does for UTF-16, and every position reported
// (line, column, offsets) is one of the transcoded text, without the mark. ripgrep stops at
// UTF-16; UTF-32 is read here too, since a gate must not pass a file it could have read.
//
//     FF FE 00 00   UTF-32 LE     (tried before UTF-16 LE, whose mark it begins with)
//     00 00 FE FF   UTF-32 BE
//     FF FE         UTF-16 LE
//     FE FF         UTF-16 BE

import UTF8Decoding

/// An encoding a file declares with a byte order mark at its start.
public enum ByteOrderMark: Sendable, Hashable {
    case utf16LittleEndian, utf16BigEndian, utf32LittleEndian, utf32BigEndian

    /// The mark `bytes` begin with, if any (asked of every file a scan reads: a few compares, nothing allocated).
    public static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> ByteOrderMark? {
        guard bytes.count >= 2 else { return nil }
        let fourBytes = bytes.count >= 4
        switch (bytes[0], bytes[1]) {
        case (0xFF, 0xFE): return fourBytes && bytes[2] == 0 && bytes[3] == 0 ? .utf32LittleEndian : .utf16LittleEndian
        case (0xFE, 0xFF): return .utf16BigEndian
        case (0x00, 0x00): return fourBytes && bytes[2] == 0xFE && bytes[3] == 0xFF ? .utf32BigEndian : nil
        default: return nil
        }
    }

    /// The bytes of the mark and of each code unit.
    var unitBytes: Int {
        switch self {
        case .utf16LittleEndian, .utf16BigEndian: 2
        case .utf32LittleEndian, .utf32BigEndian: 4
        }
    }

    /// U+FFFD, what stands for bytes that are not a character.
    static let replacementCharacter: Unicode.Scalar = "\u{FFFD}"

    private var isLittleEndian: Bool { self == .utf16LittleEndian || self == .utf32LittleEndian }

    /// The text of `bytes` (which begin with this mark) in UTF-8, without the mark. What is not a
    /// character becomes U+FFFD, as an editor shows it: an unpaired surrogate, a UTF-32 value past
    /// U+10FFFF, and the odd bytes of an unfinished last unit.
    ///
    /// - Complexity: O(*n*) in the number of bytes.
    public func transcodedToUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let width = unitBytes
        let littleEndian = isLittleEndian
        var out: [UInt8] = []
        // Room for ASCII, the usual text: a byte a unit.
        out.reserveCapacity(bytes.count / width + 4)
        func unit(at index: Int) -> UInt32 {
            var value: UInt32 = 0
            for position in 0..<width {
                value = value << 8 | UInt32(bytes[index + (littleEndian ? width - 1 - position : position)])
            }
            return value
        }
        func append(_ value: UInt32) {
            let scalar = (Unicode.Scalar(value) ?? Self.replacementCharacter).value
            switch scalar {
            case 0..<0x80:
                out.append(UInt8(scalar))
            case 0x80..<0x800:
                out.append(UInt8(0xC0 | scalar >> 6))
                out.append(UInt8(0x80 | scalar & 0x3F))
            case 0x800..<0x10000:
                out.append(UInt8(0xE0 | scalar >> 12))
                out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                out.append(UInt8(0x80 | scalar & 0x3F))
            default:
                out.append(UInt8(0xF0 | scalar >> 18))
                out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
                out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                out.append(UInt8(0x80 | scalar & 0x3F))
            }
        }
        var index = width
        while index + width <= bytes.count {
            var value = unit(at: index)
            index += width
            if width == 2, (0xD800..<0xDC00).contains(value) {
                // A high surrogate is a character only with a low one after it.
                if index + 2 <= bytes.count, case let low = unit(at: index), (0xDC00..<0xE000).contains(low) {
                    value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    index += 2
                }
            }
            append(value)
        }
        if index < bytes.count { append(Self.replacementCharacter.value) }
        return out
    }
}

extension WorkspaceScanner {
    /// The whole of a file, read the one way a scan reads files (`FileReadBuffer`): opened without
    /// waiting on a FIFO or a device, and read only when `fstat` of the open file says it is a
    /// regular file. For a command that needs a file's bytes again after its scan, or at once.
    public static func fileBytes(of file: WalkedFile) -> Result<[UInt8], ScannedFile.Skipped> {
        let buffer = FileReadBuffer()
        return buffer.read(file, limit: Int.max).map { count in buffer.withBytes(count: count) { Array($0) } }
    }

    /// The text of a file's bytes as every command searches and shows it, in UTF-8: a file with a
    /// UTF-16 or UTF-32 byte order mark transcoded (`ByteOrderMark`), and bytes that are not valid
    /// UTF-8 replaced by U+FFFD, exactly as an editor shows them.
    ///
    /// - Complexity: O(*n*) in the number of bytes.
    public static func utf8Text(ofFileBytes bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { buffer in
            if let mark = ByteOrderMark.of(buffer) { return mark.transcodedToUTF8(buffer) }
            return UTF8Decoding.isValid(buffer) ? bytes : Array(String(decoding: buffer, as: UTF8.self).utf8)
        }
    }
}
