import Foundation
import JSONRPC
import JSONValue
import Testing

@testable import LanguageServer

/// `highlight/counts` re-reads only what changed: a second request over an unchanged workspace
/// reads no file, an edited file is read again alone, and an open document is counted from the
/// editor's text without reading anything. Files read are counted, not timed.
@Suite struct WorkspaceCountsWorkTests {
    /// A server over `folder`, and the answers it sends.
    final class Client {
        private(set) var server: Server!
        private(set) var received: [Message] = []
        private var nextID = 1

        init(folder: URL) {
            server = Server(send: { [unowned self] in received.append($0) }, log: { _ in })
            _ = request("initialize", ["processId": .null, "rootUri": .string(folder.absoluteString), "capabilities": [:]])
            server.handle(.notification(method: "initialized", params: [:]))
        }

        /// The result of a request; nil for an error.
        func request(_ method: String, _ params: JSON) -> JSON? {
            let id = RequestID(nextID)
            nextID += 1
            received.removeAll()
            server.handle(.request(id: id, method: method, params: params))
            for case .response(id, .success(let result)) in received { return result }
            return nil
        }

        /// The total of a counts request, and how many files the server has read so far.
        func counts() -> (total: Int?, filesRead: Int) {
            let total = request("highlight/counts", [:])?["total"]?.integerValue
            return (total, server.work.workspaceFilesScanned)
        }
    }

    @Test func aSecondRequestReadsOnlyWhatChanged() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("highlight-ls-counts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for index in 0..<10 {
            try "TODO \(index)\nplain\n".write(to: folder.appendingPathComponent("f\(index).txt"), atomically: true, encoding: .utf8)
        }
        let client = Client(folder: folder)

        #expect(client.counts() == (10, 10))
        // Nothing changed: nothing is read.
        #expect(client.counts() == (10, 10))
        // One file grows (its size changes whatever the clock's resolution): it alone is read.
        try "TODO 3\nFIXME 3\nplain\n".write(to: folder.appendingPathComponent("f3.txt"), atomically: true, encoding: .utf8)
        #expect(client.counts() == (11, 11))
        // An open document is counted from its text, not read again.
        client.server.handle(.notification(method: "textDocument/didOpen", params: ["textDocument": [
            "uri": .string(folder.appendingPathComponent("f0.txt").absoluteString), "languageId": "plaintext", "version": 1,
            "text": "TODO a\nTODO b\n",
        ]]))
        #expect(client.counts() == (12, 11))
    }
}
