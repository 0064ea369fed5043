// The one path from a text to its matches, for every front end:
//
//     text + TextOrigin (path, language) + RuleSelection
//        │
//        ▼  ruleFilter(for:selecting:)      which rules apply: `languages`, `files`, list/blocking
//        ▼  RuleFilter.matches(of:in:…)      the engine, with scopes applied before overlaps
//        ▼  LocatedMatch.locate(_:in:)      lines and columns in every unit, excerpts for display
//
// `highlight-ls print/list/check` (files on disk), the server's open documents (whole texts,
// and regions after an edit) and `workspace/symbol` (files on disk, or the editor's text of
// open documents) all go through these functions; they differ only in where the text comes
// from and how results are written.

import LanguageSyntax
import PatternEngine
import TextIndex

/// Where a text comes from, as far as rules care: its path and its language.
public struct TextOrigin: Sendable, Hashable {
    /// The path relative to the folder of the configuration, which `files` globs match; nil when
    /// the text has no path (then every `files` test passes).
    public var relativePath: String?
    /// The language id (the client's, or one guessed from the file name); nil when unknown.
    public var languageID: String?

    /// An origin from a relative path and a language id.
    public init(relativePath: String?, languageID: String?) {
        self.relativePath = relativePath
        self.languageID = languageID
    }

    /// A file's origin, with the language guessed from its name (`.rs` is `rust`, `Makefile` is `makefile`).
    public init(guessingLanguageOf relativePath: String) {
        self.init(relativePath: relativePath, languageID: LanguageSyntax.languageID(forFileName: relativePath))
    }
}

/// Which rules a search reports. Overlaps are resolved among the selected rules only, so a rule
/// left out never hides a selected one.
public enum RuleSelection: Sendable, Hashable, CaseIterable {
    /// Every rule: what the editor highlights.
    case all
    /// Rules marked `"list": true`: the workspace list.
    case listed
    /// Rules marked `"blocking": true`: `highlight-ls check`.
    case blocking
    /// Rules that read the fields written after their matches (`"fields": true`): `check`'s deadlines.
    case fields
    /// Rules that read fields or are marked `"list"`: `check --older-than`'s deadlines and work items.
    case fieldsOrListed
}

extension HighlightConfiguration {
    /// Which rules apply to a text from `origin`, among those `selection` keeps, before scopes.
    ///
    /// The text's language is a declared language whose `files` match its path, else the origin's
    /// language id; its syntax, which the filter carries for scopes, is that declared language's,
    /// else the built-in table's.
    public func ruleFilter(for origin: TextOrigin, selecting selection: RuleSelection = .all) -> RuleFilter {
        let origin = resolvingDeclaredLanguage(of: origin)
        var filter = filters.filter(for: origin, selecting: selection)
        filter.syntax = origin.languageID.flatMap { id in
            storage.languages.first { $0.id == id.lowercased() }?.syntax ?? LanguageSyntax.forLanguageID(id)
        }
        return filter
    }

    /// Whether a text's path can change which rules apply to it or its language: some rule has
    /// `files`, or some declared language has.
    public var dependsOnPath: Bool {
        storage.applicability.contains { $0.files != nil } || storage.languages.contains { $0.files != nil }
    }

    /// `origin` with the id of the first declared language whose `files` match its path, when one does.
    func resolvingDeclaredLanguage(of origin: TextOrigin) -> TextOrigin {
        guard let path = origin.relativePath, storage.languages.contains(where: { $0.files != nil }) else { return origin }
        let segments = FileGlobs.segments(of: path)
        guard let declared = storage.languages.first(where: { $0.files?.matches(segments: segments) ?? false }) else { return origin }
        return TextOrigin(relativePath: path, languageID: declared.id)
    }

    /// Which rules apply to a text from `origin`, among those `selection` keeps and, when `names` is given, only those
    /// of these names (the command line's `--rule`): the others are left out before overlaps are resolved, as a
    /// selection's are, so that a rule left out never hides a picked one.
    public func ruleFilter(for origin: TextOrigin, selecting selection: RuleSelection, named names: Set<String>?) -> RuleFilter {
        let filter = ruleFilter(for: origin, selecting: selection)
        guard let names else { return filter }
        return filter.keeping(rulesNamed: names, of: self)
    }

    /// Whether the language of a text matters to any rule (by `languages` or `scope`), so that it is worth guessing.
    public var dependsOnLanguage: Bool { filters.dependsOnLanguage }

    /// The matches of a whole text from `origin`, of the rules `selection` keeps.
    ///
    /// - Complexity: as `RuleFilter.matches(of:in:startingIn:syntax:)` over the whole text.
    public func matches(in text: UnsafeBufferPointer<UInt8>, origin: TextOrigin, selecting selection: RuleSelection = .all) -> MatchList {
        ruleFilter(for: origin, selecting: selection).matches(of: ruleSet, in: text)
    }
}

