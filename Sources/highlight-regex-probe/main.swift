// highlight-regex-probe: runs the project's regex engine for the differential test against RE2
// (Tests/re2/differential.py). Not a user-facing tool.
//
// Input, one JSON object per line on stdin:
//     {"pattern": "T\\w+?", "texts": ["TODO"], "from": [0, 2], "caseInsensitive": false, "wholeWord": false}
// Output, one JSON object per input line on stdout, in order:
//     {"ok": true, "matches": [[[0, 2], null]]}      per text, per `from` offset: [start, end] or null
//     {"ok": false, "error": "message", "offset": 3}  the pattern was rejected (UTF-8 offset in the pattern)
// Offsets are UTF-8 byte offsets. A line that is not such an object gets {"ok": false, "error": ..., "offset": -1}.

import JSONValue
import PatternEngine

/// Answers one request line.
func answer(_ line: String) -> JSON {
    guard let request = try? JSONParser.parse(line), let pattern = request["pattern"]?.stringValue else {
        return ["ok": false, "error": "a request needs a \"pattern\" string", "offset": -1]
    }
    let texts = request["texts"]?.arrayValue?.compactMap(\.stringValue) ?? []
    let offsets = request["from"]?.arrayValue?.compactMap(\.integerValue) ?? [0]
    let regex: CompiledRegex
    do {
        regex = try CompiledRegex(
            pattern, caseInsensitive: request["caseInsensitive"]?.boolValue ?? false,
            wholeWord: request["wholeWord"]?.boolValue ?? false)
    } catch {
        return ["ok": false, "error": .string(error.message), "offset": .integer(error.patternUTF8Offset)]
    }
    var perText: [JSON] = []
    for text in texts {
        let bytes = Array(text.utf8)
        let spans: [JSON] = bytes.withUnsafeBufferPointer { buffer in
            offsets.map { from in
                guard let match = regex.firstMatch(in: buffer, from: from) else { return .null }
                return [.integer(match.lowerBound), .integer(match.upperBound)]
            }
        }
        perText.append(.array(spans))
    }
    return ["ok": true, "matches": .array(perText)]
}

while let line = readLine(strippingNewline: true) {
    if line.isEmpty { continue }
    print(answer(line).jsonText)
}
