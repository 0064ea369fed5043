// The engine benchmark: `swift run -c release highlight-bench [--size MB] [--runs N] [--rg]`.
//
// It generates a reproducible corpus (seeded), times the rule set on it for
// literal word lists of several sizes, typical regexes and a pathological
// regex, and compares with a memchr-style floor measured in the same process
// and, with `--rg`, with ripgrep on the same corpus and patterns. Figures are
// best of N runs; record them in BENCHMARKS.md with the command line.

import Foundation
import PatternEngine
import Seeded

// MARK: - Options

struct Options {
    var sizeInMegabytes = 32
    var runs = 5
    var compareWithRipgrep = false
    var only: String?

    init(arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--size": sizeInMegabytes = iterator.next().flatMap(Int.init).map { max(1, $0) } ?? sizeInMegabytes
            case "--runs": runs = iterator.next().flatMap(Int.init).map { max(1, $0) } ?? runs
            case "--rg": compareWithRipgrep = true
            case "--only": only = iterator.next()
            default:
                print("usage: highlight-bench [--size MB] [--runs N] [--rg] [--only LABEL-SUBSTRING]")
                exit(2)
            }
        }
    }
}

// MARK: - Reproducible corpus

/// Identifier-like words built from syllables, e.g. `parseTokenBuffer`, `render_item`.
func identifierVocabulary(count: Int, seed: UInt64) -> [String] {
    let syllables = ["par", "se", "to", "ken", "buf", "fer", "ren", "der", "item", "list", "map", "node", "tree",
                     "val", "ue", "count", "in", "dex", "line", "col", "um", "text", "range", "match", "rule", "set",
                     "load", "save", "get", "put", "key", "hash", "str", "ing", "han", "dle", "re", "quest", "on",
                     "off", "ac", "tion", "stat", "us", "con", "fig", "path", "file", "err", "or"]
    var generator = SplitMix64(seed: seed)
    var words: Set<String> = []
    var ordered: [String] = []
    while ordered.count < count {
        var word = ""
        let parts = Int.random(in: 2...4, using: &generator)
        for index in 0..<parts {
            var syllable = syllables.randomElement(using: &generator) ?? "x"
            if index > 0, Bool.random(using: &generator) {
                syllable = syllable.prefix(1).uppercased() + syllable.dropFirst()
            }
            word += syllable
        }
        if Int.random(in: 0..<5, using: &generator) == 0 { word += String(Int.random(in: 0..<100, using: &generator)) }
        if words.insert(word).inserted { ordered.append(word) }
    }
    return ordered
}

/// Source-like lines: code, comments with TODO/FIXME, ticket ids, colours, and ~5% non-ASCII.
func makeCorpus(bytes targetSize: Int, vocabulary: [String]) -> [UInt8] {
    var generator = SplitMix64(seed: 0xC0FFEE)
    let nonASCII = ["naïve", "café", "Straße", "日本語のテキスト", "中文注释", "🔥", "✅ done", "Ωμέγα", "привет", "😀👍"]
    let keywords = ["let", "var", "func", "return", "if", "else", "for", "while", "struct", "import"]
    var corpus: [UInt8] = []
    corpus.reserveCapacity(targetSize + 200)
    func pick(_ list: [String]) -> String { list.randomElement(using: &generator) ?? "" }
    while corpus.count < targetSize {
        var line = String(repeating: " ", count: 4 * Int.random(in: 0...3, using: &generator))
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<8:
            line += "// \(pick(["TODO", "FIXME", "NOTE", "todo"])): \(pick(vocabulary)) \(pick(vocabulary)) see "
                + "\(pick(["ABC", "HL", "CORE", "UI"]))-\(Int.random(in: 1..<5000, using: &generator))"
        case 8..<13:
            line += "// \(pick(nonASCII)) \(pick(vocabulary)) \(pick(nonASCII))"
        case 13..<16:
            let colour = String(Int.random(in: 0..<0x100_0000, using: &generator), radix: 16)
            line += "color: #\(String(repeating: "0", count: 6 - colour.count) + colour);"
        case 16..<20:
            line += ""
        default:
            line += "\(pick(keywords)) \(pick(vocabulary)) = \(pick(vocabulary))(\(pick(vocabulary)), "
                + "\(Int.random(in: 0..<1000, using: &generator)))"
        }
        corpus.append(contentsOf: line.utf8)
        corpus.append(0x0A)
    }
    return corpus
}

// MARK: - Timing

let clock = ContinuousClock()

/// The best of `runs` timings of `body`, in seconds, and its last result.
func best<Result>(of runs: Int, _ body: () -> Result) -> (seconds: Double, result: Result) {
    var bestSeconds = Double.infinity
    var last: Result?
    for _ in 0..<runs {
        var result: Result?
        let duration = clock.measure { result = body() }
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        bestSeconds = min(bestSeconds, seconds)
        last = result
    }
    guard let last else { preconditionFailure("runs must be positive") }
    return (bestSeconds, last)
}

