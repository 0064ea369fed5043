// What a configuration says about matches beyond their rule and style: capture-group styles,
// colour literals, diagnostics, messages and links.
//
// Drawing works on *pieces*: a match split where its styled capture groups begin and end.
// A `MatchPiece` is a range and what it is drawn as (`Piece`):
//
//     .rule(i)      the rule's own style (a match with nothing to split is one piece)
//     .group(g)     a styled group of a rule (`groupPieceKinds[g]`)
//     .color(c)     a colour literal, drawn in its own colour
//
// Pieces depend only on the configuration and the matched text, never on the rest of
// the document, so pieces can be computed match by match as matches change.

import PatternEngine

/// What a configuration adds to one rule's matches besides its style.
public struct RuleDetails: Sendable {
    /// When set, matches are reported as diagnostics of this severity.
    public var severity: RuleDefinition.Severity?
    /// The message for diagnostics and hover.
    public var message: MatchTemplate?
    /// The link a match opens.
    public var link: MatchTemplate?
    /// Whether this is the built-in `color` rule.
    public var findsColorLiterals: Bool
    /// The styled groups (their number, and their index in `groupPieceKinds`), highest group
    /// number first, so that an inner group is drawn over an outer one.
    var groups: [(group: Int, groupIndex: Int)]
    /// The rule's regex with capture slots, when groups or templates need captures.
    var captureRegex: CompiledRegex?

    /// No details: no diagnostics, message, link or group styles.
    init() {
        findsColorLiterals = false
        groups = []
    }

    /// Whether filling in the templates, or splitting, needs the groups of a match (beyond `$0`).
    public var needsCaptures: Bool { captureRegex != nil }
}

/// What a piece of a match is drawn as.
public enum Piece: Sendable, Hashable {
    /// The rule's own style: the rule's index.
    case rule(Int)
    /// A styled capture group: its index in `HighlightConfiguration.groupPieceKinds`.
    case group(Int)
    /// A colour literal, drawn in its own colour (a match of the colour rule).
    case color(RGBAColor)
}

/// A range of the text and what it is drawn as.
public struct MatchPiece: Sendable, Hashable {
    /// What the range is drawn as.
    public var piece: Piece
    /// UTF-8 byte offsets.
    public var utf8Range: Range<Int>

    /// A piece of `utf8Range` drawn as `piece`.
    init(piece: Piece, utf8Range: Range<Int>) {
        self.piece = piece
        self.utf8Range = utf8Range
    }

    /// A match drawn whole in its rule's style.
    public init(wholeMatch match: Match) {
        self.init(piece: .rule(match.ruleIndex), utf8Range: match.utf8Range)
    }
}

/// How a piece is shown: its semantic token type and its style.
public struct PieceKind: Sendable, Hashable {
    /// The rule the piece belongs to.
    public var ruleIndex: Int
    /// The semantic token type: the rule's name, or `rule.group` for a styled group.
    public var tokenType: String
    /// The style to draw the piece with.
    public var style: Style
}

extension HighlightConfiguration {
    /// Every semantic token type of the configuration: each rule's name followed by the types of
    /// its styled groups (`rule.1`, `rule.owner`), in rule order.
    public var tokenTypes: [String] {
        var types: [String] = []
        types.reserveCapacity(rules.count + groupPieceKinds.count)
        var groupKinds = groupPieceKinds[...]
        for (ruleIndex, rule) in rules.enumerated() {
            types.append(rule.name)
            while let kind = groupKinds.first, kind.ruleIndex == ruleIndex {
                types.append(kind.tokenType)
                groupKinds = groupKinds.dropFirst()
            }
        }
        return types
    }

    /// The token type and style of a piece; `nil` for a piece that names nothing here.
    public func pieceKind(_ piece: Piece) -> PieceKind? {
        switch piece {
        case .rule(let ruleIndex):
            guard rules.indices.contains(ruleIndex) else { return nil }
            return PieceKind(ruleIndex: ruleIndex, tokenType: rules[ruleIndex].name, style: styles[ruleIndex])
        case .group(let groupIndex):
            return groupPieceKinds.indices.contains(groupIndex) ? groupPieceKinds[groupIndex] : nil
        case .color(let color):
            guard let colorRuleIndex else { return nil }
            let style = Style(color: ColorLiteral.readableTextColor(on: color), backgroundColor: color, rounded: true)
            return PieceKind(ruleIndex: colorRuleIndex, tokenType: rules[colorRuleIndex].name, style: style)
        }
    }

