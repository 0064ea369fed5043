import Foundation
import JSONRPC
import JSONValue
import Seeded

/// The server binary over pipes, driven synchronously: one request, then its response.
final class ServerSession {
    private let process = Process()
    private let input: Int32
    private let output: Int32
    private var framer = MessageFramer()
    private var pending: [[UInt8]] = []
    private var nextID = 1
    /// Ids of responses that arrived while another response was awaited (requests sent with `start`).
    private(set) var answeredIDs: Set<JSON> = []

    struct Failure: Error, CustomStringConvertible { var description: String }

    init(executable: String) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        input = stdin.fileHandleForWriting.fileDescriptor
        output = stdout.fileHandleForReading.fileDescriptor
    }

    func notify(_ method: String, _ params: JSON?) {
        send(.notification(method: method, params: params))
    }

    /// Sends a request and waits for its response, skipping notifications and server requests.
    @discardableResult
    func request(_ method: String, _ params: JSON?, discardResult: Bool = false) throws -> JSON {
        let id = RequestID(nextID)
        nextID += 1
        send(.request(id: id, method: method, params: params))
        while true {
            let body = try nextBody()
            guard let message = try? JSONParser.parse(body), message["method"] == nil, let answered = message["id"] else { continue }
            guard answered == id.json else {
                answeredIDs.insert(answered)
                continue
            }
            if let error = message["error"] { throw Failure(description: "\(method): \(error.jsonText)") }
            return discardResult ? .null : (message["result"] ?? .null)
        }
    }

    /// Sends a request without waiting for its response; `answeredIDs` tells when it came.
    func start(_ method: String, _ params: JSON?) -> JSON {
        let id = RequestID(nextID)
        nextID += 1
        send(.request(id: id, method: method, params: params))
        return id.json
    }

    private func send(_ message: Message) {
        let bytes = message.framedBytes
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if result > 0 { written += result } else if errno != EINTR { return }
        }
    }

    private func nextBody() throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while pending.isEmpty {
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Failure(description: "the server closed its output") }
            for event in framer.append(chunk[0..<count]) {
                if case .body(let body) = event { pending.append(body) }
            }
        }
        return pending.removeFirst()
    }

    /// The server's current and peak resident memory, from /proc.
    func memory() -> (currentMB: Double, peakMB: Double) {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8) else { return (.nan, .nan) }
        func field(_ name: String) -> Double {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
                  let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return .nan }
            return kilobytes / 1024
        }
        return (field("VmRSS:"), field("VmHWM:"))
    }
}

/// Reproducible source-like text.
enum Corpus {
    static func lines(count: Int, seed: UInt64) -> String {
        var random = SplitMix64(seed: seed)
        let words = ["let", "value", "index", "parser", "return", "guard", "self", "buffer", "count", "offset", "café", "日本", "👍"]
        var text = ""
        text.reserveCapacity(count * 50)
        for line in 0..<count {
            let indent = String(repeating: " ", count: Int(random.next() % 4) * 4)
            var parts: [String] = []
            for _ in 0..<(3 + Int(random.next() % 6)) { parts.append(words[Int(random.next() % UInt64(words.count))]) }
            switch random.next() % 20 {
            case 0: text += indent + "// TODO: " + parts.joined(separator: " ") + " ABC-\(line)\n"
            case 1: text += indent + "// FIXME " + parts.joined(separator: " ") + "\n"
            default: text += indent + parts.joined(separator: " ") + "\n"
            }
        }
        return text
    }

    static func bytes(approximately size: Int, seed: UInt64) -> String {
        lines(count: size / 40, seed: seed)
    }
}