func megabytesPerSecond(_ byteCount: Int, _ seconds: Double) -> Double {
    Double(byteCount) / 1_000_000 / seconds
}

func format(_ value: Double, _ digits: Int = 1) -> String {
    String(format: "%.\(digits)f", value)
}

/// A memchr-style scan in pure Swift (eight bytes per step), the same technique as the engine's prefilter.
func swarScan(_ text: UnsafeBufferPointer<UInt8>, for byte: UInt8) -> Int? {
    guard let base = text.baseAddress else { return nil }
    let raw = UnsafeRawPointer(base)
    let low: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    let splat = UInt64(byte) &* low
    var position = 0
    while text.count &- position >= 8 {
        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)) ^ splat
        let found = (word &- low) & ~word & high
        if found != 0 { return position &+ (found.trailingZeroBitCount &>> 3) }
        position &+= 8
    }
    while position < text.count {
        if text[position] == byte { return position }
        position &+= 1
    }
    return nil
}

// MARK: - ripgrep

/// Runs ripgrep on a file and returns the best wall time and its printed count.
func ripgrep(_ arguments: [String], runs: Int) -> (seconds: Double, count: Int)? {
    let path = ["/usr/bin/rg", "/usr/local/bin/rg", "/bin/rg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let path else { return nil }
    var count = 0
    let (seconds, ok) = best(of: runs) { () -> Bool in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { return false }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        count = Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        return true
    }
    return ok ? (seconds, count) : nil
}

// MARK: - Main

let options = Options(arguments: CommandLine.arguments)
let corpusVocabulary = identifierVocabulary(count: 2_000, seed: 1)
let corpusWords = Set(corpusVocabulary)
let otherVocabulary = identifierVocabulary(count: 3_000, seed: 2).filter { !corpusWords.contains($0) }
let corpus = makeCorpus(bytes: options.sizeInMegabytes * 1_000_000, vocabulary: corpusVocabulary)
let runs = options.runs
let temporaryDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("highlight-bench-\(getpid())")
let corpusURL = temporaryDirectory.appendingPathComponent("corpus.txt")
if options.compareWithRipgrep {
    try? FileManager.default.createDirectory(at: temporaryDirectory, withIntermediateDirectories: true)
    try? Data(corpus).write(to: corpusURL)
}
defer { try? FileManager.default.removeItem(at: temporaryDirectory) }

print("corpus: \(corpus.count) bytes (\(options.sizeInMegabytes) MB), best of \(runs) runs")

let floorSeconds = corpus.withUnsafeBufferPointer { buffer in
    best(of: runs) { swarScan(buffer, for: 0x01) }.seconds
}
let libcSeconds = corpus.withUnsafeBytes { buffer in
    best(of: runs) { buffer.baseAddress.map { memchr($0, 0x01, buffer.count) == nil } ?? true }.seconds
}
print("floor: SWAR scan \(format(megabytesPerSecond(corpus.count, floorSeconds))) MB/s, "
      + "libc memchr \(format(megabytesPerSecond(corpus.count, libcSeconds))) MB/s")

/// Times one rule set over the corpus and, when asked, ripgrep with the same patterns.
func measure(_ label: String, rules: [Rule], limits: RuleSet.Limits = .default, ripgrepArguments: [String]?) {
    if let only = options.only, !label.contains(only) { return }
    let ruleSet = RuleSet(rules: rules, limits: limits)
    if !ruleSet.errors.isEmpty { print("  errors: \(ruleSet.errors)") }
    let (seconds, result) = corpus.withUnsafeBufferPointer { buffer in
        best(of: runs) { ruleSet.matches(in: buffer) }
    }
    let speed = megabytesPerSecond(corpus.count, seconds)
    var line = "\(label): \(format(speed)) MB/s, \(result.matches.count) matches, "
        + "engine/floor \(format(seconds / floorSeconds)), engine/memchr \(format(seconds / libcSeconds))"
    if let ripgrepArguments, options.compareWithRipgrep {
        if let rg = ripgrep(ripgrepArguments + [corpusURL.path], runs: runs) {
            line += ", rg \(format(megabytesPerSecond(corpus.count, rg.seconds))) MB/s (\(rg.count) matches), "
                + "engine/rg \(format(seconds / rg.seconds, 2))"
        } else {
            line += ", rg not found"
        }
    }
    print(line)
}

// Literal word lists: a few words present in the corpus, the rest drawn from another vocabulary.
for count in [1, 10, 100, 1_000] {
    let presentCount = count == 1 ? 1 : max(2, count / 100)
    var list = Array(corpusVocabulary.prefix(presentCount))
    list += otherVocabulary.prefix(count - presentCount)
    var ripgrepArguments: [String]?
    if options.compareWithRipgrep {
        let patternsURL = temporaryDirectory.appendingPathComponent("patterns-\(count).txt")
        try? Data((list.joined(separator: "\n") + "\n").utf8).write(to: patternsURL)
        ripgrepArguments = ["--count-matches", "-F", "-f", patternsURL.path]
    }
    measure(count == 1 ? "1 literal word (\(list[0]))" : "\(count) literal words", rules: [Rule(name: "words", pattern: .words(list))], ripgrepArguments: ripgrepArguments)
    if count == 10 {
        // The bare automaton, for scale: what the prefilter saves.
        measure("10 literal words, no prefilter", rules: [Rule(name: "words", pattern: .words(list))],
                limits: RuleSet.Limits(usesLiteralPrefilter: false), ripgrepArguments: nil)
    }
}

for pattern in ["TODO|FIXME", "\\b[A-Z]{2,}-\\d+\\b", "#[0-9a-fA-F]{6}\\b"] {
    measure("regex \(pattern)", rules: [Rule(name: pattern, pattern: .regex(pattern))],
            ripgrepArguments: ["--count-matches", "-e", pattern])
}

// Compile time for 1,000 words.
let thousandWords = Array(corpusVocabulary.prefix(10)) + otherVocabulary.prefix(990)
let compileSeconds = best(of: runs) { RuleSet(rules: [Rule(name: "words", pattern: .words(thousandWords))]) }.seconds
print("compile 1,000 words: \(format(compileSeconds * 1_000, 2)) ms")

// Pathological regexes on runs of `a`, next to a literal scan of the same megabyte: two words, `ab` and `ba`,
// with the prefilter off, so that the automaton reads every byte (a prefilter would skip the run at once).
// Each regex is timed on 1, 2 and 4 MB: linear time means twice the time for twice the text.
if options.only.map({ "pathological".contains($0) }) ?? true {
    let literal = RuleSet(
        rules: [Rule(name: "ab", pattern: .words(["ab", "ba"]))], limits: RuleSet.Limits(usesLiteralPrefilter: false))
    let oneMegabyte = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    let (literalSeconds, _) = oneMegabyte.withUnsafeBufferPointer { buffer in
        best(of: runs) { literal.matches(in: buffer) }
    }
    print("literal scan of 1 MB of a (automaton, no prefilter): \(format(literalSeconds * 1_000, 2)) ms")
    for pattern in ["(a+)+$", "a+b|a"] {
        let ruleSet = RuleSet(rules: [Rule(name: pattern, pattern: .regex(pattern))])
        var line = "\(pattern) on a run of a:"
        var oneMegabyteSeconds = 0.0
        for megabytes in [1, 2, 4] {
            let text = [UInt8](repeating: UInt8(ascii: "a"), count: megabytes * 1_000_000)
            let (seconds, result) = text.withUnsafeBufferPointer { buffer in
                best(of: runs) { ruleSet.matches(in: buffer) }
            }
            if megabytes == 1 { oneMegabyteSeconds = seconds }
            line += " \(megabytes) MB \(format(seconds * 1_000, 2)) ms (\(result.matches.count) matches),"
        }
        line += " /literal scan \(format(oneMegabyteSeconds / literalSeconds))"
        print(line)
    }
}

// Lost candidates (issue 13): a regex candidate that loses to another rule's overlapping match at every step.
// Words `ab` and `b[a-z]*c` on one line `abab…abc` (every `ab` beats the regex's match from the next `b`), and
// words `ba` and `b[a-z]*c|b` on `baba…ba` (every `ba` beats the regex's `b`, found only after reading to the
// end of the line for a `c`), at 20, 40, 80 and 160 KB, each next to the words alone on the same line (a literal
// scan). Linear time means twice the time for twice the line.
if options.only.map({ "lost candidates".contains($0) }) ?? true {
    let cases: [(words: String, regex: String, unit: String, tail: String)] = [
        ("ab", "b[a-z]*c", "ab", "c\n"),
        ("ba", "b[a-z]*c|b", "ba", "\n"),
    ]
    for lostCase in cases {
        let withRegex = RuleSet(rules: [
            Rule(name: "words", pattern: .words([lostCase.words])), Rule(name: "regex", pattern: .regex(lostCase.regex)),
        ])
        let wordsOnly = RuleSet(rules: [Rule(name: "words", pattern: .words([lostCase.words]))])
        var line = "lost candidates, words \(lostCase.words) + \(lostCase.regex) on one line:"
        for kilobytes in [20, 40, 80, 160] {
            let text = Array((String(repeating: lostCase.unit, count: kilobytes * 500) + lostCase.tail).utf8)
            let (seconds, result) = text.withUnsafeBufferPointer { buffer in best(of: runs) { withRegex.matches(in: buffer) } }
            let (literalSeconds, _) = text.withUnsafeBufferPointer { buffer in best(of: runs) { wordsOnly.matches(in: buffer) } }
            line += " \(kilobytes) KB \(format(seconds * 1_000, 3)) ms (words alone \(format(literalSeconds * 1_000, 3)) ms, \(result.matches.count) matches),"
        }
        print(line)
    }
}
