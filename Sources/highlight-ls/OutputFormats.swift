#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HighlightConfig
import JSONRPC
import JSONValue
import LanguageServer
import PatternEngine
import TextIndex
import WorkspaceScan

// How `list` and `check` write what they found, one writer per `--format`:
//
//     text    path:line:column: rule: text            (grep's form; 1-based, byte columns)
//     json    one object per match and line             (positions in UTF-8, UTF-16 and UTF-32)
//     sarif   one SARIF 2.1.0 log                       (GitHub code scanning; UTF-16 columns)
//     github  ::error file=…,line=…::message            (GitHub Actions annotations)
//     junit   <testsuites> with one <testcase> per file  (most CI systems)
//     csv     a header row, then one row per match       (RFC 4180; OutputFormats+CSV.swift)
//     markdown  one table, or one per group               (OutputFormats+Markdown.swift)
//
// Text, JSON, CSV and Markdown are written file by file as results arrive; SARIF and JUnit are
// one document, written at the end. With `--blame`, each match carries its line's blame
// (`FileReport.blames`), and every format but github and junit shows it.

/// One file's results, with the configuration that searched it.
struct FileReport {
    var scanned: ScannedFile
    var configuration: HighlightConfiguration
    /// Why the file was not searched, for people (nil when it was).
    var skipReason: String?
    /// Each match's message: the rule's `message` filled in, else `rule: text`.
    var messages: [String]
    /// Each match's state against `check --baseline`; empty without a baseline (every match is new).
    var baselineStates: [BaselineState] = []
    /// Each match's fields, aligned with `scanned.matches`; empty when none has any.
    var fields: [MatchFields?] = []
    /// Deadlines due soon and dates that do not exist, which `github` annotates too.
    var deadlineWarnings: [DeadlineWarning] = []
    /// Each match's blame (`--blame`); empty when blame was not asked for.
    var blames: [MatchBlame] = []

    /// ` (overdue by 3 days, due 2026-03-01)` after the match at `index` when its deadline has passed.
    func overdueNote(_ index: Int) -> [UInt8]? {
        guard case .overdue? = deadline(index), let due = fields[index]?.fields.due, let state = deadline(index) else { return nil }
        return Array(" (\(state.phrase), due \(due))".utf8)
    }

    /// `messages` with each overdue match's note after its message, for the formats that show messages.
    var messagesWithDeadlines: [String] {
        guard !fields.isEmpty else { return messages }
        return messages.indices.map { index in messages[index] + String(decoding: overdueNote(index) ?? [], as: UTF8.self) }
    }

    /// Where the deadline of the match at `index` stands, when it has one.
    func deadline(_ index: Int) -> DeadlineState? {
        fields.indices.contains(index) ? fields[index]?.deadline : nil
    }

    /// Whether the report carries blame: `--blame` was given.
    var hasBlame: Bool { !blames.isEmpty }

    /// The blame of the match at `index` of `scanned.matches`; unknown when there is none.
    func blame(of index: Int) -> MatchBlame {
        blames.indices.contains(index) ? blames[index] : .unknown
    }

    /// The report of the matches at `indices` only (in that order), with their messages, states, fields and blames.
    func selecting(_ indices: [Int]) -> FileReport {
        func pick<Element>(_ values: [Element]) -> [Element] { values.isEmpty ? [] : indices.map { values[$0] } }
        var selected = self
        selected.scanned.matches = indices.map { scanned.matches[$0] }
        selected.messages = pick(messages)
        selected.baselineStates = pick(baselineStates)
        selected.blames = pick(blames)
        selected.fields = pick(fields)
        return selected
    }

    /// Whether the match at `index` of `scanned.matches` fails the check: it is not covered by a baseline.
    func isNew(_ index: Int) -> Bool {
        !baselineStates.indices.contains(index) || baselineStates[index] == .new
    }
}

/// What a run of `list` or `check` was, for writers that describe the run.
struct RunSummary {
    var command: ScanCommand
    var matchCount: Int
    var fileCount: Int
    var failed: Bool
    /// The baseline's entries that no match covers any more (`check --baseline`).
    var staleBaselineEntries: [StaleBaselineEntry] = []
}

/// Writes the results of `list` or `check` in one format.
protocol ReportWriter {
    /// Called for each file in walk order; appends what to write now.
    mutating func file(_ report: FileReport, to output: inout OutputBuffer)
    /// Called once at the end; appends what to write last.
    mutating func finish(_ summary: RunSummary, to output: inout OutputBuffer)
    /// Called before the files of each group of `--group-by`, with the group's name and size; appends its heading.
    mutating func beginGroup(_ name: String, matchCount: Int, to output: inout OutputBuffer)
}