    /// Whether any match can become more than one piece or a piece with its own style; when not,
    /// `pieces(of:in:)` returns the matches as they are.
    var splitsMatches: Bool { colorRuleIndex != nil || !groupPieceKinds.isEmpty }

    /// The matches as pieces to draw: each match split where its styled capture groups begin and
    /// end (the highest-numbered group wins where groups nest), colour literals with their colour.
    ///
    /// Pieces are sorted and do not overlap when the matches are.
    /// - Complexity: O(m) for matches with nothing to split; a match with styled groups costs
    ///   finding its captures, O(match length × pattern size).
    public func pieces(of matches: some Collection<Match>, in text: UnsafeBufferPointer<UInt8>) -> [MatchPiece] {
        guard splitsMatches else { return matches.map(MatchPiece.init(wholeMatch:)) }
        var pieces: [MatchPiece] = []
        pieces.reserveCapacity(matches.count)
        for match in matches {
            guard details.indices.contains(match.ruleIndex) else {
                pieces.append(MatchPiece(wholeMatch: match))
                continue
            }
            let ruleDetails = details[match.ruleIndex]
            if ruleDetails.findsColorLiterals {
                pieces.append(colorPiece(of: match, in: text))
            } else if ruleDetails.groups.isEmpty || ruleDetails.captureRegex == nil {
                pieces.append(MatchPiece(wholeMatch: match))
            } else {
                appendGroupPieces(of: match, details: ruleDetails, in: text, to: &pieces)
            }
        }
        return pieces
    }

    /// The colour of a colour literal's match, or `nil` when the bytes are not one.
    public func literalColor(of match: Match, in text: UnsafeBufferPointer<UInt8>) -> RGBAColor? {
        guard match.utf8Range.lowerBound >= 0, match.utf8Range.upperBound <= text.count else { return nil }
        return RGBAColor(literal: text[match.utf8Range])
    }

    /// The capture groups of a match (index 0 is the match), or just the match when the rule's
    /// templates and styles need no groups.
    public func captures(of match: Match, in text: UnsafeBufferPointer<UInt8>) -> [Range<Int>?] {
        guard details.indices.contains(match.ruleIndex), let regex = details[match.ruleIndex].captureRegex,
            match.utf8Range.lowerBound >= 0, match.utf8Range.upperBound <= text.count
        else { return [match.utf8Range] }
        return regex.captures(in: text, match: match.utf8Range)
    }

    private func colorPiece(of match: Match, in text: UnsafeBufferPointer<UInt8>) -> MatchPiece {
        guard let color = literalColor(of: match, in: text) else { return MatchPiece(wholeMatch: match) }
        return MatchPiece(piece: .color(color), utf8Range: match.utf8Range)
    }

    private func appendGroupPieces(
        of match: Match, details ruleDetails: RuleDetails, in text: UnsafeBufferPointer<UInt8>, to pieces: inout [MatchPiece]
    ) {
        let captures = captures(of: match, in: text)
        let range = match.utf8Range
        // The styled groups that took part, clipped to the match; highest group number first.
        var painted: [(range: Range<Int>, piece: Piece)] = []
        for (group, groupIndex) in ruleDetails.groups {
            guard captures.indices.contains(group), let groupRange = captures[group] else { continue }
            let lower = max(groupRange.lowerBound, range.lowerBound)
            let upper = min(groupRange.upperBound, range.upperBound)
            if lower < upper { painted.append((lower..<upper, .group(groupIndex))) }
        }
        guard !painted.isEmpty else {
            pieces.append(MatchPiece(wholeMatch: match))
            return
        }
        var points = [range.lowerBound, range.upperBound]
        for entry in painted {
            points.append(entry.range.lowerBound)
            points.append(entry.range.upperBound)
        }
        points.sort()
        for (start, end) in zip(points, points.dropFirst()) where start < end {
            let piece = painted.first { $0.range.lowerBound <= start && end <= $0.range.upperBound }?.piece ?? .rule(match.ruleIndex)
            if let last = pieces.last, last.piece == piece, last.utf8Range.upperBound == start, last.utf8Range.lowerBound >= range.lowerBound {
                pieces[pieces.count - 1].utf8Range = last.utf8Range.lowerBound..<end
            } else {
                pieces.append(MatchPiece(piece: piece, utf8Range: start..<end))
            }
        }
    }
}

