/// The keys the loader understands, in one place so that the schema test can hold
/// `schema/highlights.schema.json` to exactly this list.
enum ConfigKeys {
    /// Keys of the top-level object.
    static let topLevel = ["$schema", "defaults", "colors", "outline", "nestedConfigs", "dueSoon", "languages", "styles", "rules"]
    /// Keys of a language declared in `languages`.
    static let language = ["files", "lineComments", "blockComments", "strings"]
    /// Keys of an entry of `rules`.
    static let rule = ["name", "words", "regex", "caseSensitive", "wholeWord", "style", "enabled", "groups", "severity", "message", "link",
                            "scope", "languages", "files", "list", "blocking", "fields"]
    /// Keys of a style, named or inline.
    static let style = ["color", "backgroundColor", "borderColor", "bold", "italic", "underline", "strikethrough", "rounded",
                        "overviewRuler", "gutter", "wholeLine"]
    /// Keys of a style's `overviewRuler` written as an object.
    static let overviewRuler = ["color", "lane"]
    /// Keys of a style's `gutter` written as an object.
    static let gutter = ["text", "color"]
    /// The style keys whose value is a colour; the others are booleans.
    static let colorStyleKeys: Set<String> = ["color", "backgroundColor", "borderColor"]

    /// The known key closest to `unknownKey`, when it is close enough to be a likely typo.
    ///
    /// Case, `_` and `-` are ignored, so `case_sensitive` suggests `caseSensitive`; otherwise
    /// a key within an edit distance of a third of its length (at least 1, at most 3) is suggested.
    static func suggestion(for unknownKey: String, among knownKeys: [String]) -> String? {
        let wanted = folded(unknownKey)
        guard !wanted.isEmpty else { return nil }
        let limit = min(3, max(1, wanted.count / 3))
        var best: (key: String, distance: Int)?
        for key in knownKeys {
            let distance = editDistance(wanted, folded(key))
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (key, distance)
            }
        }
        return best?.key
    }

    /// `" (did you mean "x"?)"`, or the empty string when nothing is close.
    static func suggestionSuffix(for unknownKey: String, among knownKeys: [String]) -> String {
        guard let key = suggestion(for: unknownKey, among: knownKeys) else { return "" }
        return " (did you mean \"\(key)\"?)"
    }

    private static func folded(_ key: String) -> [Character] {
        Array(key.lowercased().filter { $0 != "_" && $0 != "-" })
    }

    /// The Levenshtein distance: insertions, deletions and substitutions, each costing one.
    private static func editDistance(_ left: [Character], _ right: [Character]) -> Int {
        guard !left.isEmpty else { return right.count }
        guard !right.isEmpty else { return left.count }
        var previous = Array(0...right.count)
        var current = [Int](repeating: 0, count: right.count + 1)
        for (leftIndex, leftCharacter) in left.enumerated() {
            current[0] = leftIndex + 1
            for (rightIndex, rightCharacter) in right.enumerated() {
                let substitution = previous[rightIndex] + (leftCharacter == rightCharacter ? 0 : 1)
                current[rightIndex + 1] = min(substitution, previous[rightIndex + 1] + 1, current[rightIndex] + 1)
            }
            swap(&previous, &current)
        }
        return previous[right.count]
    }
}