extension RuleFilter {
    /// The sorted, non-overlapping matches of `ruleSet`'s rules this filter enables that start in `region`
    /// (the whole text when nil), with each rule's `scope` applied before overlaps are resolved.
    ///
    /// `syntax` is the text's comment and string index when the caller keeps one. When it is nil
    /// and a scoped rule applies, the text is first searched as if scopes did not exist; only when
    /// a scoped rule's match wins is the index built (from the filter's `syntax`) and stored there, and
    /// the region searched again. Taking away candidates that never won changes nothing in a
    /// leftmost-longest resolution, so both ways give the same matches; for the same reason the
    /// second search is skipped when every match of the first is in its rule's scopes. A language
    /// without a known syntax leaves scoped rules matching anywhere.
    ///
    /// - Complexity: O(region) for the engine (twice when a match of the first search is out of
    ///   its scopes), plus O(text) to build the index.
    public func matches(
        of ruleSet: RuleSet, in text: UnsafeBufferPointer<UInt8>, startingIn region: Range<Int>? = nil, syntax: inout SyntaxIndex?
    ) -> MatchList {
        let filter = self
        guard !filter.isEmpty else { return MatchList(matches: [], truncated: false) }
        let ruleSet = narrowedRuleSet ?? ruleSet
        let region = region ?? 0..<text.count
        if syntax == nil, filter.needsSyntax {
            let unscoped = ruleSet.matches(in: text, startingIn: region, accept: filter.acceptance(syntax: nil, text: text))
            guard unscoped.matches.contains(where: { filter.isScoped($0.ruleIndex) }), let language = filter.syntax
            else { return unscoped }
            let index = SyntaxIndex(syntax: language, text: text)
            syntax = index
            // When every winner is in its rule's scopes, the candidates taken away never won, and the
            // scoped search would find the same matches: most files with a TODO in a comment.
            if !unscoped.truncated, let accept = filter.acceptance(syntax: index, text: text),
               unscoped.matches.allSatisfy({ accept($0.ruleIndex, $0.utf8Range) }) {
                return unscoped
            }
        }
        return ruleSet.matches(in: text, startingIn: region, accept: filter.acceptance(syntax: syntax, text: text))
    }
}

extension RuleFilter {
    /// The matches of a whole text searched once (the command line, the workspace list): the same
    /// as `matches(of:in:startingIn:syntax:)`, but the scopes come from `LazyScopes`, lexed only as far as the
    /// first search's scoped matches; the text is searched again, with those scopes (lexed further only where the
    /// second search asks), only when one of them is out of its rule's scopes.
    ///
    /// - Complexity: O(n) for the engine (twice when a match is out of its scopes), plus the lexing up to the last
    ///   scoped match, when one matches.
    public func matches(of ruleSet: RuleSet, in text: UnsafeBufferPointer<UInt8>) -> MatchList {
        guard !isEmpty else { return MatchList(matches: [], truncated: false) }
        let ruleSet = narrowedRuleSet ?? ruleSet
        let unscoped = ruleSet.matches(in: text, startingIn: 0..<text.count, accept: acceptance(syntax: nil, text: text))
        guard needsSyntax, !unscoped.truncated else {
            var syntax: SyntaxIndex?
            return needsSyntax ? matches(of: ruleSet, in: text, syntax: &syntax) : unscoped
        }
        guard let language = syntax, unscoped.matches.contains(where: { isScoped($0.ruleIndex) }) else { return unscoped }
        let lexed = LazyScopes(syntax: language, text: text)
        if unscoped.matches.allSatisfy({ !isScoped($0.ruleIndex) || Self.allows(scopes[$0.ruleIndex], lexed.scope(ofUTF8Range: $0.utf8Range)) }) {
            return unscoped
        }
        return ruleSet.matches(in: text, startingIn: 0..<text.count, accept: acceptance(scopeOf: lexed.scope(ofUTF8Range:), text: text))
    }
}

/// A match with its place in the text in every unit, for lists and the command line.
public struct LocatedMatch: Sendable, Hashable {
    /// The rule's index in the configuration.
    public var ruleIndex: Int
    /// UTF-8 byte offsets from the start of the text.
    public var utf8Range: Range<Int>
    /// Where the match starts.
    public var start: TextPoint
    /// Where the match ends (on a later line for a match that spans lines).
    public var end: TextPoint
    /// The matched bytes: a slice of one array that holds the matched bytes of every match located
    /// together, so that a list of matches costs one allocation, not a `String` per match (which
    /// would validate each match's bytes again).
    /// Writers that take bytes copy them from here.
    public var textUTF8: ArraySlice<UInt8>
    /// The matched text.
    public var text: String { String(decoding: textUTF8, as: UTF8.self) }
    /// For display only: the match's first line from the match on, without its terminator, cut
    /// at a character boundary; empty unless asked for.
    public var excerpt: String

