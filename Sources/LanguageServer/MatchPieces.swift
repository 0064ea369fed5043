import HighlightConfig
import PatternEngine
import TextIndex

// Line segments are made of pieces, not whole matches: a match of a rule with styled capture
// groups is split where the groups begin and end, and a colour literal carries its colour.
// A segment's `ruleIndex` is therefore a piece index (see HighlightConfiguration+Details.swift):
// the rule's index for a match drawn whole, which is every match when no rule has groups and
// colours are off.

extension DocumentHighlights {
    /// `matches` as the pieces their segments are made of; the matches themselves when nothing splits.
    /// - Complexity: O(m), plus finding the groups of matches of rules with styled groups.
    func pieces(of matches: ArraySlice<Match>, in text: TextBuffer) -> ArraySlice<Match> {
        guard configuration.splitsMatches else { return matches }
        return text.withUnsafeBytes { configuration.pieces(of: matches, in: $0) }[...]
    }
}

/// The semantic token type of each piece index of a configuration, under a legend.
///
/// A group's type (`rule.group`) that the legend lacks (the legend is fixed at `initialize`
/// when the client cannot re-register it) falls back to its rule's type, and a colour literal
/// has its rule's type.
struct PieceTokenTypes {
    private let types: [Int]
    private let colorType: Int
    private let fallback: Int

    init(_ configuration: HighlightConfiguration, legend: TokenLegend) {
        let fallback = legend.tokenType(ofRule: TokenLegend.fallbackType)
        var types = configuration.rules.map { legend.tokenType(ofRule: $0.name) }
        for kind in configuration.groupPieceKinds {
            let type = legend.tokenType(ofRule: kind.tokenType)
            let ruleType = types.indices.contains(kind.ruleIndex) ? types[kind.ruleIndex] : fallback
            types.append(type == fallback ? ruleType : type)
        }
        self.types = types
        self.fallback = fallback
        colorType = configuration.colorRuleIndex.map { types.indices.contains($0) ? types[$0] : fallback } ?? fallback
    }

    /// The legend index of a piece index's token type.
    subscript(pieceIndex: Int) -> Int {
        if pieceIndex >= 0, pieceIndex < types.count { return types[pieceIndex] }
        return pieceIndex >= types.count ? colorType : fallback
    }
}