extension ReportWriter {
    /// Formats whose records stand alone (JSON lines, CSV) head no group: their records come in group order.
    mutating func beginGroup(_ name: String, matchCount: Int, to output: inout OutputBuffer) {}
}

/// Standard output's bytes, gathered and written in blocks of 64 KiB or more: a match costs a few
/// copies into one buffer, not a `String` and a system call. A struct passed `inout`, so that its
/// appends need no run-time exclusivity check (a class's stored property would, per append).
struct OutputBuffer {
    /// The bytes gathered and not yet written.
    private(set) var bytes: [UInt8] = []
    /// Where they are written; nil for a buffer that only gathers (one file's report, written by a worker).
    private let descriptor: Int32?
    private static let blockSize = 1 << 16

    /// A buffer in front of `descriptor` (standard output by default).
    init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
        bytes.reserveCapacity(Self.blockSize + 4096)
    }

    /// A buffer that gathers bytes and never writes them (`flush` keeps them), for `bytes` to be taken; room for
    /// `expectedBytes` is made at once, so that a large report is not copied as it grows (each copy into memory
    /// not touched before).
    init(gathering expectedBytes: Int) {
        descriptor = nil
        bytes.reserveCapacity(expectedBytes)
    }

    mutating func append(_ string: String) {
        bytes.append(contentsOf: string.utf8)
        flushWhenFull()
    }

    mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    mutating func append(_ part: [UInt8]) {
        bytes.append(contentsOf: part)
    }

    /// Appends one record of at most `maximumCount` bytes, which `write` puts straight into the buffer's spare room:
    /// one check for room a record, not one a byte (`list`'s lines, a tenth of its time with a regex of 114,000
    /// matches when each byte was an `Array.append`).
    mutating func appendRecord(atMost maximumCount: Int, _ write: (inout RecordWriter) -> Void) {
        bytes.append(addingCapacity: maximumCount) { span in
            span.withUnsafeMutableBufferPointer { room, initialized in
                var record = RecordWriter(room: room, count: initialized)
                write(&record)
                initialized = record.count
            }
        }
    }

    /// Writes the gathered bytes once they fill a block.
    mutating func flushWhenFull() {
        if bytes.count >= Self.blockSize { flush() }
    }

    /// Writes every gathered byte; the owner calls it last, and before anything else is written to the descriptor.
    mutating func flush() {
        guard !bytes.isEmpty, let descriptor else { return }
        // A closed pipe or a full disk: the rest cannot be written either.
        _ = bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
        bytes.removeAll(keepingCapacity: true)
    }
}

/// Writes one record into room that `OutputBuffer.appendRecord(atMost:_:)` made for it. Each write checks that it
/// fits (a record longer than its bound is a bug, stopped before it writes past the room).
struct RecordWriter {
    fileprivate let room: UnsafeMutableBufferPointer<UInt8>
    fileprivate(set) var count: Int

    /// How many bytes `appendTerminalText(utf8:)` and `appendJSONString(utf8:)` write at most for `count` bytes of
    /// text (a `\u0001` for a control byte, three bytes of U+FFFD for an invalid one), quotes included.
    static func escapedBound(_ count: Int) -> Int { 6 * count + 2 }
    /// How many bytes `appendDecimal` writes at most: a sign and nineteen digits.
    static var decimalBound: Int { 20 }

    mutating func append(_ byte: UInt8) {
        precondition(count < room.count, "a record outgrew its bound")
        room[count] = byte
        count += 1
    }

    mutating func append(_ part: UnsafeBufferPointer<UInt8>) {
        guard let source = part.baseAddress, let target = room.baseAddress else { return }
        precondition(part.count <= room.count - count, "a record outgrew its bound")
        (target + count).update(from: source, count: part.count)
        count += part.count
    }

    mutating func append(_ part: [UInt8]) {
        part.withUnsafeBufferPointer { append($0) }
    }

    mutating func append(_ string: StaticString) {
        append(UnsafeBufferPointer(start: string.utf8Start, count: string.utf8CodeUnitCount))
    }

