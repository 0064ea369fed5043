import JSONRPC
import JSONValue
import LanguageServer

/// Raw bytes through the whole input path of the server: framing, decoding, every handler.
///
/// The bytes are what a client could write to the server's stdin. The server runs in
/// process with a sink that encodes (and drops) everything it sends, so the writer is
/// exercised too. Any trap is a bug: client input must never end the process.
public enum TransportFuzzing {
    /// Runs one input; returns the number of messages the server handled.
    @discardableResult
    public static func run(_ bytes: [UInt8]) -> Int {
        // A small maximum body keeps the fuzzer's memory low; the refusal path is the same.
        var framer = MessageFramer(maximumBodyLength: 1 << 20)
        let server = Server(send: { message in _ = message.framedBytes }, log: { _ in })
        var handled = 0
        for event in framer.append(bytes) {
            guard case .body(let body) = event else { continue }
            switch Server.decodeIncoming(body: body) {
            case .valid(let message):
                server.handle(message)
                handled += 1
                // The runner publishes decorations whenever its input is idle; do it often here.
                if handled % 4 == 0 { server.flush() }
                if server.exitCode != nil { return handled }
            case .invalid(let answer):
                _ = answer.framedBytes
            }
        }
        server.flush()
        return handled
    }
}
