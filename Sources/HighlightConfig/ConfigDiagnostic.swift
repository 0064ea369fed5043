/// A problem found while reading or combining configuration, with where it is.
///
/// Lines and columns are 1-based, as compilers print them, because the message is meant
/// for people; `utf8Offset` (0-based, into the file's bytes) is there for a server that
/// wants to convert the position into its own units. All three are `nil` for configuration
/// that did not come from a file (client settings, `initializationOptions`).
public struct ConfigDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How bad a problem is.
    public enum Severity: Sendable, Hashable {
        /// Something was dropped: a rule, a style, a style attribute, or the whole layer.
        case error
        /// Something was ignored or replaced by a fallback, and highlighting is as intended otherwise.
        case warning
    }

    /// How bad the problem is.
    public var severity: Severity
    /// A sentence for people, without the location prefix, e.g. `rule "ticket": invalid regex: ...`.
    public var message: String
    /// Where the configuration came from: a file path, `settings` or `initializationOptions`.
    public var source: String
    /// The 1-based line of the offending value, when the source is a file.
    public var line: Int?
    /// The 1-based column of the offending value, when the source is a file.
    public var column: Int?
    /// The 0-based UTF-8 byte offset of the offending value in the file, when the source is a file.
    public var utf8Offset: Int?

    /// A diagnostic from its parts.
    public init(
        severity: Severity, message: String, source: String, line: Int? = nil, column: Int? = nil,
        utf8Offset: Int? = nil
    ) {
        self.severity = severity
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        self.utf8Offset = utf8Offset
    }

    /// `source:line:column: message`, leaving out the parts that are unknown.
    public var description: String {
        var text = source
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        return text + ": " + message
    }
}
