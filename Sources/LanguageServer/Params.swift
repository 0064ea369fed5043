import JSONRPC
import JSONValue
import TextIndex

// Reading typed values out of request parameters. A missing or mistyped field is an
// InvalidParams error that names the field, never a trap.

extension Optional where Wrapped == JSON {
    /// The value at a dotted path ("textDocument.uri"), or `nil` when any step is missing.
    func value(at path: String) -> JSON? {
        var current = self
        for key in path.split(separator: ".") {
            guard let object = current?.objectValue else { return nil }
            current = object[String(key)]
        }
        return current
    }

    func requiredString(_ path: String) throws(ResponseError) -> String {
        guard let value = value(at: path)?.stringValue else { throw Self.invalid(path, "a string", value(at: path)) }
        return value
    }

    func requiredInteger(_ path: String) throws(ResponseError) -> Int {
        guard let value = value(at: path)?.integerValue else { throw Self.invalid(path, "an integer", value(at: path)) }
        return value
    }

    func requiredArray(_ path: String) throws(ResponseError) -> [JSON] {
        guard let value = value(at: path)?.arrayValue else { throw Self.invalid(path, "an array", value(at: path)) }
        return value
    }

    func requiredPosition(_ path: String) throws(ResponseError) -> Position {
        Position(line: try requiredInteger(path + ".line"), character: try requiredInteger(path + ".character"))
    }

    func requiredRange(_ path: String) throws(ResponseError) -> (start: Position, end: Position) {
        (try requiredPosition(path + ".start"), try requiredPosition(path + ".end"))
    }

    private static func invalid(_ path: String, _ expected: String, _ found: JSON?) -> ResponseError {
        .invalidParams("params.\(path) must be \(expected), found \(found.map(\.typeName) ?? "nothing")")
    }
}

extension Position {
    /// The LSP JSON form `{ "line": L, "character": C }`.
    var json: JSON { ["line": .integer(line), "character": .integer(character)] }
}