    /// Appends `value` in decimal.
    mutating func appendDecimal(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 1
        var power: UInt = 10
        while digits < 20, magnitude >= power {
            digits += 1
            power &*= 10
        }
        precondition(digits <= room.count - count, "a record outgrew its bound")
        var index = count + digits
        repeat {
            index -= 1
            room[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        count += digits
    }

    /// Appends the text of the UTF-8 `text` (repaired as `String(decoding:as:)` repairs it) as `terminalText` shows
    /// it. Printable ASCII, most matches, is copied as it is, with no `String` made.
    mutating func appendTerminalText(utf8 text: ArraySlice<UInt8>) {
        let copied = text.withUnsafeBufferPointer { text in
            guard text.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == UInt8(ascii: "\t") }) else { return false }
            append(text)
            return true
        }
        guard !copied else { return }
        for byte in terminalText(String(decoding: text, as: UTF8.self)).utf8 { append(byte) }
    }

    /// Appends the text of the UTF-8 `text` as a JSON string, exactly as `jsonString` writes it. ASCII that needs no
    /// escape, most matches, is copied between the quotes as it is.
    mutating func appendJSONString(utf8 text: ArraySlice<UInt8>) {
        guard text.allSatisfy({ $0 >= 0x20 && $0 < 0x80 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else {
            for byte in jsonString(String(decoding: text, as: UTF8.self)).utf8 { append(byte) }
            return
        }
        append(UInt8(ascii: "\""))
        text.withUnsafeBufferPointer { append($0) }
        append(UInt8(ascii: "\""))
    }
}

/// Each rule's name as a writer spells it, made on first use and kept for the file's other matches: an array by rule
/// index, not a dictionary (hashing the index was a match's costliest step after the copy).
struct RuleNames {
    private let configuration: HighlightConfiguration
    private let spell: (String) -> [UInt8]
    private var spelled: [[UInt8]?]

    init(_ configuration: HighlightConfiguration, spelling spell: @escaping (String) -> [UInt8]) {
        self.configuration = configuration
        self.spell = spell
        spelled = Array(repeating: nil, count: configuration.rules.count)
    }

    /// The name of rule `ruleIndex`, spelled (as `ruleName` gives it).
    subscript(ruleIndex: Int) -> [UInt8] {
        mutating get {
            let known = spelled.indices.contains(ruleIndex)
            if known, let name = spelled[ruleIndex] { return name }
            let name = spell(ruleName(ruleIndex, in: configuration))
            if known { spelled[ruleIndex] = name }
            return name
        }
    }
}

/// The rule of a match in its configuration, or nil for an index that names none.
func ruleName(_ ruleIndex: Int, in configuration: HighlightConfiguration) -> String {
    configuration.rules.indices.contains(ruleIndex) ? configuration.rules[ruleIndex].name : ""
}

// MARK: text

struct TextWriter: ReportWriter {
    var colours: Bool

    init(colours: Bool) {
        self.colours = colours
    }

    mutating func file(_ report: FileReport, to output: inout OutputBuffer) {
        guard !report.scanned.matches.isEmpty else { return }
        let path = report.scanned.file.terminalPath
        guard !colours, !report.hasBlame else {
            for (index, match) in report.scanned.matches.enumerated() where report.isNew(index) {
                let name = ruleName(match.ruleIndex, in: report.configuration)
                let text = terminalText(match.text)
                let blame = textBlame(report.blame(of: index))
                let overdue = String(decoding: report.overdueNote(index) ?? [], as: UTF8.self)
                guard colours else {
                    output.append("\(path):\(match.start.line + 1):\(match.start.utf8Column + 1): \(name): \(text)\(overdue)\(blame)\n")
                    continue
                }
                let style = report.configuration.styles.indices.contains(match.ruleIndex) ? report.configuration.styles[match.ruleIndex] : .neutral
                output.append("\u{1B}[35m\(path)\u{1B}[0m:\u{1B}[32m\(match.start.line + 1)\u{1B}[0m:\(match.start.utf8Column + 1): "
                    + "\u{1B}[1m\(name)\u{1B}[0m: \(ansiStart(style))\(text)\u{1B}[0m"
                    + "\(overdue)\(blame)\n")
            }
            return
        }
        // `path:line:column: rule: text`, copied byte by byte into the output: the path once per file,
        // each rule's name once per file, and nothing allocated per match.
        let pathBytes = Array(path.utf8)
        var names = RuleNames(report.configuration) { Array($0.utf8) }
        // Against a baseline, only the matches it does not cover are shown: they are what fails.
        for (index, match) in report.scanned.matches.enumerated() where report.isNew(index) {
            let name = names[match.ruleIndex]
            // Two numbers and seven bytes of punctuation.
            let most = pathBytes.count + name.count + 2 * RecordWriter.decimalBound + 7 + RecordWriter.escapedBound(match.textUTF8.count)
                + (report.fields.isEmpty ? 0 : 64)
            output.appendRecord(atMost: most) { line in
                line.append(pathBytes)
                line.append(UInt8(ascii: ":"))
                line.appendDecimal(match.start.line + 1)
                line.append(UInt8(ascii: ":"))
                line.appendDecimal(match.start.utf8Column + 1)
                line.append(": ")
                line.append(name)
                line.append(": ")
                line.appendTerminalText(utf8: match.textUTF8)
                if let overdue = report.overdueNote(index) { line.append(overdue) }
                line.append(UInt8(ascii: "\n"))
            }
            output.flushWhenFull()
        }
    }

    mutating func finish(_ summary: RunSummary, to output: inout OutputBuffer) {}

    /// A group's name on a line of its own, with its size, and its matches under it; a blank line between groups.
    mutating func beginGroup(_ name: String, matchCount: Int, to output: inout OutputBuffer) {
        if startedGroups { output.append("\n") }
        startedGroups = true
        output.append("\(terminalText(name)) (\(plural(matchCount, "match", "matches"))):\n")
    }

    /// Whether a group was headed already, so that the next is set apart by a blank line.
    private var startedGroups = false

    /// What follows a match's text in `--blame` output: ` (1f0e2d3c Alice <alice@example.com> 2024-01-15T10:00:00+01:00)`,
    /// ` (not committed yet)`, or nothing when git could not say.
    private func textBlame(_ blame: MatchBlame) -> String {
        switch blame {
        case .committed(let commit):
            " (\(commit.shortID) \(terminalText(commit.author)) <\(terminalText(commit.email))> \(commit.authorDate))"
        case .uncommitted: " (not committed yet)"
        case .unknown: ""
        }
    }
}

/// A matched text or message for a terminal or a CI log: `\n` and `\r` written as the two characters `\n` and `\r`
/// (a match stays on its line), and every other control character as its bytes in the walk's `\xNN` form
/// (`FileSystemPath.displayed`), so that an escape sequence in a file cannot reach the terminal; most texts have
/// none and are returned as they are.
func terminalText(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: FileSystemPath.isTerminalControl) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case _ where FileSystemPath.isTerminalControl(scalar):
            out += FileSystemPath.displayed(Array(String(scalar).utf8), controls: .escaped)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}

// MARK: json

struct JSONLinesWriter: ReportWriter {
    mutating func file(_ report: FileReport, to output: inout OutputBuffer) {
        guard !report.scanned.matches.isEmpty else { return }
        let path = Array("{\"path\":\(jsonString(report.scanned.file.path)),\"line\":".utf8)
        var names = RuleNames(report.configuration) { Array(jsonString($0).utf8) }
        for (index, match) in report.scanned.matches.enumerated() {
            var state: [UInt8] = report.baselineStates.indices.contains(index)
                ? Array(",\"baseline\":\"\(report.baselineStates[index].rawValue)\"".utf8) : []
            if report.fields.indices.contains(index), let fields = report.fields[index] { state += Array(fields.jsonMembers.utf8) }
            if report.hasBlame { state += Array(",\"blame\":\(jsonBlame(report.blame(of: index)))".utf8) }
            let range = match.utf8Range
            let name = names[match.ruleIndex]
            // Eight numbers and 63 bytes of keys and punctuation.
            let most = path.count + name.count + 8 * RecordWriter.decimalBound + 63 + state.count
                + RecordWriter.escapedBound(match.textUTF8.count)
            output.appendRecord(atMost: most) { line in
                line.append(path)
                line.appendDecimal(match.start.line + 1)
                line.append(",\"column\":")
                line.appendDecimal(match.start.utf8Column + 1)
                line.append(",\"rule\":")
                line.append(name)
                line.append(",\"text\":")
                line.appendJSONString(utf8: match.textUTF8)
                line.append(",\"utf8\":[")
                line.appendDecimal(range.lowerBound)
                line.append(UInt8(ascii: ","))
                line.appendDecimal(range.upperBound)
                line.append("],\"utf16\":[")
                line.appendDecimal(match.start.utf16Offset)
                line.append(UInt8(ascii: ","))
                line.appendDecimal(match.end.utf16Offset)
                line.append("],\"utf32\":[")
                line.appendDecimal(match.start.utf32Offset)
                line.append(UInt8(ascii: ","))
                line.appendDecimal(match.end.utf32Offset)
                line.append(UInt8(ascii: "]"))
                line.append(state)
                line.append("}\n")
            }
            output.flushWhenFull()
        }
    }

