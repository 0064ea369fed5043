import Foundation
import HighlightConfig
import JSONRPC
import JSONValue
import Seeded

// The keystroke-latency driver: starts the real server binary over pipes, opens a small and a
// large document, types into each, and reports latency percentiles, the time of a full token
// request on the large document next to the engine's own scan of it, and the server's memory.
//
//   swift build -c release && .build/release/highlight-load [--server PATH] [--edits N] [--lines N] [--regex PATTERN] [--marks N]
//   (`--regex` adds a rule, for example one that matches across a line break; `--marks N` marks
//   N texts of the corpus for the session, as the Highlight code action does, before typing:
//   TODO and FIXME as words, then ABC-1, ABC-2… literally; `--mark-words A,B,…` marks those words.)
//   (`--soak` runs the reliability soak instead; see Soak.swift. `--during` measures keystrokes
//   during long work; see During.swift. `--keystroke` measures one edit's round trip in a 10-line
//   and a 100,000-line document, next to a baseline server; see Keystroke.swift.)

if CommandLine.arguments.dropFirst().first == "--soak" { exit(runSoak(Array(CommandLine.arguments.dropFirst(2)))) }
if CommandLine.arguments.dropFirst().first == "--keystroke" {
    exit(runKeystroke(Array(CommandLine.arguments.dropFirst(2)), serverPath: ".build/release/highlight-ls"))
}
if CommandLine.arguments.dropFirst().first == "--during" {
    exit(runDuring(Array(CommandLine.arguments.dropFirst(2)), serverPath: ".build/release/highlight-ls"))
}

var serverPath = ".build/release/highlight-ls"
var editCount = 300
var largeLineCount = 100_000
/// An extra rule (`--regex`), such as one that matches across a line break.
var extraRegex: String?
/// How many texts to mark for the session (`--marks`) before typing.
var markCount = 0
/// Words to mark instead (`--mark-words`), each as a whole word.
var markWords: [String]?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--server": serverPath = arguments.popFirst() ?? serverPath
    case "--edits": editCount = arguments.popFirst().flatMap { Int($0) } ?? editCount
    case "--lines": largeLineCount = arguments.popFirst().flatMap { Int($0) } ?? largeLineCount
    case "--regex": extraRegex = arguments.popFirst()
    case "--marks": markCount = arguments.popFirst().flatMap { Int($0) } ?? markCount
    case "--mark-words": markWords = arguments.popFirst().map { $0.split(separator: ",").map(String.init) }
    default:
        print("usage: highlight-load [--server PATH] [--edits N] [--lines N] [--regex PATTERN] [--marks N | --mark-words A,B,…]")
        exit(2)
    }
}

guard FileManager.default.isExecutableFile(atPath: serverPath) else {
    print("highlight-load: no server at \(serverPath); build it first: swift build -c release --product highlight-ls")
    exit(2)
}
let session = try ServerSession(executable: serverPath)
let options: JSON = extraRegex.map { ["rules": [["name": "extra", "regex": .string($0)]]] } ?? [:]
_ = try session.request("initialize", ["processId": .null, "capabilities": [:], "rootUri": .null, "initializationOptions": options])
session.notify("initialized", [:])
// Session marks: by default texts about as frequent as the built-in rules' matches (TODO and
// FIXME as words, which the marks take over, then ticket prefixes, literally), or given words.
let marks: [(text: String, wholeWord: Bool)] = markWords.map { $0.map { ($0, true) } }
    ?? Array(([("TODO", true), ("FIXME", true)] + (1...9).map { ("ABC-\($0)", false) }).prefix(markCount))
let markedWords = marks.map(\.text)
for mark in marks {
    _ = try session.request("workspace/executeCommand", ["command": "highlight.mark", "arguments": [["text": .string(mark.text), "wholeWord": .bool(mark.wholeWord)]]])
}

let smallText = Corpus.lines(count: 10, seed: 1)
let largeText = Corpus.lines(count: largeLineCount, seed: 2)

func measureTyping(_ session: ServerSession, uri: String, text: String, seed: UInt64, edits editCount: Int) throws -> [Double] {
    session.notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "swift", "version": 1, "text": .string(text)]])
    var previous = try session.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(uri)]])["resultId"]?.stringValue ?? ""
    var random = SplitMix64(seed: seed)
    let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
    var latencies: [Double] = []
    for version in 2..<(editCount + 2) {
        let line = Int(random.next() % UInt64(max(lineCount, 1)))
        let character = Int(random.next() % 20)
        let inserted = ["x", " ", "T", "O", "D", "é", "\n"][Int(random.next() % 7)]
        let start = DispatchTime.now().uptimeNanoseconds
        session.notify("textDocument/didChange", [
            "textDocument": ["uri": .string(uri), "version": .integer(version)],
            "contentChanges": [["range": ["start": ["line": .integer(line), "character": .integer(character)],
                                          "end": ["line": .integer(line), "character": .integer(character)]],
                                "text": .string(inserted)]],
        ])
        let answer = try session.request("textDocument/semanticTokens/full/delta",
                                         ["textDocument": ["uri": .string(uri)], "previousResultId": .string(previous)])
        latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        previous = answer["resultId"]?.stringValue ?? previous
    }
    return latencies.sorted()
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

