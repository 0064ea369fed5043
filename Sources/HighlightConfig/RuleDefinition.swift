import PatternEngine

/// A rule as a layer states it: the engine rule, how to draw its matches, and whether it is on.
///
/// An entry with `enabled == false` switches off the rule of the same name in lower layers
/// (including a built-in rule); such an entry may leave `pattern` out.
public struct RuleDefinition: Sendable, Hashable {
    /// How a rule names its style.
    public enum StyleReference: Sendable, Hashable {
        /// A style from `styles` of any layer, or a built-in style, by name.
        case named(String)
        /// A style written inside the rule.
        case inline(Style)
    }

    /// The rule's name; also its LSP semantic token type. Matches `[A-Za-z][A-Za-z0-9_.-]*`.
    public var name: String
    /// What to match; `nil` only for an entry that switches a rule off.
    public var pattern: Rule.Pattern?
    /// Whether letters must match in case (default `true`).
    public var caseSensitive: Bool
    /// Whether a match must not touch a word character on either side (default `false`).
    public var wholeWord: Bool
    /// The style to draw matches with; `nil` means the style named after the rule, else the neutral one.
    public var style: StyleReference?
    /// Whether the rule is on (default `true`).
    var enabled: Bool
    /// Styles for capture groups of a regex rule, in the order written; each patches the rule's style.
    var groupStyles: [GroupStyle] = []
    /// When set, the rule's matches are also reported as diagnostics of this severity.
    public var severity: Severity?
    /// A `MatchTemplate` for diagnostics and hover, e.g. `"assigned to $1"`.
    public var message: String?
    /// A `MatchTemplate` for the link a match opens, e.g. `"https://tracker.example/browse/$0"`.
    public var link: String?
    /// Whether this is the built-in `color` rule, whose matches are drawn in their own colour.
    var findsColorLiterals = false
    /// Where the rule applies (`scope`, `languages`, `files`) and whether it is listed or blocking.
    public var applicability = RuleApplicability()

    /// Where the rule was written, for messages produced when layers are combined.
    var origin: ConfigOrigin?
    /// Where the rule's `words` or `regex` value was written.
    var patternOrigin: ConfigOrigin?
    /// Where the rule's `style` value was written.
    var styleOrigin: ConfigOrigin?
    /// The rule's regex as the parser compiled it (with the rule's case and whole-word options),
    /// so that a configuration built from it does not compile it again. It follows from the
    /// pattern and options, so it takes no part in equality or hashing (see `==` below).
    var compiledRegex: CompiledRegex?

    /// A rule definition from its parts.
    public init(
        name: String, pattern: Rule.Pattern?, caseSensitive: Bool = true, wholeWord: Bool = false,
        style: StyleReference? = nil, enabled: Bool = true
    ) {
        self.name = name
        self.pattern = pattern
        self.caseSensitive = caseSensitive
        self.wholeWord = wholeWord
        self.style = style
        self.enabled = enabled
    }

    /// The engine rule, or `nil` when the definition has no pattern.
    public var rule: Rule? {
        guard let pattern else { return nil }
        return Rule(name: name, pattern: pattern, caseSensitive: caseSensitive, wholeWord: wholeWord)
    }
}

extension RuleDefinition {
    /// How prominently a rule's matches are reported as diagnostics, as LSP names the levels.
    public enum Severity: String, Sendable, Hashable, CaseIterable {
        case error, warning, information, hint
    }

    /// The style of one capture group, by number (`"1"`) or by name, as written.
    struct GroupStyle: Sendable, Hashable {
        /// The group as written: a number or a group name.
        var group: String
        /// A style name, or a patch written inline.
        public var style: GroupStyleReference

        /// A group style from its parts.
        init(group: String, style: GroupStyleReference) {
            self.group = group
            self.style = style
        }
    }

    /// How a group names its style: a named style (its colours and the attributes it turns on
    /// override the rule's), or attributes written inline (exactly those written override).
    enum GroupStyleReference: Sendable, Hashable {
        case named(String)
        case inline(StylePatch)
    }
}

/// A place in a configuration source, kept so that later stages can point at it.
struct ConfigOrigin: Sendable, Hashable {
    /// A file path, `settings` or `initializationOptions`.
    var source: String
    /// The 1-based line, when the source is a file.
    var line: Int?
    /// The 1-based column, when the source is a file.
    var column: Int?
    /// The 0-based UTF-8 offset into the file, when the source is a file.
    var utf8Offset: Int?

    /// A diagnostic at this place.
    func diagnostic(_ severity: ConfigDiagnostic.Severity, _ message: String) -> ConfigDiagnostic {
        ConfigDiagnostic(
            severity: severity, message: message, source: source, line: line, column: column, utf8Offset: utf8Offset)
    }
}

extension RuleDefinition {
    /// Definitions are equal when they say the same thing, wherever they were written.
    public static func == (lhs: RuleDefinition, rhs: RuleDefinition) -> Bool {
        lhs.name == rhs.name && lhs.pattern == rhs.pattern && lhs.caseSensitive == rhs.caseSensitive
            && lhs.wholeWord == rhs.wholeWord && lhs.style == rhs.style && lhs.enabled == rhs.enabled
            && lhs.groupStyles == rhs.groupStyles && lhs.severity == rhs.severity && lhs.message == rhs.message
            && lhs.link == rhs.link && lhs.findsColorLiterals == rhs.findsColorLiterals
            && lhs.applicability == rhs.applicability
    }

    /// Hashes what the definition says, not where it was written.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(pattern)
        hasher.combine(caseSensitive)
        hasher.combine(wholeWord)
        hasher.combine(style)
        hasher.combine(enabled)
        hasher.combine(groupStyles)
        hasher.combine(severity)
        hasher.combine(message)
        hasher.combine(link)
        hasher.combine(applicability)
    }
}