    mutating func finish(_ summary: RunSummary, to output: inout OutputBuffer) {}
}

// MARK: github

/// GitHub Actions workflow commands: each match annotates its line in the pull request.
struct GitHubWriter: ReportWriter {
    /// `check` reports errors; `list` reports each rule's severity (a notice when it has none).
    var blocking: Bool
    /// Whether a file over the size limit fails the run (`check` without `--allow-skipped`): an error, not a warning.
    var tooLargeFails: Bool

    mutating func file(_ report: FileReport, to output: inout OutputBuffer) {
        output.append(fileText(report))
    }

    private mutating func fileText(_ report: FileReport) -> String {
        var out = ""
        let shown = report.scanned.file.terminalPath
        let path = shown.hasPrefix("./") ? String(shown.dropFirst(2)) : shown
        // A binary file is skipped as ripgrep skips it: counted on stderr, not annotated.
        if case .skipped(.binary) = report.scanned.outcome { return out }
        if let reason = report.skipReason {
            // A file the gate could not read fails the run: an error, not a warning.
            let level = switch report.scanned.outcome {
            case .skipped(.unreadable): "error"
            case .skipped(.tooLarge) where tooLargeFails: "error"
            default: "warning"
            }
            out += "::\(level) file=\(property(path))::\(data("not searched: \(reason)"))\n"
        }
        for warning in report.deadlineWarnings {
            let name = ruleName(warning.match.ruleIndex, in: report.configuration)
            let level = warning.fails ? "error" : "warning"
            out += "::\(level) file=\(property(path)),line=\(warning.point.line + 1),col=\(warning.utf16Column + 1),"
                + "title=\(property(name))::" + data(warning.text(ruleName: name)) + "\n"
        }
        // Matches a baseline covers are not annotated: they pass, and annotations a step can show are few.
        for (index, (match, message)) in zip(report.scanned.matches, report.messages).enumerated() where report.isNew(index) {
            let level = blocking ? "error" : githubLevel(severity(of: match.ruleIndex, in: report.configuration))
            let name = ruleName(match.ruleIndex, in: report.configuration)
            // GitHub counts columns in UTF-16 code units, 1-based.
            out += "::\(level) file=\(property(path)),line=\(match.start.line + 1),col=\(match.start.utf16Column + 1),"
                + "endLine=\(match.end.line + 1),endColumn=\(match.end.utf16Column + 1),title=\(property(name))::\(data(message))\n"
        }
        return out
    }

