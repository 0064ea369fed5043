import WorkspaceScan

// `list --group-by KEY` and `list --count`: matches gathered by a key (the rule, the file, the owner written in the
// marker, the line's author, its age), either written group by group through the format's writer, or only counted. Both wrap the one place that
// names a match's group, `GroupKey.name(of:in:now:)`; a new key is a case of `GroupKey` and a branch there.

/// What matches are grouped or counted by.
enum GroupKey: String, CaseIterable {
    case rule, file, owner, author, age

    /// Whether the key is read from each match's blame (and so implies `--blame`).
    var needsBlame: Bool {
        switch self {
        case .rule, .file, .owner: false
        case .author, .age: true
        }
    }

    /// The name of the group that the match at `index` of `report` belongs to.
    func name(of index: Int, in report: FileReport, now: Int64) -> String {
        let match = report.scanned.matches[index]
        switch self {
        case .rule:
            return ruleName(match.ruleIndex, in: report.configuration)
        case .file:
            return report.scanned.file.path
        case .owner:
            // The owner the marker names (`TODO(alice)`, read by `MarkerFields`), for rules that read fields.
            let owner = report.fields.indices.contains(index) ? report.fields[index]?.fields.owner : nil
            return owner ?? "no owner"
        case .author:
            switch report.blame(of: index) {
            case .committed(let commit): return "\(commit.author) <\(commit.email)>"
            case .uncommitted: return AgeBucket.notCommitted.name
            case .unknown: return AgeBucket.unknown.name
            }
        case .age:
            return AgeBucket(report.blame(of: index), now: now).name
        }
    }

    /// The groups in the order reports give them: files in walk order, ages newest first, rules, owners and authors
    /// by count (most first), then by name.
    func ordered(_ counts: [String: Int], firstSeen: [String]) -> [String] {
        switch self {
        case .file:
            return firstSeen
        case .age:
            let rank = Dictionary(uniqueKeysWithValues: AgeBucket.allCases.map { ($0.name, $0.rawValue) })
            return counts.keys.sorted { rank[$0, default: 0] < rank[$1, default: 0] }
        case .rule, .owner, .author:
            return byCount(counts)
        }
    }
}

/// Names sorted by count, most first, then by name.
func byCount(_ counts: [String: Int]) -> [String] {
    counts.keys.sorted { left, right in
        let (a, b) = (counts[left, default: 0], counts[right, default: 0])
        return a != b ? a > b : left < right
    }
}

/// Gathers every match into its group and, at the end, writes the groups in order through another writer, each
/// headed as that writer heads a group (`ReportWriter.beginGroup(_:matchCount:to:)`).
struct GroupingWriter: ReportWriter {
    var inner: any ReportWriter
    var key: GroupKey
    var now: Int64
    private var reports: [String: [FileReport]] = [:]
    private var counts: [String: Int] = [:]
    private var firstSeen: [String] = []

    init(inner: any ReportWriter, key: GroupKey, now: Int64) {
        self.inner = inner
        self.key = key
        self.now = now
    }

    mutating func file(_ report: FileReport, to output: inout OutputBuffer) {
        var members: [String: [Int]] = [:]
        var order: [String] = []
        for index in report.scanned.matches.indices where report.isNew(index) {
            let name = key.name(of: index, in: report, now: now)
            if members[name] == nil { order.append(name) }
            members[name, default: []].append(index)
        }
        for name in order {
            let indices = members[name] ?? []
            if counts[name] == nil { firstSeen.append(name) }
            counts[name, default: 0] += indices.count
            reports[name, default: []].append(report.selecting(indices))
        }
    }

    mutating func finish(_ summary: RunSummary, to output: inout OutputBuffer) {
        for name in key.ordered(counts, firstSeen: firstSeen) {
            inner.beginGroup(name, matchCount: counts[name] ?? 0, to: &output)
            for report in reports[name] ?? [] { inner.file(report, to: &output) }
        }
        inner.finish(summary, to: &output)
    }
}

/// `list --count`: how many matches each group has (each rule by default), instead of the matches.
struct CountWriter: ReportWriter {
    var key: GroupKey
    var format: OutputFormat
    var now: Int64
    private var counts: [String: Int] = [:]
    private var firstSeen: [String] = []

    init(key: GroupKey, format: OutputFormat, now: Int64) {
        self.key = key
        self.format = format
        self.now = now
    }

    mutating func file(_ report: FileReport, to output: inout OutputBuffer) {
        // Per rule, each match's name is an array lookup; a dictionary is touched once per rule and file.
        var perRule: [Int: Int] = [:]
        for index in report.scanned.matches.indices where report.isNew(index) {
            if key == .rule {
                perRule[report.scanned.matches[index].ruleIndex, default: 0] += 1
            } else {
                add(key.name(of: index, in: report, now: now), 1)
            }
        }
        for (ruleIndex, count) in perRule.sorted(by: { $0.key < $1.key }) { add(ruleName(ruleIndex, in: report.configuration), count) }
    }

    private mutating func add(_ name: String, _ count: Int) {
        if counts[name] == nil { firstSeen.append(name) }
        counts[name, default: 0] += count
    }

    mutating func finish(_ summary: RunSummary, to output: inout OutputBuffer) {
        // Counts are sorted by count whatever the key, so the largest group comes first even for files.
        let names = key == .age ? key.ordered(counts, firstSeen: firstSeen) : byCount(counts)
        switch format {
        case .json:
            let members = names.map { "\(jsonString($0)):\(counts[$0] ?? 0)" }
            output.append("{" + members.joined(separator: ",") + "}\n")
        case .csv:
            output.append(csvRecord([key.rawValue, "count"]))
            for name in names { output.append(csvRecord([name, String(counts[name] ?? 0)])) }
        case .markdown:
            output.append("| \(key.rawValue) | count |\n| --- | ---: |\n")
            for name in names { output.append("| \(markdownText(name)) | \(counts[name] ?? 0) |\n") }
        case .text, .sarif, .github, .junit:
            for name in names { output.append("\(terminalText(name)) \(counts[name] ?? 0)\n") }
        }
    }
}
