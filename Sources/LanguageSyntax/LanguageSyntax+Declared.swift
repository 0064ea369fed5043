extension LanguageSyntax {
    /// The syntax of a language a configuration declares (its `languages` section), for a language
    /// the table does not know: comments to the end of the line after each of `lineComments`, block
    /// comments between each pair of `blockComments` (not nested), and strings between two of the
    /// same delimiter of `strings`, on one line, with `\` escaping the next byte.
    ///
    /// Longer openers are tried first, so `--[[` wins over `--`, whatever the order written.
    public static func declared(
        languageID: String, lineComments: [String], blockComments: [(open: String, close: String)], strings: [String]
    ) -> LanguageSyntax {
        var openers: [Opener] = []
        openers += lineComments.map { Opener($0, .lineComment) }
        openers += blockComments.map { Opener($0.open, .blockComment(close: $0.close, nests: false)) }
        openers += strings.map { Opener($0, .string(close: $0, escape: UInt8(ascii: "\\"), multiline: false)) }
        // Stable, so that of two openers of one length the one written first wins.
        let ordered = openers.enumerated().sorted { ($1.element.text.count, $0.offset) < ($0.element.text.count, $1.offset) }.map(\.element)
        return LanguageSyntax(languageIDs: [languageID.lowercased()], openers: ordered)
    }
}
