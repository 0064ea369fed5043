import JSONRPC
import Testing

@Suite struct MessageFramerTests {
    /// Feeds `chunks` one after the other and returns every event, bodies as strings.
    private func events(_ chunks: [String], maximumBodyLength: Int = MessageFramer.defaultMaximumBodyLength) -> [String] {
        var framer = MessageFramer(maximumBodyLength: maximumBodyLength)
        return chunks.flatMap { framer.append(Array($0.utf8)) }.map { event in
            switch event {
            case .body(let bytes): return String(decoding: bytes, as: UTF8.self)
            case .error(let problem): return "error: " + problem.message
            }
        }
    }

    @Test func oneMessage() {
        #expect(events(["Content-Length: 2\r\n\r\n{}"]) == ["{}"])
    }

    @Test func headersInAnyOrderAndCase() {
        #expect(events(["content-type: application/vscode-jsonrpc; charset=utf8\r\nCONTENT-length:   3 \r\n\r\nabc"]) == ["abc"])
    }

    @Test func manyMessagesInOneRead() {
        #expect(events(["Content-Length: 1\r\n\r\naContent-Length: 1\r\n\r\nb\r\nContent-Length: 1\r\n\r\nc"]) == ["a", "b", "c"])
    }

    @Test func messageSplitAtEveryByte() {
        let stream = "Content-Length: 5\r\n\r\nhelloContent-Length: 2\r\n\r\nhi"
        #expect(events(stream.map { String($0) }) == ["hello", "hi"])
    }

    @Test(arguments: ["abc", "-1", "99999999999999999999", "", "1 2"])
    func malformedContentLengthIsSkippedAndTheStreamResynchronises(value: String) {
        let result = events(["Content-Length: \(value)\r\n\r\n{}Content-Length: 2\r\n\r\nok"])
        #expect(result.count == 2)
        #expect(result.first?.hasPrefix("error: invalid Content-Length") == true)
        #expect(result.last == "ok")
    }

    /// A repeated header with the same value is one header; different values leave the body's end
    /// unknown, so that message is an error and the stream resynchronises at the next header.
    @Test func repeatedContentLength() {
        let same = events(["Content-Length: 2\r\ncontent-length:  2\r\n\r\n{}Content-Length: 2\r\n\r\nok"])
        #expect(same == ["{}", "ok"])
        let conflicting = events(["Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}Content-Length: 2\r\n\r\nok"])
        #expect(conflicting == ["error: conflicting Content-Length headers (2 and 3)", "ok"])
    }

    @Test func missingContentLength() {
        let result = events(["Content-Type: x\r\n\r\n{\"a\":1}\nContent-Length: 2\r\n\r\nok"])
        #expect(result == ["error: message without Content-Length header", "ok"])
    }

    @Test func otherCharsetIsRefusedAndItsBodySkipped() {
        let result = events(["Content-Length: 2\r\nContent-Type: application/json; charset=latin1\r\n\r\n{}Content-Length: 2\r\n\r\nok"])
        #expect(result.count == 2)
        #expect(result.first?.contains("unsupported charset") == true)
        #expect(result.last == "ok")
    }

    @Test func bodyOverTheMaximumIsSkippedWithoutBuffering() {
        var framer = MessageFramer(maximumBodyLength: 10)
        let first = framer.append(Array("Content-Length: 100\r\n\r\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 60))
        #expect(first.count == 1)
        let rest = framer.append(Array(repeating: UInt8(ascii: "x"), count: 40) + Array("Content-Length: 2\r\n\r\nok".utf8))
        #expect(rest == [.body(Array("ok".utf8))])
    }

    @Test func insideMessage() {
        var framer = MessageFramer()
        #expect(!framer.isInsideMessage)
        _ = framer.append(Array("Content-Length: 5\r\n\r\nab".utf8))
        #expect(framer.isInsideMessage)
        _ = framer.append(Array("cde".utf8))
        #expect(!framer.isInsideMessage)
    }

    @Test func framingAddsTheHeader() {
        #expect(framed(Array("{}".utf8)) == Array("Content-Length: 2\r\n\r\n{}".utf8))
    }
}
