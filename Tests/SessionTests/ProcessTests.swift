import Foundation
import JSONRPC
import JSONValue
import Testing

/// The real executable over real pipes: exit codes and the stdout contract.
@Suite struct ProcessTests {
    /// The `highlight-ls` executable next to the test bundle.
    static var executable: URL? {
        var directory = Bundle.module.bundleURL.deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("highlight-ls")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }

    /// Runs the server with `input` on stdin (then closed) and returns its exit code and stdout.
    private func run(_ arguments: [String] = [], input: [UInt8]) throws -> (status: Int32, output: [UInt8]) {
        let executable = try #require(Self.executable, "build the highlight-ls product first (swift build)")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Plain read(2)/write(2) with EINTR retries: Foundation's FileHandle traps on EINTR, which
        // other tests' child processes can cause.
        writeAll(input, to: stdin.fileHandleForWriting.fileDescriptor)
        try stdin.fileHandleForWriting.close()
        let output = readAll(from: stdout.fileHandleForReading.fileDescriptor)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    private func writeAll(_ bytes: [UInt8], to fileDescriptor: Int32) {
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(fileDescriptor, $0.baseAddress, $0.count) }
            if result > 0 { written += result } else if result < 0 && errno == EINTR { continue } else { return }
        }
    }

    private func readAll(from fileDescriptor: Int32) -> [UInt8] {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 { output += chunk[0..<count] } else if count < 0 && errno == EINTR { continue } else { return output }
        }
    }

    private func message(_ json: String) -> [UInt8] { framed(Array(json.utf8)) }

    private let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"capabilities":{}}}"#

    @Test func shutdownThenExitEndsWithZero() throws {
        let input = message(initialize) + message(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
            + message(#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#) + message(#"{"jsonrpc":"2.0","method":"exit"}"#)
        let (status, output) = try run(input: input)
        #expect(status == 0)
        // stdout carries protocol messages only: exactly two framed responses.
        var framer = MessageFramer()
        let bodies = framer.append(output)
        #expect(bodies.count == 2)
        #expect(!framer.isInsideMessage)
    }

    @Test func exitWithoutShutdownEndsWithOne() throws {
        let (status, _) = try run(input: message(initialize) + message(#"{"jsonrpc":"2.0","method":"exit"}"#))
        #expect(status == 1)
    }

    @Test func endOfInputEndsTheServer() throws {
        #expect(try run(input: message(initialize)).status == 1)
    }

    @Test func endOfInputInsideAMessageEndsWithOne() throws {
        #expect(try run(input: Array("Content-Length: 100\r\n\r\n{\"jsonrpc\"".utf8)).status == 1)
    }

    @Test func version() throws {
        let (status, output) = try run(["--version"], input: [])
        #expect(status == 0)
        #expect(String(decoding: output, as: UTF8.self).hasPrefix("highlight-ls "))
    }

    @Test func unknownArgument() throws {
        #expect(try run(["--bogus"], input: []).status == 2)
    }

    /// Request ids come back as the exact JSON text they were sent as, through the real reader,
    /// decoder, writer and output queue (an unknown method, answered -32601 with the id): a 23-digit integer, one below `Int.min` (which a double
    /// would turn into `Int.min`, another valid id) and a fraction with a trailing zero.
    @Test func requestIdsAreEchoedAsTheirExactText() throws {
        let ids = ["12345678901234567890123", "-9223372036854775809", "-9223372036854775808", "2.50", "1E+2", "-0", "\"12345678901234567890123\""]
        var input = message(initialize) + message(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
        for id in ids { input += message(#"{"jsonrpc":"2.0","id":\#(id),"method":"highlight/unknown","params":{}}"#) }
        input += message(#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#) + message(#"{"jsonrpc":"2.0","method":"exit"}"#)
        let (status, output) = try run(input: input)
        #expect(status == 0)
        var framer = MessageFramer()
        var bodies: [String] = []
        for case .body(let body) in framer.append(output) { bodies.append(String(decoding: body, as: UTF8.self)) }
        for id in ids {
            #expect(bodies.contains { body in body.contains(#""id":\#(id),"#) || body.contains(#""id":\#(id)}"#) },
                "id \(id) not echoed exactly: \(bodies)")
        }
    }

    /// A request still answered by a background job when `shutdown` arrives is answered before
    /// the shutdown's own response (here `workspace/symbol`, whose job may not have finished).
    @Test func shutdownAnswersTheRequestsJobsAreStillWorkingOn() throws {
        var input = message(initialize) + message(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
        for id in 10..<13 { input += message(#"{"jsonrpc":"2.0","id":\#(id),"method":"workspace/symbol","params":{"query":""}}"#) }
        input += message(#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#) + message(#"{"jsonrpc":"2.0","method":"exit"}"#)
        let (status, output) = try run(input: input)
        #expect(status == 0)
        var framer = MessageFramer()
        var answered: [RequestID] = []
        for case .body(let body) in framer.append(output) {
            if case .success(.response(let id, _)) = Message.decode(body: body) { answered.append(id) }
        }
        #expect(answered.count == 5 && Set(answered) == Set([1, 10, 11, 12, 2].map { RequestID($0) }), "\(answered)")
        #expect(answered.last == RequestID(2), "shutdown was answered before the requests it ended: \(answered)")
    }

    /// A `$/cancelRequest` that arrives before its request cancels nothing: the request, sent
    /// after it, is answered normally (it is kept only for a request received and still waiting).
    @Test func cancellationBeforeItsRequestCancelsNothing() throws {
        let open = #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///c.txt","languageId":"plaintext","version":1,"text":"TODO here"}}}"#
        let input = message(initialize) + message(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#) + message(open)
            + message(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":7}}"#)
            + message(#"{"jsonrpc":"2.0","id":7,"method":"highlight/matches","params":{"textDocument":{"uri":"file:///c.txt"}}}"#)
            + message(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"s"}}"#)
            + message(#"{"jsonrpc":"2.0","id":"s","method":"highlight/matches","params":{"textDocument":{"uri":"file:///c.txt"}}}"#)
            + message(#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#) + message(#"{"jsonrpc":"2.0","method":"exit"}"#)
        let (status, output) = try run(input: input)
        #expect(status == 0)
        var framer = MessageFramer()
        var responses: [(RequestID, Result<JSON, ResponseError>)] = []
        for case .body(let body) in framer.append(output) {
            if case .success(.response(let id, let result)) = Message.decode(body: body) { responses.append((id, result)) }
        }
        for id in [RequestID(7), RequestID("s")] {
            let answers = responses.filter { $0.0 == id }
            #expect(answers.count == 1, "\(id): \(answers.count) answers")
            #expect((try? answers.first?.1.get())?.arrayValue?.count == 1, "\(id) was not answered with its match: \(answers)")
        }
    }
}
