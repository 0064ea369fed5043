import Foundation
import JSONValue

/// A scripted session: what the client sends and what it expects back, in order.
///
/// A transcript file is a sequence of blocks separated by lines of `---`. Lines starting with
/// `#` are comments. Each block starts with a directive line:
///
///     send:                  a JSON message to the server (comments and trailing commas allowed);
///                            the harness adds the Content-Length framing
///     send-raw:              bytes sent as they are; `\r`, `\n`, `\t`, `\\` and `\xHH` are escapes
///     expect:                a JSON pattern the next server message must match (objects: the keys
///                            given must match, others are ignored; arrays: element by element;
///                            the string "{{any}}" matches any value, "{{contains:TEXT}}" any string
///                            containing TEXT)
///     expect-tokens:         the next message is a semantic tokens response (full or delta); its
///                            tokens, decoded with the legend, must be exactly the lines that follow,
///                            one per token: `line:startCharacter-endCharacter type`
///     file: PATH             writes the block's text to PATH below the session's workspace folder
///     delete: PATH           deletes PATH below the workspace folder
///     git: ARGUMENTS         runs git with ARGUMENTS (split at spaces) in the workspace folder, committing as
///                            "Alice Doe" <alice@example.invalid> on 2026-01-10 (a real repository: `git: init -q`)
///     exit-code: N           the server must have ended with exit code N
///
/// `${ROOT}` in any block is replaced by the workspace folder's `file:` URI and `${ROOT_PATH}` by its path.
/// The folder holds an empty `.git` folder: it is a repository root, where the search for a
/// governing `.highlights.json` stops.
/// `window/logMessage` notifications are not matched; any other server message must be expected.
struct Transcript {
    enum Step {
        case send(String)
        case sendRaw([UInt8])
        case expect(String)
        case expectTokens([String])
        case writeFile(path: String, contents: String)
        case deleteFile(path: String)
        case git([String])
        case exitCode(Int32)
    }

    struct Block {
        var line: Int
        var step: Step
    }

    var name: String
    var blocks: [Block]

    init(name: String, text: String) throws {
        self.name = name
        var blocks: [Block] = []
        var current: [String] = []
        var startLine = 1
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        func finish() throws {
            let content = current.filter { !$0.hasPrefix("#") }
            current = []
            guard let header = content.first(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else { return }
            let body = content.drop { $0 != header }.dropFirst().joined(separator: "\n")
            blocks.append(Block(line: startLine, step: try Self.step(header: header, body: body, line: startLine)))
        }
        for (number, line) in lines.enumerated() {
            if line == "---" {
                try finish()
                startLine = number + 2
            } else {
                if current.isEmpty && line.hasPrefix("#") == false && line.isEmpty == false { startLine = number + 1 }
                current.append(line)
            }
        }
        try finish()
        self.blocks = blocks
    }

    struct SyntaxError: Error, CustomStringConvertible {
        var description: String
    }

    private static func step(header: String, body: String, line: Int) throws -> Step {
        let parts = header.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        let argument = parts.count > 1 ? parts[1] : ""
        switch parts[0] {
        case "send": return .send(body)
        case "send-raw": return .sendRaw(unescape(body))
        case "expect": return .expect(body)
        case "expect-tokens":
            return .expectTokens(body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        case "file": return .writeFile(path: argument, contents: body)
        case "delete": return .deleteFile(path: argument)
        case "git": return .git(argument.split(separator: " ").map(String.init))
        case "exit-code":
            guard let code = Int32(argument) else { throw SyntaxError(description: "line \(line): bad exit code \(argument)") }
            return .exitCode(code)
        default:
            throw SyntaxError(description: "line \(line): unknown directive \"\(header)\"")
        }
    }

    /// Interprets `\r`, `\n`, `\t`, `\\` and `\xHH`; real newlines in the block are dropped, so
    /// the bytes are exactly what the escapes say.
    static func unescape(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        let source = Array(text.replacingOccurrences(of: "\n", with: "").utf8)
        var index = 0
        while index < source.count {
            let byte = source[index]
            if byte == UInt8(ascii: "\\"), index + 1 < source.count {
                let next = source[index + 1]
                switch next {
                case UInt8(ascii: "r"): bytes.append(13); index += 2; continue
                case UInt8(ascii: "n"): bytes.append(10); index += 2; continue
                case UInt8(ascii: "t"): bytes.append(9); index += 2; continue
                case UInt8(ascii: "\\"): bytes.append(92); index += 2; continue
                case UInt8(ascii: "x") where index + 3 < source.count:
                    if let value = UInt8(String(decoding: source[(index + 2)...(index + 3)], as: UTF8.self), radix: 16) {
                        bytes.append(value)
                        index += 4
                        continue
                    }
                default: break
                }
            }
            bytes.append(byte)
            index += 1
        }
        return bytes
    }
}

/// Matches a received value against an expected pattern; returns a description of the first difference.
func mismatch(expected: JSON, actual: JSON?, path: String = "$") -> String? {
    if case .string("{{any}}") = expected { return actual == nil ? "\(path): missing" : nil }
    if case .string(let pattern) = expected, pattern.hasPrefix("{{contains:"), pattern.hasSuffix("}}") {
        let needle = String(pattern.dropFirst("{{contains:".count).dropLast(2))
        guard let text = actual?.stringValue, text.contains(needle) else {
            return "\(path): expected a string containing \"\(needle)\", got \(actual?.jsonText ?? "nothing")"
        }
        return nil
    }
    guard let actual else { return "\(path): missing, expected \(expected.jsonText)" }
    switch (expected, actual) {
    case (.object(let want), .object(let have)):
        for key in want.keys.sorted() {
            if let problem = mismatch(expected: want[key] ?? .null, actual: have[key], path: "\(path).\(key)") { return problem }
        }
        return nil
    case (.array(let want), .array(let have)):
        guard want.count == have.count else {
            return "\(path): expected \(want.count) elements, got \(have.count): \(actual.jsonText)"
        }
        for (index, element) in want.enumerated() {
            if let problem = mismatch(expected: element, actual: have[index], path: "\(path)[\(index)]") { return problem }
        }
        return nil
    default:
        if expected == actual { return nil }
        if let a = expected.doubleValue, let b = actual.doubleValue, a == b { return nil }
        return "\(path): expected \(expected.jsonText), got \(actual.jsonText)"
    }
}
