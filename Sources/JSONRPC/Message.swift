import JSONValue

/// A JSON-RPC 2.0 message: a request, a notification or a response.
public enum Message: Sendable, Equatable {
    case request(id: RequestID, method: String, params: JSON?)
    case notification(method: String, params: JSON?)
    case response(id: RequestID, result: Result<JSON, ResponseError>)
}

/// A request id, kept as the JSON value it arrived as so that it is echoed exactly.
public struct RequestID: Sendable, Hashable, CustomStringConvertible {
    public var json: JSON
    /// The id's JSON text as the client wrote it, when `json` would not write back to the same
    /// text: a string with an escaped lone surrogate (`"\ud800"`), which no Swift string can hold.
    /// Answers carry these bytes, so the client gets back exactly the id it sent.
    var verbatimText: [UInt8]?

    public init(_ json: JSON) { self.json = json }
    public init(_ value: Int) { self.json = .integer(value) }
    public var description: String { verbatimText.map { String(decoding: $0, as: UTF8.self) } ?? json.jsonText }
}

/// An error object of a JSON-RPC response.
public struct ResponseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: Int
    public var message: String
    var data: JSON?

    public init(code: Int, message: String, data: JSON? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var description: String { "\(code): \(message)" }

    // JSON-RPC 2.0.
    public static let parseErrorCode = -32700
    public static let invalidRequestCode = -32600
    static let methodNotFoundCode = -32601
    static let invalidParamsCode = -32602
    public static let internalErrorCode = -32603
    // Language Server Protocol.
    public static let serverNotInitializedCode = -32002
    static let unknownErrorCode = -32001
    static let requestFailedCode = -32803
    static let serverCancelledCode = -32802
    public static let contentModifiedCode = -32801
    public static let requestCancelledCode = -32800

    static func parseError(_ message: String) -> ResponseError { ResponseError(code: parseErrorCode, message: message) }
    public static func invalidRequest(_ message: String) -> ResponseError { ResponseError(code: invalidRequestCode, message: message) }
    public static func methodNotFound(_ method: String) -> ResponseError {
        ResponseError(code: methodNotFoundCode, message: "method not found: \(method)")
    }
    public static func invalidParams(_ message: String) -> ResponseError { ResponseError(code: invalidParamsCode, message: message) }
    public static func internalError(_ message: String) -> ResponseError { ResponseError(code: internalErrorCode, message: message) }
    public static func requestFailed(_ message: String) -> ResponseError { ResponseError(code: requestFailedCode, message: message) }
    public static let requestCancelled = ResponseError(code: requestCancelledCode, message: "request cancelled")
}

/// Why a message body could not be turned into a `Message`, and the id to answer with, if any.
public struct MessageDecodingError: Error, Sendable, Equatable {
    public var id: RequestID?
    public var error: ResponseError
}

extension Message {
    /// Decodes a message body (one JSON value).
    ///
    /// Bodies that are not UTF-8 JSON give -32700 with no id; values that are not a valid
    /// JSON-RPC 2.0 message give -32600, with the id when one could be read.
    public static func decode(body: [UInt8]) -> Result<Message, MessageDecodingError> {
        let json: JSON
        do {
            json = try JSONParser.parse(body)
        } catch {
            return .failure(MessageDecodingError(id: nil, error: .parseError("parse error: \(error.message)")))
        }
        // Only a string id that decoded with a replacement character can differ from its text.
        guard case .string(let text)? = json["id"], text.contains("\u{FFFD}"), let verbatim = verbatimIDText(in: body) else {
            return decode(json)
        }
        func exact(_ id: RequestID) -> RequestID {
            var id = id
            id.verbatimText = verbatim
            return id
        }
        switch decode(json) {
        case .success(.request(let id, let method, let params)): return .success(.request(id: exact(id), method: method, params: params))
        case .success(.response(let id, let result)): return .success(.response(id: exact(id), result: result))
        case .success(let notification): return .success(notification)
        case .failure(var problem):
            problem.id = problem.id.map(exact)
            return .failure(problem)
        }
    }

