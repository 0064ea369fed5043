import HighlightConfig
import PatternEngine
import TextIndex

// Line segments are made of pieces, not whole matches: a match of a rule with styled capture
// groups is split where the groups begin and end, and a colour literal carries its colour.
// A segment's `piece` says which (see HighlightConfiguration+Details.swift): `.rule(i)` for a
// match drawn whole, which is every match when no rule has groups and colours are off.

extension DocumentHighlights {
    /// `matches` as the pieces their segments are made of; the matches themselves when nothing splits.
    /// - Complexity: O(m), plus finding the groups of matches of rules with styled groups.
    func pieces(of matches: ArraySlice<Match>, in text: TextBuffer) -> [MatchPiece] {
        text.withUnsafeBytes { configuration.pieces(of: matches, in: $0) }
    }
}

/// The semantic token type of each piece of a configuration, under a legend.
///
/// A group's type (`rule.group`) that the legend lacks (the legend is fixed at `initialize`
/// when the client cannot re-register it) falls back to its rule's type, and a colour literal
/// has its rule's type.
struct PieceTokenTypes {
    /// Per rule, the legend index of its type.
    private let ruleTypes: [Int]
    /// Per styled group (`Piece.group`), the legend index of its type.
    private let groupTypes: [Int]
    private let colorType: Int
    private let fallback: Int

    init(_ configuration: HighlightConfiguration, legend: TokenLegend) {
        let fallback = legend.tokenType(ofRule: TokenLegend.fallbackType)
        let ruleTypes = configuration.rules.map { legend.tokenType(ofRule: $0.name) }
        groupTypes = configuration.groupPieceKinds.map { kind in
            let type = legend.tokenType(ofRule: kind.tokenType)
            let ruleType = ruleTypes.indices.contains(kind.ruleIndex) ? ruleTypes[kind.ruleIndex] : fallback
            return type == fallback ? ruleType : type
        }
        self.ruleTypes = ruleTypes
        self.fallback = fallback
        colorType = configuration.colorRuleIndex.map { ruleTypes.indices.contains($0) ? ruleTypes[$0] : fallback } ?? fallback
    }

    /// The legend index of a piece's token type.
    subscript(piece: Piece) -> Int {
        switch piece {
        case .rule(let index): return ruleTypes.indices.contains(index) ? ruleTypes[index] : fallback
        case .group(let index): return groupTypes.indices.contains(index) ? groupTypes[index] : fallback
        case .color: return colorType
        }
    }
}
