import HighlightConfig
import JSONValue

// A baseline lets `check` be adopted on a codebase that already has blocking matches: the matches
// found today are recorded (`check --write-baseline FILE`), and later runs (`check --baseline FILE`)
// fail only on matches the file does not cover. An entry is keyed on what survives ordinary edits:
//
//     rule + path (as check prints it, without a leading ./) + the match's line, trimmed and with
//     runs of whitespace made one space  ──▶  how many such matches the file had
//
// Line numbers are left out on purpose: lines added above a marker, a block moved within its file
// or re-indented leave every key as it was. The count makes a second identical marker in the same
// file new. The file is JSON with one entry per line, sorted by path, rule and text, so that a
// review shows what was added or removed and two writes of the same matches are the same bytes.

/// What a baseline entry is keyed on: a blocking match's rule, file and normalised line.
struct BaselineKey: Hashable, Comparable {
    /// The path as `check` prints it, without a leading `./` (`BaselineKey.normalizedPath(_:)`).
    var path: String
    var rule: String
    /// The line of the match's start, trimmed, with every run of whitespace one space (`normalizedLineText`).
    var text: String

    static func < (left: BaselineKey, right: BaselineKey) -> Bool {
        (left.path, left.rule, left.text) < (right.path, right.rule, right.text)
    }

    /// `path` without its leading `./`s, as a baseline keys it.
    static func normalizedPath(_ path: String) -> String {
        var path = Substring(path)
        while path.hasPrefix("./") { path = path.dropFirst(2).drop { $0 == "/" } }
        return String(path)
    }

    /// The line that holds `utf8Offset` in `text`, without its terminator, trimmed of whitespace at both ends and with
    /// every inner run of whitespace (spaces, tabs, form feeds, vertical tabs) made one space; `column` is how many
    /// bytes of the line come before `utf8Offset`. Offsets outside the text give what is left of it (a file changed
    /// since its search).
    static func normalizedLineText(in text: [UInt8], at utf8Offset: Int, column: Int) -> String {
        let offset = min(max(0, utf8Offset), text.count)
        var start = max(0, offset - max(0, column))
        // The column counts from the line's start; a shorter line (a file changed meanwhile) is cut at its own start.
        if let lineBreak = text[start..<offset].lastIndex(where: { $0 == 0x0A || $0 == 0x0D }) { start = lineBreak + 1 }
        let end = text[offset...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? text.count
        var normalized: [UInt8] = []
        normalized.reserveCapacity(end - start)
        var pendingSpace = false
        for byte in text[start..<end] {
            if isWhitespace(byte) {
                pendingSpace = !normalized.isEmpty
                continue
            }
            if pendingSpace { normalized.append(UInt8(ascii: " ")) }
            pendingSpace = false
            normalized.append(byte)
        }
        return String(decoding: normalized, as: UTF8.self)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C || byte == 0x0D || byte == 0x0A
    }
}

/// Whether a blocking match is covered by the baseline, as SARIF's `baselineState` names it (SARIF 2.1.0 §3.27.24).
enum BaselineState: String {
    /// Not covered: it fails the check.
    case new
    /// Covered by an entry of the baseline.
    case unchanged
    /// An entry of the baseline that no match covers any more (stale).
    case absent
}

/// An entry of the baseline that more matches were recorded for than were found now.
struct StaleBaselineEntry {
    var key: BaselineKey
    /// How many the baseline records.
    var recorded: Int
    /// How many were found now (fewer).
    var found: Int
}

/// How many matches of each key a baseline covers.
struct Baseline: Equatable {
    /// The version `--write-baseline` writes and the only one read.
    static let version = 1
    /// A larger file is refused rather than read.
    static let maximumFileSize = 256 << 20

    var counts: [BaselineKey: Int] = [:]

    /// Why a baseline file could not be used; `message` names the file.
    struct Failure: Error {
        var message: String
    }

    /// The file's bytes: `{"version": 1, "entries": [` then one entry a line, sorted, then `]}` and a line feed.
    func encoded() -> [UInt8] {
        let entries = counts.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        var out = "{\"version\": \(Self.version), \"entries\": ["
        for (position, entry) in entries.enumerated() {
            out += position == 0 ? "\n" : ",\n"
            out += "  {\"path\": \(jsonString(entry.key.path)), \"rule\": \(jsonString(entry.key.rule)), "
                + "\"text\": \(jsonString(entry.key.text)), \"count\": \(entry.value)}"
        }
        out += entries.isEmpty ? "]}\n" : "\n]}\n"
        return Array(out.utf8)
    }