    /// The text of the top-level `"id"` string of a body that parsed, from its opening quote to its
    /// closing one.
    private static func verbatimIDText(in body: [UInt8]) -> [UInt8]? {
        guard let (_, map) = try? JSONParser.parseWithLocations(body), let start = map.utf8Offset(ofValueAt: [.key("id")]),
              start < body.count, body[start] == UInt8(ascii: "\"") else { return nil }
        var index = start + 1
        while index < body.count {
            switch body[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return Array(body[start...index])
            default: index += 1
            }
        }
        return nil
    }

    /// Decodes a JSON value as a message.
    public static func decode(_ json: JSON) -> Result<Message, MessageDecodingError> {
        guard case .object(let object) = json else {
            if case .array = json {
                return .failure(MessageDecodingError(id: nil, error: .invalidRequest("batch requests are not supported")))
            }
            return .failure(MessageDecodingError(id: nil, error: .invalidRequest("a message must be a JSON object, not \(json.typeName)")))
        }
        let id: RequestID?
        switch object["id"] {
        case nil: id = nil
        case .some(let value):
            switch value {
            case .integer, .double, .number, .string, .null: id = RequestID(value)
            default:
                return .failure(MessageDecodingError(id: nil, error: .invalidRequest("\"id\" must be a string or a number")))
            }
        }
        guard object["jsonrpc"] == .string("2.0") else {
            return .failure(MessageDecodingError(id: id, error: .invalidRequest("\"jsonrpc\" must be \"2.0\"")))
        }
        // A null "params" means none: Emacs' Eglot sends it with shutdown and exit.
        let params = object["params"] == .null ? nil : object["params"]
        if let params, !(params.objectValue != nil || params.arrayValue != nil) {
            return .failure(MessageDecodingError(id: id, error: .invalidRequest("\"params\" must be an object or an array")))
        }
        if let methodValue = object["method"] {
            guard let method = methodValue.stringValue else {
                return .failure(MessageDecodingError(id: id, error: .invalidRequest("\"method\" must be a string")))
            }
            if let id { return .success(.request(id: id, method: method, params: params)) }
            return .success(.notification(method: method, params: params))
        }
        guard let id else {
            return .failure(MessageDecodingError(id: nil, error: .invalidRequest("a message needs \"method\" or \"id\"")))
        }
        if let errorValue = object["error"] {
            guard let code = errorValue["code"]?.integerValue, let message = errorValue["message"]?.stringValue else {
                return .failure(MessageDecodingError(id: id, error: .invalidRequest("malformed error object")))
            }
            return .success(.response(id: id, result: .failure(ResponseError(code: code, message: message, data: errorValue["data"]))))
        }
        guard let result = object["result"] else {
            return .failure(MessageDecodingError(id: id, error: .invalidRequest("a response needs \"result\" or \"error\"")))
        }
        return .success(.response(id: id, result: .success(result)))
    }

    /// The message as a JSON value.
    public var json: JSON {
        switch self {
        case .request(let id, let method, let params):
            var object: [String: JSON] = ["jsonrpc": "2.0", "id": id.json, "method": .string(method)]
            if let params { object["params"] = params }
            return .object(object)
        case .notification(let method, let params):
            var object: [String: JSON] = ["jsonrpc": "2.0", "method": .string(method)]
            if let params { object["params"] = params }
            return .object(object)
        case .response(let id, .success(let result)):
            return ["jsonrpc": "2.0", "id": id.json, "result": result]
        case .response(let id, .failure(let error)):
            var errorObject: [String: JSON] = ["code": .integer(error.code), "message": .string(error.message)]
            if let data = error.data { errorObject["data"] = data }
            return ["jsonrpc": "2.0", "id": id.json, "error": .object(errorObject)]
        }
    }

    /// The message framed for the wire, its id written as the client wrote it.
    public var framedBytes: [UInt8] {
        let verbatimID: [UInt8]?
        switch self {
        case .request(let id, _, _), .response(let id, _): verbatimID = id.verbatimText
        case .notification: verbatimID = nil
        }
        guard let verbatimID, case .object(var object) = json else { return framed(json.encoded()) }
        // The id goes first, as the client wrote it, then the other members.
        object["id"] = nil
        let rest = JSON.object(object).encoded().dropFirst()
        return framed(Array("{\"id\":".utf8) + verbatimID + (rest.count > 1 ? [UInt8(ascii: ",")] : []) + rest)
    }
}
