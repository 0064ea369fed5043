import Foundation
import JSONValue
import Testing

@testable import LanguageServer

/// `highlight/counts` re-reads only what changed: a second request over an unchanged workspace
/// reads no file, an edited file is read again alone, and an open document is counted from the
/// editor's text without reading anything. Files read are counted, not timed.
@Suite struct WorkspaceCountsWorkTests {
    /// The total of a counts request, and how many files the server has read so far.
    static func counts(_ client: EditWorkTests.Client) -> (total: Int?, filesRead: Int) {
        let total = client.request("highlight/counts", [:])?["total"]?.integerValue
        return (total, client.server.work.workspaceFilesScanned)
    }

    @Test func aSecondRequestReadsOnlyWhatChanged() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("highlight-ls-counts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for index in 0..<10 {
            try "TODO \(index)\nplain\n".write(to: folder.appendingPathComponent("f\(index).txt"), atomically: true, encoding: .utf8)
        }
        let client = EditWorkTests.Client(options: [:], rootURI: .string(folder.absoluteString))

        #expect(Self.counts(client) == (10, 10))
        // Nothing changed: nothing is read.
        #expect(Self.counts(client) == (10, 10))
        // One file grows (its size changes whatever the clock's resolution): it alone is read.
        try "TODO 3\nFIXME 3\nplain\n".write(to: folder.appendingPathComponent("f3.txt"), atomically: true, encoding: .utf8)
        #expect(Self.counts(client) == (11, 11))
        // An open document is counted from its text, not read again.
        client.server.handle(.notification(method: "textDocument/didOpen", params: ["textDocument": [
            "uri": .string(folder.appendingPathComponent("f0.txt").absoluteString), "languageId": "plaintext", "version": 1,
            "text": "TODO a\nTODO b\n",
        ]]))
        #expect(Self.counts(client) == (12, 11))
    }
}