    /// The baseline in `bytes`, read from the file `name` (which messages name); any other shape or version is refused.
    static func parse(_ bytes: [UInt8], name: String) throws(Failure) -> Baseline {
        let json: JSON
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw Failure(message: "\(name):\(error.line):\(error.column): the baseline is not valid JSON: \(error.message)")
        }
        func shape(_ problem: String) -> Failure {
            Failure(message: "\(name): not a baseline of highlight-ls check: \(problem); write it again with "
                + "highlight-ls check --write-baseline \(name)")
        }
        guard let root = json.objectValue else { throw shape("expected an object, found \(json.typeName)") }
        guard let version = root["version"] else { throw shape("\"version\" is missing") }
        guard version.integerValue == Self.version else {
            throw shape("\"version\" is \(version.jsonText); this highlight-ls reads version \(Self.version)")
        }
        guard let entries = root["entries"]?.arrayValue else { throw shape("\"entries\" must be an array") }
        if let unknown = root.keys.sorted().first(where: { $0 != "version" && $0 != "entries" }) {
            throw shape("unknown member \(jsonString(unknown))")
        }
        var baseline = Baseline()
        for (position, entry) in entries.enumerated() {
            let place = "entries[\(position)]"
            guard let members = entry.objectValue else { throw shape("\(place) must be an object, not \(entry.typeName)") }
            var strings: [String] = []
            for member in ["path", "rule", "text"] {
                guard let value = members[member]?.stringValue else { throw shape("\(place).\(member) must be a string") }
                strings.append(value)
            }
            guard let count = members["count"]?.integerValue, count >= 1 else {
                throw shape("\(place).count must be a whole number of 1 or more")
            }
            if let unknown = members.keys.sorted().first(where: { !["path", "rule", "text", "count"].contains($0) }) {
                throw shape("\(place) has an unknown member \(jsonString(unknown))")
            }
            let key = BaselineKey(path: strings[0], rule: strings[1], text: strings[2])
            guard baseline.counts[key] == nil else { throw shape("\(place) repeats the path, rule and text of an earlier entry") }
            baseline.counts[key] = count
        }
        return baseline
    }

    /// The baseline in the file at `path`; a missing, unreadable or damaged file is a failure that says what to do.
    static func read(from path: String) -> Result<Baseline, Failure> {
        let shown = terminalText(path)
        switch ConfigFile.readRegularFile(atPath: path, limit: maximumFileSize) {
        case .missing:
            return .failure(Failure(message: "the baseline \(shown) does not exist; create it with highlight-ls check "
                + "--write-baseline \(shown) and commit it"))
        case .tooLarge:
            return .failure(Failure(message: "the baseline \(shown) is over \(describeSize(maximumFileSize)); it was not read"))
        case .refused(let reason):
            let cut = reason.hasSuffix("; it is ignored") ? String(reason.dropLast("; it is ignored".count)) : reason
            return .failure(Failure(message: "cannot read the baseline \(shown): \(terminalText(cut))"))
        case .read(let bytes):
            do {
                return .success(try parse(bytes, name: shown))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Writes the baseline to `path` atomically (a link or special file of that name is refused, and a failure leaves
    /// the old file as it was).
    func write(to path: String) throws(Failure) {
        let shown = terminalText(path)
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty, name != ".", name != ".." else {
            throw Failure(message: "cannot write the baseline \(shown): it names a folder, not a file")
        }
        switch ConfigFile.writeAtomically(encoded(), named: name, inFolder: folder, replacing: .regularFile) {
        case .written: return
        case .exists: throw Failure(message: "cannot write the baseline \(shown): it exists")
        case .refused(let reason): throw Failure(message: "cannot write the baseline \(shown): \(terminalText(reason))")
        }
    }
}

/// A run's blocking matches held against a baseline, in walk order.
struct BaselineComparison {
    let baseline: Baseline
    /// How many matches of each key were found so far.
    private(set) var found: [BaselineKey: Int] = [:]
    private(set) var newCount = 0
    private(set) var unchangedCount = 0

    init(_ baseline: Baseline) {
        self.baseline = baseline
    }

    /// Counts a match of `key` and says whether the baseline covers it: the first `count` matches of a key are covered.
    mutating func state(of key: BaselineKey) -> BaselineState {
        let seen = found[key, default: 0] + 1
        found[key] = seen
        if seen <= baseline.counts[key, default: 0] {
            unchangedCount += 1
            return .unchanged
        }
        newCount += 1
        return .new
    }

    /// The entries within `scope` that recorded more matches than were found, sorted as the file is.
    func staleEntries(in scope: BaselineScope) -> [StaleBaselineEntry] {
        baseline.counts.compactMap { key, recorded in
            let now = found[key, default: 0]
            return now < recorded && scope.contains(key) ? StaleBaselineEntry(key: key, recorded: recorded, found: now) : nil
        }.sorted { $0.key < $1.key }
    }

    /// The baseline without its stale entries within `scope`: each count lowered to what was found, none raised or
    /// added; entries outside `scope` (a path or rule the run did not look at) are kept as they are.
    func pruned(in scope: BaselineScope) -> Baseline {
        var counts: [BaselineKey: Int] = [:]
        for (key, recorded) in baseline.counts {
            let kept = scope.contains(key) ? min(recorded, found[key, default: 0]) : recorded
            if kept > 0 { counts[key] = kept }
        }
        return Baseline(counts: counts)
    }

    /// Every match found, as `--write-baseline` records it.
    var recorded: Baseline { Baseline(counts: found) }
}

/// Which baseline entries a run looked at, so that only those can be stale: a run of `check src` or `--rule fixme`
/// says nothing about the entries of other folders or rules.
struct BaselineScope {
    /// The paths the run walked, normalised (`""` for the current directory, which holds every relative path).
    var roots: [String]
    /// The rules the run reported (`--rule`); nil for every rule.
    var ruleNames: Set<String>?
    /// With `--glob`, only the files searched are judged, since the globs left the others out.
    var searchedPaths: Set<String>?
    /// Files the run skipped (over the size limit, unreadable): their entries are not judged.
    var unsearchedPaths: Set<String>

    /// Whether the run looked where `key` was recorded.
    func contains(_ key: BaselineKey) -> Bool {
        if let ruleNames, !ruleNames.contains(key.rule) { return false }
        if unsearchedPaths.contains(key.path) { return false }
        if let searchedPaths, !searchedPaths.contains(key.path) { return false }
        return roots.contains { root in
            root.isEmpty || root == "." ? !key.path.hasPrefix("/") && !key.path.hasPrefix("../")
                : key.path == root || key.path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        }
    }
}
