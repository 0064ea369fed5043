import Foundation
import JSONRPC
import JSONValue
import LanguageServer
import Testing

/// What the server sent and the harness has not yet matched.
final class Received {
    var messages: [Message] = []
}

/// Runs a transcript against the real server in process, through the real framing and decoding.
///
/// The server runs exactly as under the stdio runner: each body goes through `MessageFramer`
/// and `Server.decodeIncoming`, and `flush()` runs whenever the client waits for an answer
/// (as the runner calls it whenever its input is idle).
final class SessionHarness {
    let transcript: Transcript
    let root: URL
    private var framer = MessageFramer()
    private let server: Server
    private let received = Received()
    private var legend: [String] = []
    private var tokenDataByResultID: [String: [Int]] = [:]
    private var sentRequests: [RequestID: JSON?] = [:]
    private(set) var failures: [String] = []

    init(transcript: Transcript) throws {
        self.transcript = transcript
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("highlight-ls-session-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // The folder is a repository root, so that the search for a governing `.highlights.json`
        // stops there and never reads one a test left in the temporary directory.
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let received = self.received
        server = Server(send: { message in received.messages.append(message) }, log: { _ in })
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func run() {
        for block in transcript.blocks {
            let location = "\(transcript.name):\(block.line)"
            switch block.step {
            case .send(let text):
                guard let json = parse(substitute(text), at: location) else { continue }
                deliver(framed(json.encoded()))
            case .sendRaw(let bytes):
                // Substitutions apply to text; bytes that are not UTF-8 are sent exactly as written.
                if let text = String(validating: bytes, as: UTF8.self) { deliver(Array(substitute(text).utf8)) } else { deliver(bytes) }
            case .expect(let text):
                guard let pattern = parse(substitute(text), at: location) else { continue }
                guard let message = nextMessage(at: location) else { continue }
                if let problem = mismatch(expected: pattern, actual: message.json) {
                    failures.append("\(location): \(problem)\n    received: \(message.json.jsonText)")
                }
            case .expectTokens(let lines):
                guard let message = nextMessage(at: location) else { continue }
                checkTokens(message, expected: lines, at: location)
            case .writeFile(let path, let contents):
                let url = root.appendingPathComponent(path)
                try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                do { try Data(substitute(contents).utf8).write(to: url) } catch { failures.append("\(location): cannot write \(path): \(error)") }
            case .deleteFile(let path):
                try? FileManager.default.removeItem(at: root.appendingPathComponent(path))
            case .git(let arguments):
                let environment = TestProcess.gitEnvironment(name: "Alice Doe", email: "alice@example.invalid", date: "2026-01-10T12:00:00Z")
                let ran = try? TestProcess.run("/usr/bin/git", arguments, in: root, environment: environment)
                if ran?.status != 0 { failures.append("\(location): git \(arguments.joined(separator: " ")) failed") }
            case .exitCode(let code):
                if server.exitCode != code {
                    failures.append("\(location): expected exit code \(code), got \(server.exitCode.map(String.init) ?? "none (still running)")")
                }
            }
        }
        server.flush()
        for message in received.messages where !isLog(message) {
            failures.append("\(transcript.name): unexpected message at the end: \(message.json.jsonText)")
        }
    }

    private func deliver(_ bytes: [UInt8]) {
        for event in framer.append(bytes) {
            guard case .body(let body) = event else { continue }
            switch Server.decodeIncoming(body: body) {
            case .valid(let message):
                if case .request(let id, _, let params) = message { sentRequests[id] = params }
                server.handle(message)
            case .invalid(let answer):
                received.messages.append(answer)
            }
        }
    }

    private func nextMessage(at location: String) -> Message? {
        server.flush()
        while !received.messages.isEmpty {
            let message = received.messages.removeFirst()
            noteLegend(in: message)
            if !isLog(message) { return message }
        }
        failures.append("\(location): expected a message, but the server sent nothing more")
        return nil
    }

    private func isLog(_ message: Message) -> Bool {
        if case .notification("window/logMessage", _) = message { return true }
        return false
    }

    /// Remembers the token legend from `initialize` or a dynamic registration.
    private func noteLegend(in message: Message) {
        var candidates: [JSON?] = []
        switch message {
        case .response(_, .success(let result)):
            candidates.append(result["capabilities"]?["semanticTokensProvider"]?["legend"])
        case .request(_, "client/registerCapability", let params):
            for registration in params?["registrations"]?.arrayValue ?? [] {
                candidates.append(registration["registerOptions"]?["legend"])
            }
        default: break
        }
        for case let legend? in candidates {
            self.legend = legend["tokenTypes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        }
    }

    private func checkTokens(_ message: Message, expected: [String], at location: String) {
        guard case .response(let id, .success(let result)) = message else {
            failures.append("\(location): expected a semantic tokens response, got \(message.json.jsonText)")
            return
        }
        var data: [Int]
        if let array = result["data"]?.arrayValue {
            data = array.compactMap(\.integerValue)
        } else if let edits = result["edits"]?.arrayValue {
            let previousID = sentRequests[id]??["previousResultId"]?.stringValue ?? ""
            guard let base = tokenDataByResultID[previousID] else {
                failures.append("\(location): delta against unknown result \(previousID)")
                return
            }
            data = base
            // Edits are applied from the last to the first so that earlier offsets stay valid.
            for edit in edits.reversed() {
                let start = edit["start"]?.integerValue ?? 0
                let deleteCount = edit["deleteCount"]?.integerValue ?? 0
                guard start >= 0, deleteCount >= 0, start + deleteCount <= data.count else {
                    failures.append("\(location): delta edit out of range: \(edit.jsonText)")
                    return
                }
                data.replaceSubrange(start..<(start + deleteCount), with: edit["data"]?.arrayValue?.compactMap(\.integerValue) ?? [])
            }
        } else {
            failures.append("\(location): no data or edits in \(result.jsonText)")
            return
        }
        if let resultID = result["resultId"]?.stringValue { tokenDataByResultID[resultID] = data }
        guard data.count % 5 == 0 else {
            failures.append("\(location): token data length \(data.count) is not a multiple of 5")
            return
        }
        var decoded: [String] = []
        var line = 0
        var character = 0
        for token in stride(from: 0, to: data.count, by: 5) {
            if data[token] > 0 { character = 0 }
            line += data[token]
            character += data[token + 1]
            let type = legend.indices.contains(data[token + 3]) ? legend[data[token + 3]] : "?\(data[token + 3])"
            decoded.append("\(line):\(character)-\(character + data[token + 2]) \(type)")
        }
        if decoded != expected {
            failures.append("\(location): tokens differ\n    expected: \(expected)\n    received: \(decoded)")
        }
    }

    private func parse(_ text: String, at location: String) -> JSON? {
        do {
            return try JSONParser.parse(Array(text.utf8), options: .lenient)
        } catch {
            failures.append("\(location): transcript JSON: \(error)")
            return nil
        }
    }

    private func substitute(_ text: String) -> String {
        text.replacingOccurrences(of: "${ROOT_PATH}", with: root.path)
            .replacingOccurrences(of: "${ROOT}", with: root.absoluteString.hasSuffix("/") ? String(root.absoluteString.dropLast()) : root.absoluteString)
    }
}

@Suite struct SessionTests {
    static let transcriptDirectory = Bundle.module.resourceURL?.appendingPathComponent("Transcripts")

    static let transcriptNames: [String] = {
        guard let directory = transcriptDirectory,
              let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return names.filter { $0.hasSuffix(".transcript") }.sorted()
    }()

    @Test func transcriptsArePresent() {
        #expect(Self.transcriptNames.count >= 10)
    }

    @Test(arguments: transcriptNames)
    func transcript(_ name: String) throws {
        let url = try #require(Self.transcriptDirectory?.appendingPathComponent(name))
        let transcript = try Transcript(name: name, text: String(contentsOf: url, encoding: .utf8))
        let harness = try SessionHarness(transcript: transcript)
        harness.run()
        for failure in harness.failures { Issue.record(Comment(rawValue: failure)) }
    }
}