    mutating func finish(_ summary: RunSummary, to output: inout OutputBuffer) {}

    private func githubLevel(_ severity: RuleDefinition.Severity?) -> String {
        switch severity {
        case .error?: return "error"
        case .warning?: return "warning"
        default: return "notice"
        }
    }

    /// A workflow command's message: control characters escaped for the log (`terminalText`), then `%`, CR and LF
    /// as GitHub defines, so that no value can end the command's line and begin another with `::`.
    private func data(_ text: String) -> String {
        terminalText(text).replacingEvery("%", with: "%25").replacingEvery("\r", with: "%0D")
            .replacingEvery("\n", with: "%0A")
    }

    /// A workflow command's property value: as `data`, and `:` and `,` too.
    private func property(_ text: String) -> String {
        data(text).replacingEvery(":", with: "%3A").replacingEvery(",", with: "%2C")
    }
}

/// The `severity` a configuration gives a rule, if any.
func severity(of ruleIndex: Int, in configuration: HighlightConfiguration) -> RuleDefinition.Severity? {
    configuration.details.indices.contains(ruleIndex) ? configuration.details[ruleIndex].severity : nil
}

// MARK: sarif

/// One SARIF 2.1.0 log with one run; rules are described once by name across configurations.
struct SARIFWriter: ReportWriter {
    var blocking: Bool
    var currentDirectory: String
    private var ruleIDs: [String] = []
    private var ruleEntries: [String] = []
    private var results: [String] = []
    private var notifications: [String] = []

    init(blocking: Bool, currentDirectory: String) {
        self.blocking = blocking
        self.currentDirectory = currentDirectory
    }