    /// Locates sorted, non-overlapping `matches` of `text` in one pass up to the last of them.
    ///
    /// `maximumExcerptBytes` bounds each excerpt (0: none are made).
    /// - Complexity: O(*n*) in the bytes up to the last match (see `TextPoint.points`), plus each
    ///   match's bytes and its excerpt.
    public static func locate(_ matches: [Match], in text: UnsafeBufferPointer<UInt8>, maximumExcerptBytes: Int = 0) -> [LocatedMatch] {
        var located: [LocatedMatch] = []
        _ = locate(matches, in: text, at: nil, maximumExcerptBytes: maximumExcerptBytes, appendingTo: &located)
        return located
    }

    /// Locates sorted, non-overlapping `matches` of `text`, a chunk of a larger text that begins at `chunkStart` in it
    /// (the match offsets count from the chunk's start), appends them to `located` counted from the larger text's
    /// start, and returns where the chunk ends, counted the same way. A text searched chunk after chunk is located
    /// this way into one array, with no copy per chunk. With `chunkEnd` (where the chunk ends, counted from its start,
    /// as the pass that checked it found), the walk stops at the last match; with that pass's `landmarks` too (see
    /// `TextPoint.points(ofUTF8Offsets:in:landmarks:usesAVX2:)`), it starts from the landmark before each match.
    ///
    /// - Complexity: O(*n*) in the chunk's bytes (up to the last match with `chunkEnd`; with landmarks, the bytes from
    ///   the landmark before each match), plus each match's bytes and its excerpt.
    @discardableResult
    public static func locate(
        _ matches: [Match], inChunk text: UnsafeBufferPointer<UInt8>, at chunkStart: TextPoint, endingAt chunkEnd: TextPoint? = nil,
        landmarks: [TextPoint.Landmark] = [], maximumExcerptBytes: Int = 0, appendingTo located: inout [LocatedMatch]
    ) -> TextPoint {
        let walkedEnd = locate(
            matches, in: text, at: chunkStart, walksToEnd: chunkEnd == nil, landmarks: landmarks,
            maximumExcerptBytes: maximumExcerptBytes, appendingTo: &located)
        return chunkEnd.map { $0.counted(from: chunkStart) } ?? walkedEnd ?? chunkStart
    }

    /// Locates `matches` and appends them to `located`, counted from `chunkStart` (if any); with `walksToEnd`, the walk
    /// goes on through the text's end, which is returned (else nil: the walk stops at the last match).
    private static func locate(
        _ matches: [Match], in text: UnsafeBufferPointer<UInt8>, at chunkStart: TextPoint?, walksToEnd: Bool = false,
        landmarks: [TextPoint.Landmark] = [], maximumExcerptBytes: Int, appendingTo located: inout [LocatedMatch]
    ) -> TextPoint? {
        var offsets: [Int] = []
        offsets.reserveCapacity(matches.count * 2 + 1)
        for match in matches {
            offsets.append(match.utf8Range.lowerBound)
            offsets.append(match.utf8Range.upperBound)
        }
        if walksToEnd { offsets.append(text.count) }
        let points = TextPoint.points(ofUTF8Offsets: offsets, in: text, landmarks: landmarks)
        let whole = 0..<text.count
        var matchedBytes: [UInt8] = []
        matchedBytes.reserveCapacity(matches.reduce(0) { $0 + $1.utf8Range.clamped(to: whole).count })
        for match in matches {
            matchedBytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[match.utf8Range.clamped(to: whole)]))
        }
        located.reserveCapacity(located.count + matches.count)
        let base = chunkStart ?? .start
        let shift = base.utf8Offset
        var textStart = 0
        for (index, match) in matches.enumerated() {
            let range = match.utf8Range.clamped(to: whole)
            located.append(LocatedMatch(
                ruleIndex: match.ruleIndex, utf8Range: (match.utf8Range.lowerBound + shift)..<(match.utf8Range.upperBound + shift),
                start: points[2 * index].counted(from: base), end: points[2 * index + 1].counted(from: base),
                textUTF8: matchedBytes[textStart..<textStart + range.count],
                excerpt: excerpt(from: range.lowerBound, in: text, maximumBytes: maximumExcerptBytes)))
            textStart += range.count
        }
        return walksToEnd ? points.last.map { $0.counted(from: base) } : nil
    }

    /// The text from `start` to its line's end, at most `maximumBytes` long, cut before a partial character.
    static func excerpt(from start: Int, in text: UnsafeBufferPointer<UInt8>, maximumBytes: Int) -> String {
        guard maximumBytes > 0, start < text.count else { return "" }
        var end = start
        let limit = min(text.count, start + maximumBytes)
        while end < limit, text[end] != 0x0A, text[end] != 0x0D { end += 1 }
        // Back off continuation bytes so that the cut never splits a character.
        if end == limit, end < text.count {
            while end > start, text[end] & 0xC0 == 0x80 { end -= 1 }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
    }
}
