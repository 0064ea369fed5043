import Foundation
import JSONRPC
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
        try stdin.fileHandleForWriting.write(contentsOf: Data(input))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, [UInt8](output))
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
}