    mutating func file(_ report: FileReport, to output: inout OutputBuffer) {
        output.append(fileText(report))
    }

    private mutating func fileText(_ report: FileReport) -> String {
        let uri = artifactURI(report.scanned.file)
        if let reason = report.skipReason {
            notifications.append(
                "{\"level\":\"warning\",\"message\":{\"text\":\(jsonString("\(report.scanned.file.path) not searched: \(reason)"))},"
                    + "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":\(uri)}}]}")
        }
        for (position, (match, message)) in zip(report.scanned.matches, report.messages).enumerated() {
            let name = ruleName(match.ruleIndex, in: report.configuration)
            let state = report.baselineStates.indices.contains(position)
                ? ",\"baselineState\":\"\(report.baselineStates[position].rawValue)\"" : ""
            // The result's property bag holds the fields written with the marker, and the line's blame (SARIF's
            // `versionControlProvenance` describes a run's repositories, not who wrote a line).
            var properties: [String] = []
            if report.fields.indices.contains(position), let fields = report.fields[position] { properties.append(String(fields.jsonMembers.dropFirst())) }
            if report.hasBlame { properties.append("\"blame\":\(jsonBlame(report.blame(of: position)))") }
            let bag = properties.isEmpty ? "" : ",\"properties\":{\(properties.joined(separator: ","))}"
            let index = ruleIndex(name, ruleIndex: match.ruleIndex, configuration: report.configuration)
            // An overdue marker fails the check whatever its rule's severity: an error.
            let overdue = if case .overdue? = report.deadline(position) { true } else { false }
            let level = overdue ? "error" : sarifLevel(severity(of: match.ruleIndex, in: report.configuration))
            // SARIF's default column unit is the UTF-16 code unit; lines and columns are 1-based.
            let region = "{\"startLine\":\(match.start.line + 1),\"startColumn\":\(match.start.utf16Column + 1),"
                + "\"endLine\":\(match.end.line + 1),\"endColumn\":\(match.end.utf16Column + 1),"
                + "\"byteOffset\":\(match.utf8Range.lowerBound),\"byteLength\":\(match.utf8Range.count),"
                + "\"snippet\":{\"text\":\(jsonString(match.text))}}"
            results.append(
                "{\"ruleId\":\(jsonString(name)),\"ruleIndex\":\(index),\"level\":\"\(level)\","
                    + "\"message\":{\"text\":\(jsonString(message))},"
                    + "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":\(uri),\"region\":\(region)}}]\(state)\(bag)}")
        }
        return ""
    }

    mutating func finish(_ summary: RunSummary, to output: inout OutputBuffer) {
        // A stale baseline entry is a result that was there and is not: it passes, with no line to point at.
        for entry in summary.staleBaselineEntries {
            let uri = artifactURI(WalkedFile(path: entry.key.path, relativePath: entry.key.path, size: 0, modificationTime: 0))
            let missing = entry.recorded - entry.found
            results.append(
                "{\"ruleId\":\(jsonString(entry.key.rule)),\"kind\":\"pass\",\"level\":\"none\","
                    + "\"message\":{\"text\":\(jsonString("no longer found (\(plural(missing, "match", "matches")) of the baseline): \(entry.key.text)"))},"
                    + "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":\(uri)}}],\"baselineState\":\"absent\"}")
        }
        output.append(finishText(summary))
    }

    private func finishText(_ summary: RunSummary) -> String {
        let base = currentDirectory.hasSuffix("/") ? currentDirectory : currentDirectory + "/"
        return "{\"$schema\":\"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json\","
            + "\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"highlight-ls\",\"version\":\(jsonString(ServerInfo.version)),"
            + "\"rules\":[\(ruleEntries.joined(separator: ","))]}},"
            + "\"invocations\":[{\"executionSuccessful\":\(!summary.failed),"
            + "\"commandLine\":\(jsonString(CommandLine.arguments.joined(separator: " "))),"
            + "\"toolExecutionNotifications\":[\(notifications.joined(separator: ","))]}],"
            + "\"originalUriBaseIds\":{\"SRCROOT\":{\"uri\":\(jsonString(fileURI(base)))}},"
            + "\"columnKind\":\"utf16CodeUnits\","
            + "\"results\":[\(results.joined(separator: ","))]}]}\n"
    }

    /// The index of the rule named `name` in the log's rule list, describing it on first use.
    private mutating func ruleIndex(_ name: String, ruleIndex: Int, configuration: HighlightConfiguration) -> Int {
        if let known = ruleIDs.firstIndex(of: name) { return known }
        var description = "highlight-ls rule \"\(name)\""
        if configuration.rules.indices.contains(ruleIndex) {
            switch configuration.rules[ruleIndex].pattern {
            case .words(let words): description += ": the words " + words.map { "\"\($0)\"" }.joined(separator: ", ")
            case .regex(let regex): description += ": the regex " + regex
            }
        }
        var entry = "{\"id\":\(jsonString(name)),\"name\":\(jsonString(name)),\"shortDescription\":{\"text\":\(jsonString(description))}"
        if configuration.details.indices.contains(ruleIndex), let template = configuration.details[ruleIndex].message {
            entry += ",\"messageStrings\":{\"default\":{\"text\":\(jsonString(sarifMessageString(template)))}}"
        }
        entry += ",\"defaultConfiguration\":{\"level\":\"\(sarifLevel(severity(of: ruleIndex, in: configuration)))\"}"
        let blockingRule = configuration.applicability.indices.contains(ruleIndex) && configuration.applicability[ruleIndex].blocking
        entry += ",\"properties\":{\"blocking\":\(blockingRule)}}"
        ruleIDs.append(name)
        ruleEntries.append(entry)
        return ruleIDs.count - 1
    }

    private func sarifLevel(_ severity: RuleDefinition.Severity?) -> String {
        switch severity {
        case .error?: return "error"
        case .warning?: return "warning"
        case .information?, .hint?: return "note"
        case nil: return blocking ? "error" : "note"
        }
    }

    /// A location relative to SRCROOT (the current directory) when the file is inside it, else an absolute file URI.
    /// A path that is not valid UTF-8 is percent-encoded from its bytes on disk, so the URI names the file exactly.
    private func artifactURI(_ file: WalkedFile) -> String {
        if let bytes = file.undecodedPath {
            var relative = bytes[...]
            while relative.starts(with: Array("./".utf8)) { relative = relative.dropFirst(2) }
            if relative.first != UInt8(ascii: "/"), !relative.starts(with: Array("../".utf8)) {
                return "{\"uri\":\(jsonString(percentEncodedBytes(relative))),\"uriBaseId\":\"SRCROOT\"}"
            }
            let absolute = relative.first == UInt8(ascii: "/") ? Array(relative) : Array(currentDirectory.utf8) + [UInt8(ascii: "/")] + relative
            return "{\"uri\":\(jsonString("file://" + percentEncodedBytes(absolute[...])))}"
        }
        let path = file.path
        let absolute = ConfigFile.absolutePath(path, currentDirectory: currentDirectory)
        if let relative = ConfigFile.relativePath(of: absolute, inFolder: currentDirectory), !relative.isEmpty {
            return "{\"uri\":\(jsonString(percentEncodedPath(relative))),\"uriBaseId\":\"SRCROOT\"}"
        }
        return "{\"uri\":\(jsonString(fileURI(absolute)))}"
    }

    private func fileURI(_ absolutePath: String) -> String {
        "file://" + percentEncodedPath(absolutePath)
    }

    /// Path bytes with every byte but unreserved characters and `/` percent-encoded, as a URI path.
    private func percentEncodedBytes(_ bytes: ArraySlice<UInt8>) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A path with every byte but unreserved characters and `/` percent-encoded, as a URI path.
    private func percentEncodedPath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { MatchTemplate.percentEncoded(String($0)) }
            .joined(separator: "/")
    }
}