/// Resolves what each rule's definition says beyond its pattern and style.
struct RuleDetailsResolver {
    var details: [RuleDetails] = []
    var groupPieceKinds: [PieceKind] = []
    var diagnostics: [ConfigDiagnostic] = []

    /// Details for `definitions` (aligned with the configuration's rules), whose resolved styles
    /// are `styles`.
    mutating func resolve(_ definitions: [RuleDefinition], styles: [Style], namedStyles: [String: Style]) {
        details.reserveCapacity(definitions.count)
        for (ruleIndex, definition) in definitions.enumerated() {
            var ruleDetails = RuleDetails()
            ruleDetails.severity = definition.severity
            ruleDetails.findsColorLiterals = definition.findsColorLiterals
            let origin = definition.origin ?? ConfigOrigin(source: "configuration")
            let usesGroups = !definition.groupStyles.isEmpty || definition.message != nil || definition.link != nil
            var captureNames: [String?] = [nil]
            var regex: CompiledRegex?
            if usesGroups, case .regex(let pattern)? = definition.pattern {
                // The parser's regex when there is one; a definition made in code is compiled here.
                regex = definition.compiledRegex ?? (try? CompiledRegex(pattern, caseInsensitive: !definition.caseSensitive))
                captureNames = regex?.captureNames ?? [nil]
            }
            func template(_ text: String?, key: String) -> MatchTemplate? {
                guard let text else { return nil }
                do {
                    return try MatchTemplate(text, captureNames: captureNames)
                } catch {
                    diagnostics.append(origin.diagnostic(.error, "rule \"\(definition.name)\": \"\(key)\": \(error.message)"))
                    return nil
                }
            }
            ruleDetails.message = template(definition.message, key: "message")
            ruleDetails.link = template(definition.link, key: "link")
            let base = styles.indices.contains(ruleIndex) ? styles[ruleIndex] : Style.neutral
            for groupStyle in definition.groupStyles {
                guard let group = Self.groupNumber(groupStyle.group, captureNames: captureNames) else {
                    diagnostics.append(origin.diagnostic(.error, "rule \"\(definition.name)\": no group \"\(groupStyle.group)\" in the regex"))
                    continue
                }
                let patch: StylePatch
                switch groupStyle.style {
                case .inline(let inline): patch = inline
                case .named(let name):
                    guard let named = namedStyles[name] else {
                        let suffix = ConfigKeys.suggestionSuffix(for: name, among: namedStyles.keys.sorted())
                        diagnostics.append(origin.diagnostic(
                            .warning, "rule \"\(definition.name)\": group \"\(groupStyle.group)\": unknown style \"\(name)\"\(suffix)"))
                        continue
                    }
                    patch = StylePatch(settingAttributesOf: named)
                }
                ruleDetails.groups.append((group, groupPieceKinds.count))
                groupPieceKinds.append(PieceKind(
                    ruleIndex: ruleIndex, tokenType: definition.name + "." + groupStyle.group, style: patch.applied(to: base)))
            }
            ruleDetails.groups.sort { $0.group > $1.group }
            let highest = max(ruleDetails.message?.highestGroup ?? 0, ruleDetails.link?.highestGroup ?? 0)
            if !ruleDetails.groups.isEmpty || highest > 0 { ruleDetails.captureRegex = regex }
            details.append(ruleDetails)
        }
    }

    /// The number of the group a `groups` key names: a decimal number, or a group name.
    static func groupNumber(_ key: String, captureNames: [String?]) -> Int? {
        if !key.isEmpty, key.utf8.count <= 6, key.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let number = Int(key)
        {
            return number >= 1 && number < captureNames.count ? number : nil
        }
        guard let index = captureNames.firstIndex(where: { $0 == key }), index > 0 else { return nil }
        return index
    }
}
