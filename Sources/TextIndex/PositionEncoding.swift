/// The unit in which a client counts the `character` of a position, as negotiated in LSP.
public enum PositionEncoding: String, Sendable, CaseIterable {
    /// UTF-8 code units (bytes).
    case utf8 = "utf-8"
    /// UTF-16 code units, the LSP default: a character outside the Basic Multilingual Plane
    /// (such as 👍) counts as two.
    case utf16 = "utf-16"
    /// Unicode scalars.
    case utf32 = "utf-32"
}
