import HighlightConfig
import LanguageSyntax
import PatternEngine
import Seeded
import Testing
import TextIndex
import WorkspaceScan

@testable import LanguageServer

/// Highlights kept up to date edit by edit must equal a full recomputation, after any edits.
@Suite struct IncrementalHighlightsTests {
    static let ruleSets: [(name: String, rules: [Rule])] = [
        ("words and a one-line regex", [
            Rule(name: "todo", pattern: .words(["TODO", "FIXME"]), wholeWord: true),
            Rule(name: "ticket", pattern: .regex(#"\b[A-Z]{2,}-[0-9]+\b"#)),
            Rule(name: "cafe", pattern: .words(["café"]), caseSensitive: false, wholeWord: true),
            Rule(name: "emoji", pattern: .words(["👍"])),
            Rule(name: "line", pattern: .regex("^ab")),
        ]),
        ("rules that span a bounded number of lines (the lines around the edit)", [
            Rule(name: "todo-next", pattern: .regex(#"TODO[^\n]*\n[ \t]*//[^\n]*"#)),
            Rule(name: "pair", pattern: .regex(#"ab\r?\n\r?\n?ab"#)),
            Rule(name: "word", pattern: .words(["x\nx", "END\r\nBEGIN"])),
            Rule(name: "todo", pattern: .words(["TODO", "FIXME"]), wholeWord: true),
            Rule(name: "line", pattern: .regex("^ab")),
        ]),
        ("a regex that spans lines (full recomputation)", [
            Rule(name: "todo", pattern: .words(["TODO"])),
            Rule(name: "block", pattern: .regex(#"BEGIN[^#]*END"#)),
        ]),
    ]

    static let pieces = ["TODO", "FIXME", " ", "x", "AB-12", "-3", "café", "CAFÉ", "👍", "日本", "e\u{301}", "\r\n", "\n", "\r",
                         "BEGIN", "END", "ab", "#", "/*", "*/", "//", "\"", "\\"]

    /// The rule sets again, with the first rule limited to comments and the second to code, in C.
    static let scoped: (filter: RuleFilter, syntax: LanguageSyntax?) = (
        RuleFilter(enabled: [true, true, true, true, true], scopes: [.comments, .code, .anywhere, .anywhere, .anywhere],
                   syntax: LanguageSyntax.forLanguageID("c")),
        LanguageSyntax.forLanguageID("c"))

    @Test(arguments: UInt64(1)...16)
    func randomEditsEqualAFullRecomputation(seed: UInt64) {
        for (name, rules) in Self.ruleSets {
            check(seed: seed, name: name, rules: rules, filter: nil)
        }
        check(seed: seed, name: "scoped to comments and code", rules: Self.ruleSets[0].rules, filter: Self.scoped.filter)
        check(seed: seed, name: "spanning lines, scoped", rules: Self.ruleSets[1].rules, filter: Self.scoped.filter)
        // Without lone `\r`s, `[^\n]*` stays on its line, so these rules reach one or two lines around an edit.
        let lineFeedPieces = Self.pieces.filter { $0 != "\r" } + ["\n", "\n", "ab\n\nab", "TODO x\n  // y", "x\nx"]
        check(seed: seed, name: "spanning lines, no lone CR", rules: Self.ruleSets[1].rules, filter: nil, pieces: lineFeedPieces)
        check(seed: seed, name: "spanning lines, no lone CR, scoped", rules: Self.ruleSets[1].rules, filter: Self.scoped.filter, pieces: lineFeedPieces)
    }

    /// Checks incremental highlights of `rules` under `filter` (every rule, anywhere, when nil).
    ///
    /// With a scoped filter the document is C, and its syntax index is built by the matching path
    /// only once a scoped rule's match wins; the full recomputation builds its own from scratch.
    func check(seed: UInt64, name: String, rules: [Rule], filter: RuleFilter?, pieces: [String] = Self.pieces) {
        let ruleSet = RuleSet(rules: rules)
        let languageID = filter == nil ? "" : "c"
        let filter = filter ?? RuleFilter(enabled: rules.map { _ in true }, scopes: rules.map { _ in .anywhere })
        var random = SplitMix64(seed: seed)
        var text: [UInt8] = []
        for _ in 0..<40 { text += Array(pieces[random.next(below: pieces.count)].utf8) }
        var document = Document(uri: "file:///t", languageId: languageID, version: 1, text: text)
        func fullMatches(_ document: Document) -> MatchList {
            var syntax: SyntaxIndex?
            return document.text.withUnsafeBytes { filter.matches(of: ruleSet, in: $0, syntax: &syntax) }
        }
        var work = WorkCounts()
        for step in 0..<150 {
            // Highlights exist (and have segments in two encodings) before each edit.
            if document.highlights == nil {
                // As the server does: the document keeps the syntax index its matches were found with.
                var syntax = document.syntax
                let matches = document.text.withUnsafeBytes { filter.matches(of: ruleSet, in: $0, syntax: &syntax) }
                document.syntax = syntax
                document.highlights = DocumentHighlights(configurationGeneration: 0, matches: matches)
            }
            _ = document.highlights?.segments(in: .utf16, text: document.text, work: &work)
            _ = document.highlights?.segments(in: .utf8, text: document.text, work: &work)

            let count = document.text.utf8Count
            var start = random.next(below: count + 1)
            var end = min(count, start + random.next(below: 8))
            // Edits arrive at character boundaries (the line index converts positions to them).
            let index = document.text.lineIndex
            start = index.utf8Offset(of: index.position(ofUTF8Offset: start, encoding: .utf32), encoding: .utf32)
            end = index.utf8Offset(of: index.position(ofUTF8Offset: end, encoding: .utf32), encoding: .utf32)
            var inserted: [UInt8] = []
            for _ in 0..<random.next(below: 3) { inserted += Array(pieces[random.next(below: pieces.count)].utf8) }
            document.replace(utf8Range: min(start, end)..<max(start, end), with: inserted, ruleSet: ruleSet, filter: filter, work: &work)

            guard var incremental = document.highlights else { continue }
            let full = fullMatches(document)
            let context = "seed \(seed), \(name), step \(step), text \(document.text.text.debugDescription)"
            #expect(incremental.matches == full.matches, Comment(rawValue: context))
            for encoding in [PositionEncoding.utf16, .utf8] {
                let expected = document.text.lineSegments(of: full.matches.map(MatchPiece.init(wholeMatch:)), encoding: encoding)
                #expect(incremental.segments(in: encoding, text: document.text, work: &work) == expected, Comment(rawValue: "\(encoding) \(context)"))
            }
            if incremental.matches != full.matches { return }
        }
    }

    @Test func lineReachIsComputedPerRuleSet() {
        func reach(_ rules: [Rule]) -> [Int?] {
            let breaks = RuleSet(rules: rules).maximumMatchLineBreaks
            return [breaks.lineFeeds, breaks.any]
        }
        #expect(reach(Self.ruleSets[0].rules) == [0, 0])
        // `[^\n]*` crosses any number of lone `\r`s; `ab\r?\n\r?\n?ab` has two `\n`s.
        #expect(reach(Self.ruleSets[1].rules) == [2, nil])
        #expect(reach(Self.ruleSets[2].rules) == [nil, nil])
        #expect(reach([Rule(name: "r", pattern: .regex(#"A(\nB){1,3}"#))]) == [3, 3])
        #expect(reach([Rule(name: "r", pattern: .regex(#"(?s)A.*B"#))]) == [nil, nil])
        #expect(reach([Rule(name: "r", pattern: .regex(#"A\s+B"#))]) == [nil, nil])
        #expect(reach([Rule(name: "w", pattern: .words(["a\r\nb\n"]))]) == [2, 3])
    }

    @Test func theScopedVariantRunsWithASyntax() {
        #expect(Self.scoped.syntax != nil)
        #expect(Self.scoped.filter.needsSyntax)
    }

    @Test func aRuleThatCanSpanLinesFallsBackToAFullRecomputation() {
        let ruleSet = RuleSet(rules: Self.ruleSets[2].rules)
        var document = Document(uri: "file:///t", languageId: "", version: 1, text: Array("BEGIN\nx\nEND TODO".utf8))
        document.highlights = DocumentHighlights(configurationGeneration: 0, matches: document.text.withUnsafeBytes { ruleSet.matches(in: $0) })
        var work = WorkCounts()
        document.replace(utf8Range: 6..<6, with: Array("y".utf8), ruleSet: ruleSet, filter: RuleFilter(enabled: [true, true], scopes: [.anywhere, .anywhere]), work: &work)
        #expect(document.highlights == nil)
    }
}
