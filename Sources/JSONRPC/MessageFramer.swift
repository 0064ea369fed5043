// Content-Length framing, as in the Language Server Protocol's base protocol.
//
//   Content-Length: 52\r\n            headers: ASCII, any order, names case-insensitive
//   Content-Type: application/...\r\n  (optional; charset utf-8 / utf8 only)
//   \r\n
//   {"jsonrpc":"2.0", ...}             body: exactly Content-Length bytes
//
// The framer is a pure state machine: bytes go in as they arrive (split anywhere, or many
// messages at once) and complete bodies or framing errors come out. A bad header block is
// reported and skipped; the stream resynchronises at the next `Content-Length` header. A length above
// `maximumBodyLength` is refused without allocating it: its bytes are discarded as they arrive.

/// A problem in the framing of the incoming stream; the message it concerns is skipped.
public struct FramingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// What the framer produces: a complete message body, or a framing error for a skipped message.
public enum FramedEvent: Sendable, Equatable {
    case body([UInt8])
    case error(FramingError)
}

/// Splits a byte stream into `Content-Length`-framed message bodies.
public struct MessageFramer: Sendable {
    /// Bodies longer than this are refused (their bytes are skipped, never buffered).
    public static let defaultMaximumBodyLength = 64 << 20
    /// A header block longer than this is malformed.
    static let maximumHeaderLength = 8 << 10

    let maximumBodyLength: Int
    private var buffer: [UInt8] = []
    private var readIndex = 0
    private enum State: Sendable { case headers, body(length: Int), skipping(remaining: Int), resynchronising }
    private var state: State = .headers

    public init(maximumBodyLength: Int = MessageFramer.defaultMaximumBodyLength) {
        self.maximumBodyLength = maximumBodyLength
    }

    /// `true` while part of a message has been received but not all of it.
    public var isInsideMessage: Bool {
        switch state {
        case .headers: return buffer[readIndex...].contains { !Self.isHeaderWhitespace($0) }
        case .body, .skipping, .resynchronising: return true
        }
    }

    /// The body being received, when its length is known and not all of it is buffered: its
    /// length and how many of its bytes are here. A caller can then read the rest straight into
    /// the body (`takeBody(into:)`) instead of through `append`.
    public var partialBody: (length: Int, buffered: Int)? {
        guard case .body(let length) = state, buffer.count - readIndex < length else { return nil }
        return (length, buffer.count - readIndex)
    }

    /// Moves the buffered bytes of the partial body to the start of `body` and goes on as if the
    /// whole body had been received: the caller supplies the rest of its `length` bytes. Returns
    /// how many bytes it moved.
    public mutating func takeBody(into body: UnsafeMutableBufferPointer<UInt8>) -> Int {
        guard let (length, buffered) = partialBody, body.count >= length else { return 0 }
        _ = body.initialize(fromContentsOf: buffer[readIndex..<buffer.count])
        buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
        readIndex = 0
        state = .headers
        return buffered
    }

    /// Feeds bytes as they arrive and returns the events they complete, in order.
    public mutating func append(_ bytes: some Collection<UInt8>) -> [FramedEvent] {
        buffer.append(contentsOf: bytes)
        var events: [FramedEvent] = []
        while let event = nextEvent() { events.append(event) }
        compact()
        return events
    }

    private mutating func nextEvent() -> FramedEvent? {
        while true {
            switch state {
            case .resynchronising:
                guard let start = nextContentLengthHeader() else {
                    // Keep a tail that may hold the start of the header name.
                    readIndex = max(readIndex, buffer.count - 15)
                    return nil
                }
                readIndex = start
                state = .headers
            case .skipping(let remaining):
                let available = buffer.count - readIndex
                if available < remaining {
                    readIndex = buffer.count
                    state = .skipping(remaining: remaining - available)
                    return nil
                }
                readIndex += remaining
                state = .headers
            case .body(let length):
                guard buffer.count - readIndex >= length else { return nil }
                let body = Array(buffer[readIndex..<(readIndex + length)])
                readIndex += length
                state = .headers
                return .body(body)
            case .headers:
                // Blank lines between messages are tolerated.
                while readIndex < buffer.count, Self.isHeaderWhitespace(buffer[readIndex]) { readIndex += 1 }
                guard let end = headerBlockEnd() else {
                    if buffer.count - readIndex > Self.maximumHeaderLength {
                        readIndex = buffer.count
                        return .error(FramingError(message: "header block longer than \(Self.maximumHeaderLength) bytes; discarded"))
                    }
                    return nil
                }
                let headerBytes = buffer[readIndex..<end.headerEnd]
                readIndex = end.bodyStart
                switch Self.contentLength(in: headerBytes, maximum: maximumBodyLength) {
                case .success(let length):
                    state = .body(length: length)
                case .failure(.skip(let length, let message)):
                    state = .skipping(remaining: length)
                    return .error(message)
                case .failure(.malformed(let message)):
                    state = .resynchronising
                    return .error(message)
                }
            }
        }
    }