let small = try measureTyping(session, uri: "file:///bench/small.swift", text: smallText, seed: 10, edits: editCount)
let large = try measureTyping(session, uri: "file:///bench/large.swift", text: largeText, seed: 20, edits: editCount)

// A full token request on the large document after a change, next to the engine's own scan.
session.notify("textDocument/didChange", ["textDocument": ["uri": "file:///bench/large.swift", "version": 100_000],
                                          "contentChanges": [["text": .string(largeText)]]])
var fullTimes: [Double] = []
var tokenCount = 0
for round in 0..<5 {
    session.notify("textDocument/didChange", ["textDocument": ["uri": "file:///bench/large.swift", "version": .integer(100_001 + round)],
                                              "contentChanges": [["text": .string(largeText)]]])
    _ = try session.request("highlight/matches", ["textDocument": ["uri": "file:///bench/large.swift"]], discardResult: true)
    let start = DispatchTime.now().uptimeNanoseconds
    let answer = try session.request("textDocument/semanticTokens/full", ["textDocument": ["uri": "file:///bench/large.swift"]])
    fullTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    tokenCount = (answer["data"]?.arrayValue?.count ?? 0) / 5
}
// The same work split: a change then a full request, with the scan included.
var fullWithScan: [Double] = []
for round in 0..<5 {
    let start = DispatchTime.now().uptimeNanoseconds
    session.notify("textDocument/didChange", ["textDocument": ["uri": "file:///bench/large.swift", "version": .integer(100_100 + round)],
                                              "contentChanges": [["range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]], "text": " "]]])
    _ = try session.request("textDocument/semanticTokens/full", ["textDocument": ["uri": "file:///bench/large.swift"]])
    fullWithScan.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
}
let largeBytes = Array(largeText.utf8)
let config = HighlightConfiguration(layers: [])
var scanTimes: [Double] = []
for _ in 0..<5 {
    let start = DispatchTime.now().uptimeNanoseconds
    let count = largeBytes.withUnsafeBufferPointer { config.ruleSet.matches(in: $0).matches.count }
    scanTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    precondition(count >= 0)
}
let peakAfterTyping = session.memory()

_ = try session.request("shutdown", nil)
session.notify("exit", nil)

// Memory: 200 documents of 100 KB, in a fresh server so that the large document above does not count.
let memorySession = try ServerSession(executable: serverPath)
_ = try memorySession.request("initialize", ["processId": .null, "capabilities": [:], "rootUri": .null])
memorySession.notify("initialized", [:])
let baseMemory = memorySession.memory()
let documentText = Corpus.bytes(approximately: 100_000, seed: 3)
for index in 0..<200 {
    memorySession.notify("textDocument/didOpen", ["textDocument": ["uri": .string("file:///bench/m\(index).swift"), "languageId": "swift", "version": 1, "text": .string(documentText)]])
    // Highlights are computed when first asked for, as an editor does right after opening.
    _ = try memorySession.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string("file:///bench/m\(index).swift")]], discardResult: true)
}
let memoryWithDocuments = memorySession.memory()
_ = try memorySession.request("shutdown", nil)
memorySession.notify("exit", nil)

func row(_ name: String, _ values: [Double]) -> String {
    String(format: "%-34@ p50 %8.3f ms   p95 %8.3f ms   max %8.3f ms", name as NSString, percentile(values, 0.5), percentile(values, 0.95), values.last ?? .nan)
}
print("highlight-load: \(editCount) single-character edits per document, each followed by semanticTokens/full/delta"
      + (extraRegex.map { " (extra rule: \($0))" } ?? "")
      + (markedWords.isEmpty ? "" : " (\(markedWords.count) marks: \(markedWords.joined(separator: ", ")))"))
print(row("10-line document", small))
print(row("\(largeLineCount)-line document (\(largeBytes.count / 1_000_000) MB)", large))
print(String(format: "ratio large/small                   p50 %8.2f      p95 %8.2f", percentile(large, 0.5) / percentile(small, 0.5), percentile(large, 0.95) / percentile(small, 0.95)))
print(String(format: "full tokens, large document         %8.2f ms (best of 5; %d tokens; matches cached)", fullTimes.min() ?? .nan, tokenCount))
print(String(format: "edit + full tokens, large document  %8.2f ms (best of 5; includes the scan)", fullWithScan.min() ?? .nan))
print(String(format: "engine scan of the same text        %8.2f ms (best of 5, in this process)", scanTimes.min() ?? .nan))
print(String(format: "server peak RSS after typing        %8.1f MB", peakAfterTyping.peakMB))
let textMB = Double(200 * documentText.utf8.count) / 1_048_576
print(String(format: "server RSS after initialize         %8.1f MB (the fixed base)", baseMemory.currentMB))
print(String(format: "RSS with 200 x 100 KB open          %8.1f MB (text: %.1f MB; above the base: %.2f x the text)", memoryWithDocuments.currentMB,
             textMB, (memoryWithDocuments.currentMB - baseMemory.currentMB) / textMB))
