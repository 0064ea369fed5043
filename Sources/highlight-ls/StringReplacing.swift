// Escaping and padding for the writers and the generated docs, on UTF-8 bytes.

extension String {
    /// This text with every occurrence of `target` (left to right, not overlapping) replaced by `replacement`,
    /// compared byte for byte: `"\n"` is found inside `"\r\n"`, which as a `Character` it is not.
    func replacingEvery(_ target: String, with replacement: String) -> String {
        let bytes = Array(utf8)
        let wanted = Array(target.utf8)
        guard !wanted.isEmpty, bytes.count >= wanted.count else { return self }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        var replaced = false
        while index < bytes.count {
            if bytes[index] == wanted[0], bytes.count - index >= wanted.count, bytes[index..<(index + wanted.count)].elementsEqual(wanted) {
                out.append(contentsOf: replacement.utf8)
                index += wanted.count
                replaced = true
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return replaced ? String(decoding: out, as: UTF8.self) : self
    }

    /// This text followed by spaces up to `width` characters (as it is when it is that long already).
    func padded(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}
