/// One source of configuration: a `.highlights.json` file, the client's settings, the
/// `initializationOptions`, or the built-in defaults.
///
/// A layer is what its source says and nothing more; `HighlightConfiguration` combines layers.
public struct ConfigLayer: Sendable {
    /// Whether to include the built-in rules; `nil` when this layer does not say.
    var defaults: Bool?
    /// Whether to add the built-in `color` rule that finds colour literals; `nil` when this layer does not say.
    var colors: Bool?
    /// Whether `textDocument/documentSymbol` lists the matches of rules marked `list`; `nil` when this layer does not say.
    public var outline: Bool?
    /// What `check` does about a nested `.highlights.json` that narrows a blocking rule of this one; `nil` when this layer does not say.
    public var nestedConfigs: NestedConfigPolicy?
    /// How many days before its deadline a marker is due soon (`"dueSoon"`); nil when this layer does not say.
    public var dueSoonDays: Int?
    /// The languages this layer declares, in the order written.
    public var languages: [DeclaredLanguage] = []
    /// Styles by name, as this layer defines them.
    public var styles: [String: Style]
    /// Rules in the order written; names are unique within a layer.
    public var rules: [RuleDefinition]

    /// A layer from its parts.
    public init(defaults: Bool? = nil, styles: [String: Style] = [:], rules: [RuleDefinition] = []) {
        self.defaults = defaults
        self.styles = styles
        self.rules = rules
    }
}
