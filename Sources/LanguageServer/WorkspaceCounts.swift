import JSONValue

/// The answer to `highlight/counts`: how many matches each listed rule has in the workspace.
///
/// On the wire (docs/PROTOCOL.md):
///
///     {"counts": [{"rule": "todo", "count": 3}, {"rule": "fixme", "count": 1}], "total": 4, "files": 2}
///
/// Only rules with at least one match are listed, the most frequent first, ties by name, so a
/// status line can show the list as it comes.
struct WorkspaceCounts: Sendable, Equatable {
    /// One rule's count.
    struct RuleCount: Sendable, Equatable {
        var rule: String
        var count: Int
    }

    /// The rules with at least one match, by count (descending), then by name.
    var counts: [RuleCount]
    /// The matches of all the counted rules.
    var total: Int
    /// The files (or open documents) with at least one counted match.
    var files: Int

    /// The counts of `byRule`, ordered as the answer lists them.
    init(byRule: [String: Int], files: Int) {
        counts = byRule.filter { $0.value > 0 }.map { RuleCount(rule: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.rule < $1.rule }
        total = counts.reduce(0) { $0 + $1.count }
        self.files = files
    }

    /// The answer as sent to the client.
    var json: JSON {
        [
            "counts": .array(counts.map { ["rule": .string($0.rule), "count": .integer($0.count)] }),
            "total": .integer(total),
            "files": .integer(files),
        ]
    }
}