/// A message template in SARIF's form: `{0}` is the whole match, `{1}` its first group, and
/// literal braces doubled (SARIF 2.1.0 §3.11.5).
func sarifMessageString(_ template: MatchTemplate) -> String {
    // Private-use characters mark the references while the literal text is escaped.
    let open = "\u{E000}", close = "\u{E001}"
    let marked = template.filled { "\(open)\($0)\(close)" }
    return marked.replacingEvery("{", with: "{{").replacingEvery("}", with: "}}")
        .replacingEvery(open, with: "{").replacingEvery(close, with: "}")
}

// MARK: junit

/// JUnit XML: one test case per file searched, failing when it has matches.
struct JUnitWriter: ReportWriter {
    var command: ScanCommand
    private var cases: [String] = []
    private var failures = 0
    private var skipped = 0
    private var errors = 0

    init(command: ScanCommand) {
        self.command = command
    }

    mutating func file(_ report: FileReport, to output: inout OutputBuffer) {
        output.append(fileText(report))
    }

    private mutating func fileText(_ report: FileReport) -> String {
        let path = report.scanned.file.path
        var testCase = "    <testcase classname=\"highlight-ls.\(command.rawValue)\" name=\(xmlAttribute(path)) file=\(xmlAttribute(path))"
        if case .skipped(.unreadable) = report.scanned.outcome {
            errors += 1
            let reason = report.skipReason ?? "cannot read it"
            testCase += ">\n      <error message=\(xmlAttribute("\(path): \(reason)")) type=\"unreadable\"/>\n    </testcase>\n"
        } else if let reason = report.skipReason {
            skipped += 1
            testCase += ">\n      <skipped message=\(xmlAttribute(reason))/>\n    </testcase>\n"
        } else if report.scanned.matches.indices.allSatisfy({ !report.isNew($0) }) {
            // No match, or only matches a baseline covers: the file passes.
            testCase += "/>\n"
        } else {
            failures += 1
            let newMatches = report.scanned.matches.indices.filter { report.isNew($0) }
            let count = plural(newMatches.count, command == .check ? "blocking match" : "match", command == .check ? "blocking matches" : "matches")
            var body = ""
            for (index, (match, message)) in zip(report.scanned.matches, report.messages).enumerated() where report.isNew(index) {
                body += "\(path):\(match.start.line + 1):\(match.start.utf8Column + 1): \(message)\n"
            }
            let types = Set(newMatches.map { report.scanned.matches[$0] }.map { ruleName($0.ruleIndex, in: report.configuration) }).sorted().joined(separator: " ")
            testCase += ">\n      <failure message=\(xmlAttribute(count)) type=\(xmlAttribute(types))>\(xmlText(body))</failure>\n    </testcase>\n"
        }
        cases.append(testCase)
        return ""
    }

