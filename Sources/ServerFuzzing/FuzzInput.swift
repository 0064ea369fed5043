/// Fuzzer bytes read as a stream of small choices; past the end every choice is zero.
///
/// Structured fuzzing reads its decisions from the input, so libFuzzer's mutations of the
/// bytes become mutations of the session (a rule more, an edit elsewhere) and a crash
/// reproduces from the same bytes.
struct FuzzInput: Sendable {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// `true` once every byte has been read.
    var isExhausted: Bool { position >= bytes.count }

    /// The next byte, or 0 past the end.
    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A number in `0..<count` (0 when `count` is not positive).
    mutating func choose(_ count: Int) -> Int {
        guard count > 0 else { return 0 }
        let value = Int(byte()) << 8 | Int(byte())
        return value % count
    }

    /// One of `options`; the first when there are none left to read.
    mutating func pick<T>(_ options: [T]) -> T? {
        options.isEmpty ? nil : options[choose(options.count)]
    }

    mutating func bool() -> Bool { byte() & 1 == 1 }
}
