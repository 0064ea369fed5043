import JSONRPC
import JSONValue
import Testing

@Suite struct MessageTests {
    private func decode(_ text: String) -> Result<Message, MessageDecodingError> {
        Message.decode(body: Array(text.utf8))
    }

    @Test func request() throws {
        #expect(try decode(#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1}}"#).get()
            == .request(id: RequestID(1), method: "m", params: ["a": 1]))
    }

    @Test func notification() throws {
        #expect(try decode(#"{"jsonrpc":"2.0","method":"n"}"#).get() == .notification(method: "n", params: nil))
    }

    @Test func responses() throws {
        #expect(try decode(#"{"jsonrpc":"2.0","id":"x","result":null}"#).get() == .response(id: RequestID("x"), result: .success(.null)))
        #expect(try decode(#"{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"no"}}"#).get()
            == .response(id: RequestID(2), result: .failure(ResponseError(code: -1, message: "no"))))
    }

    /// Each id is answered with its exact text: numbers beyond `Int` and `Double`, one that a
    /// double would round onto `Int.min` (a different, valid id), fractions and exponents as written.
    @Test(arguments: [
        "0", "-1", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
        "12345678901234567890123", "2.50", "1e400", "-0", "-0.0", "1E+2", "\"12345678901234567890123\"", "\"\"", "null",
    ])
    func requestIdsAreEchoedExactly(id: String) throws {
        let request = try decode(#"{"jsonrpc":"2.0","id":\#(id),"method":"m"}"#).get()
        guard case .request(let requestID, _, _) = request else {
            Issue.record("not a request: \(request)")
            return
        }
        let answer = Message.response(id: requestID, result: .success(.null)).json.jsonText
        #expect(answer == #"{"id":\#(id),"jsonrpc":"2.0","result":null}"#)
        // The same id in a `$/cancelRequest` names the same request.
        let cancel = try decode(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":\#(id)}}"#).get()
        guard case .notification(_, let params) = cancel, let cancelled = params?["id"] else {
            Issue.record("no id in \(cancel)")
            return
        }
        #expect(RequestID(cancelled) == requestID)
    }

    /// Ids that differ in their text are different requests, even when a double cannot tell them apart.
    @Test func idsThatADoubleWouldMergeStayApart() throws {
        let ids = try ["-9223372036854775809", "-9223372036854775808", "12345678901234567890123", "12345678901234567890124"].map { text in
            let message = try decode(#"{"jsonrpc":"2.0","id":\#(text),"method":"m"}"#).get()
            guard case .request(let id, _, _) = message else { return RequestID(.string("not a request: \(message)")) }
            return id
        }
        #expect(Set(ids).count == ids.count)
    }

    /// An id with an escaped lone surrogate, which no Swift string holds, is answered byte for byte;
    /// two such ids stay apart, and a valid escape is answered as its character.
    @Test(arguments: [#""\ud800""#, #""\uDC00x""#, #""a\ud83d\"""#])
    func idsAreEchoedExactly(_ idText: String) throws {
        let message = try decode(#"{"jsonrpc":"2.0","id":\#(idText),"method":"m"}"#).get()
        guard case .request(let id, _, _) = message else {
            Issue.record("not a request: \(message)")
            return
        }
        for answer in [Message.response(id: id, result: .success(["ok": true])), .response(id: id, result: .failure(.requestCancelled))] {
            let text = String(decoding: answer.framedBytes, as: UTF8.self)
            #expect(text.contains(#""id":\#(idText)"#), "\(text)")
            let body = try #require(text.split(separator: "\r\n\r\n").last)
            #expect((try? JSONParser.parse(String(body))) != nil, "\(body)")
        }
        let other = try decode(#"{"jsonrpc":"2.0","id":"\udfff","method":"m"}"#).get()
        if case .request(let otherID, _, _) = other { #expect(otherID != id) }
    }

    /// (body, expected error code, expected id)
    static let invalid: [(String, Int, JSON?)] = [
        ("{", ResponseError.parseErrorCode, nil),
        ("\u{FF}", ResponseError.parseErrorCode, nil),
        ("42", ResponseError.invalidRequestCode, nil),
        ("null", ResponseError.invalidRequestCode, nil),
        ("{}", ResponseError.invalidRequestCode, nil),
        ("[]", ResponseError.invalidRequestCode, nil),
        (#"{"jsonrpc":"1.0","id":3,"method":"m"}"#, ResponseError.invalidRequestCode, 3),
        (#"{"jsonrpc":"2.0","id":4,"method":7}"#, ResponseError.invalidRequestCode, 4),
        (#"{"jsonrpc":"2.0","id":{},"method":"m"}"#, ResponseError.invalidRequestCode, nil),
        (#"{"jsonrpc":"2.0","id":5,"method":"m","params":3}"#, ResponseError.invalidRequestCode, 5),
    ]

    @Test(arguments: invalid)
    func invalidMessages(body: String, code: Int, id: JSON?) {
        guard case .failure(let problem) = decode(body) else {
            Issue.record("\(body) decoded")
            return
        }
        #expect(problem.error.code == code)
        #expect(problem.id?.json == id)
    }

    @Test func idsAreEchoedExactly() {
        for id in [#""abc""#, "12", "-3", "1.5", "9007199254740993"] {
            let body = #"{"jsonrpc":"2.0","id":"# + id + #","method":"m"}"#
            guard case .success(.request(let decoded, _, _)) = decode(body) else {
                Issue.record("\(body) did not decode")
                continue
            }
            let answer = Message.response(id: decoded, result: .success(.null)).json.jsonText
            #expect(answer.contains("\"id\":\(id)"), "\(answer)")
        }
    }
}