    /// Finds the blank line ending the header block; accepts `\r\n\r\n` and, leniently, `\n\n`.
    private func headerBlockEnd() -> (headerEnd: Int, bodyStart: Int)? {
        var index = readIndex
        while index < buffer.count {
            if buffer[index] == UInt8(ascii: "\n") {
                let next = index + 1
                if next < buffer.count, buffer[next] == UInt8(ascii: "\n") { return (index, next + 1) }
                if next + 1 < buffer.count, buffer[next] == UInt8(ascii: "\r"), buffer[next + 1] == UInt8(ascii: "\n") {
                    return (index, next + 2)
                }
            }
            index += 1
        }
        return nil
    }

    /// `skip`: the length is known, so the body is discarded; `malformed`: the length is not
    /// known, so the framer looks for the next `Content-Length` header.
    private enum HeaderProblem: Error { case malformed(FramingError), skip(Int, FramingError) }

    /// The offset of the next `Content-Length` (any case). Messages follow each other with no
    /// separator, so the name is looked for anywhere, not only at a line start.
    private func nextContentLengthHeader() -> Int? {
        let name = Array("content-length".utf8)
        var index = readIndex
        while index + name.count <= buffer.count {
            var matched = true
            for offset in 0..<name.count where buffer[index + offset] | 0x20 != name[offset] {
                matched = false
                break
            }
            if matched { return index }
            index += 1
        }
        return nil
    }

    private static func contentLength(in headerBytes: ArraySlice<UInt8>, maximum: Int) -> Result<Int, HeaderProblem> {
        let text = String(decoding: headerBytes, as: UTF8.self)
        var length: Int?
        var problem: FramingError?
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            guard let colon = line.firstIndex(of: ":") else {
                return .failure(.malformed(FramingError(message: "malformed header line \"\(line.prefix(80))\"")))
            }
            let name = line[..<colon].trimmingSpaces().lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces()
            switch name {
            case "content-length":
                guard !value.isEmpty, value.count <= 18, value.allSatisfy({ $0.isASCII && $0.isNumber }),
                      let parsed = Int(value) else {
                    return .failure(.malformed(FramingError(message: "invalid Content-Length \"\(value.prefix(40))\"")))
                }
                // A header repeated with the same value says nothing new; two lengths leave the
                // body's end unknown, so the framer resynchronises.
                if let length, length != parsed {
                    return .failure(.malformed(FramingError(message: "conflicting Content-Length headers (\(length) and \(parsed))")))
                }
                length = parsed
            case "content-type":
                problem = charsetProblem(value)
            default:
                continue  // Unknown headers are allowed and ignored.
            }
        }
        guard let length else {
            return .failure(.malformed(FramingError(message: "message without Content-Length header")))
        }
        if length > maximum {
            return .failure(.skip(length, FramingError(message: "Content-Length \(length) exceeds the maximum of \(maximum) bytes; message skipped")))
        }
        if let problem { return .failure(.skip(length, problem)) }
        return .success(length)
    }

    private static func charsetProblem(_ contentType: String) -> FramingError? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingSpaces().lowercased() == "charset" else { continue }
            let charset = parts[1].trimmingSpaces().lowercased().filter { $0 != "\"" }
            if charset != "utf-8" && charset != "utf8" {
                return FramingError(message: "unsupported charset \"\(charset)\"; only utf-8 is accepted; message skipped")
            }
        }
        return nil
    }

    private static func isHeaderWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }

    private mutating func compact() {
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            readIndex = 0
        } else if readIndex > 1 << 16 && readIndex > buffer.count / 2 {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }
}

/// Frames a message body with its `Content-Length` header.
public func framed(_ body: [UInt8]) -> [UInt8] {
    var bytes = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
    bytes.append(contentsOf: body)
    return bytes
}

extension StringProtocol {
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
