import JSONRPC
import JSONValue
import Testing

@testable import LanguageServer

/// Settings that say what the last ones said change nothing: no document is highlighted or sent again.
@Suite struct SettingsTests {
    @Test func emptySettingsAtStartRepublishNothing() {
        var sent: [Message] = []
        let server = Server(send: { sent.append($0) }, log: { _ in })
        server.handle(.request(id: RequestID(1), method: "initialize", params: [
            "processId": .null, "rootUri": .null, "initializationOptions": ["decorations": true],
            "capabilities": ["workspace": ["configuration": true]],
        ]))
        server.handle(.notification(method: "initialized", params: [:]))
        let uri: JSON = "file:///highlight-ls-settings/a.txt"
        server.handle(.notification(method: "textDocument/didOpen", params: [
            "textDocument": ["uri": uri, "languageId": "plaintext", "version": 1, "text": "TODO one\n"],
        ]))
        server.flush()
        func decorationsSent() -> Int {
            sent.count { if case .notification("highlight/publishDecorations", _) = $0 { true } else { false } }
        }
        #expect(decorationsSent() == 1)
        let settingsRequests = sent.compactMap { message -> RequestID? in
            if case .request(let id, "workspace/configuration", _) = message { id } else { nil }
        }
        #expect(!settingsRequests.isEmpty)
        for (index, answer) in [JSON.array([[:]]), .array([.null]), .array([[:]])].enumerated() {
            sent.removeAll()
            server.handle(.notification(method: "workspace/didChangeConfiguration", params: ["settings": .null]))
            let id = sent.compactMap { message -> RequestID? in
                if case .request(let id, "workspace/configuration", _) = message { id } else { nil }
            }.last ?? settingsRequests[0]
            server.handle(.response(id: index == 0 ? settingsRequests[0] : id, result: .success(answer)))
            server.flush()
            #expect(decorationsSent() == 0, "answer \(index)")
        }
        // Settings that do change something are applied, and the document is sent again.
        sent.removeAll()
        server.handle(.notification(method: "workspace/didChangeConfiguration", params: [
            "settings": ["highlight": ["rules": [["name": "one", "words": ["one"]]]]],
        ]))
        server.flush()
        #expect(decorationsSent() == 1)
    }
}