    mutating func finish(_ summary: RunSummary, to output: inout OutputBuffer) {
        output.append(finishText(summary))
    }

    private func finishText(_ summary: RunSummary) -> String {
        let counts = "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\""
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"highlight-ls\" \(counts)>\n"
            + "  <testsuite name=\"highlight-ls \(command.rawValue)\" \(counts)>\n" + cases.joined() + "  </testsuite>\n</testsuites>\n"
    }
}

/// `"text"` as an XML attribute value, quotes included.
func xmlAttribute(_ text: String) -> String {
    "\"" + xmlText(text).replacingEvery("\"", with: "&quot;").replacingEvery("\n", with: "&#10;")
        .replacingEvery("\r", with: "&#13;").replacingEvery("\t", with: "&#9;") + "\""
}

/// Text escaped for XML content; characters XML 1.0 cannot hold (most C0 controls) become U+FFFD.
func xmlText(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
        case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "\u{FFFD}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}

/// A match's blame as a JSON object: `{"state":"committed","commit":…,"shortCommit":…,"author":…,"email":…,
/// "date":…,"time":…}`, `{"state":"uncommitted"}` or `{"state":"unknown"}`.
func jsonBlame(_ blame: MatchBlame) -> String {
    switch blame {
    case .committed(let commit):
        "{\"state\":\"committed\",\"commit\":\(jsonString(commit.id)),\"shortCommit\":\(jsonString(commit.shortID)),"
            + "\"author\":\(jsonString(commit.author)),\"email\":\(jsonString(commit.email)),"
            + "\"date\":\(jsonString(commit.authorDate)),\"time\":\(commit.authorTime)}"
    case .uncommitted: "{\"state\":\"uncommitted\"}"
    case .unknown: "{\"state\":\"unknown\"}"
    }
}

/// `text` as a JSON string, quotes included, escaped as every JSON the program writes is (`JSONWriter`).
func jsonString(_ string: String) -> String {
    JSON.string(string).jsonText
}

/// The ANSI escape that starts drawing `style` (reverse video for a style with nothing to show).
func ansiStart(_ style: Style) -> String {
    var codes: [String] = []
    if style.bold { codes.append("1") }
    if style.italic { codes.append("3") }
    if style.underline { codes.append("4") }
    if style.strikethrough { codes.append("9") }
    if let color = style.color { codes.append("38;2;\(color.red);\(color.green);\(color.blue)") }
    if let background = style.backgroundColor { codes.append("48;2;\(background.red);\(background.green);\(background.blue)") }
    if codes.isEmpty { codes.append("7") }
    return "\u{1B}[" + codes.joined(separator: ";") + "m"
}
