import Seeded
import Testing
@testable import LanguageSyntax

/// Random edits on random texts: the incrementally updated index must equal a full rebuild.
@Suite struct SyntaxIndexDifferentialTests {

    /// Pieces that open and close comments and strings in many languages, and every kind of line end.
    static let fragments = [
        "/*", "*/", "//", "#", "\"", "'", "`", "\"\"\"", "'''", "\\", "r#\"", "\"#", "R\"x(", ")x\"", "--", "--[[", "]]",
        "[==[", "]==]", "{-", "-}", "(*", "*)", "<!--", "-->", "=begin", "=end", "@doc \"\"\"", "@moduledoc \"", "a", "b c", " ", "é", "🔥",
        "\n", "\r\n", "\r", "\n\n",
    ]

    static func randomText(_ generator: inout SplitMix64, pieces: Int) -> [UInt8] {
        var text: [UInt8] = []
        for _ in 0..<pieces {
            text += Array((fragments.randomElement(using: &generator) ?? "a").utf8)
        }
        return text
    }

    /// The line-terminator search, sixteen bytes a step, finds what a byte-by-byte look finds, from and to anywhere.
    @Test func lineTerminatorsAreFoundAsByteByByte() {
        var random = SplitMix64(seed: 61)
        for _ in 0..<300 {
            let bytes: [UInt8] = (0..<random.next(below: 90)).map { _ in
                [UInt8(ascii: "a"), 0x0A, 0x0D, 0x8D, 0x8A, 0xFF][random.next(below: random.next(below: 5) == 0 ? 6 : 1)]
            }
            let start = random.next(below: bytes.count + 1)
            let end = start + random.next(below: bytes.count - start + 1)
            let expected = bytes[start..<end].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? end
            bytes.withUnsafeBufferPointer { buffer in
                #expect(ByteSearch.firstLineTerminator(in: buffer, from: start, to: end) == expected, "\(bytes) \(start)..<\(end)")
            }
        }
    }

    @Test func incrementalUpdatesEqualFullRebuilds() {
        let languages = ["c", "cpp", "rust", "swift", "python", "lua", "ruby", "haskell", "html", "shellscript", "sql", "ocaml",
                         "markdown", "elixir", "julia", "graphql"]
        let baseSeed: UInt64 = 0x53_59_4E_54
        for iteration in 0..<400 {
            let seed = baseSeed &+ UInt64(iteration)
            var generator = SplitMix64(seed: seed)
            let languageID = languages[iteration % languages.count]
            guard let syntax = LanguageSyntax.forLanguageID(languageID) else {
                Issue.record("no syntax for \(languageID)")
                return
            }
            var text = Self.randomText(&generator, pieces: Int.random(in: 0...60, using: &generator))
            var index = SyntaxIndex(syntax: syntax, text: text)
            for step in 0..<12 {
                let lower = Int.random(in: 0...text.count, using: &generator)
                let upper = Int.random(in: lower...min(text.count, lower + 12), using: &generator)
                let inserted = Self.randomText(&generator, pieces: Int.random(in: 0...3, using: &generator))
                text.replaceSubrange(lower..<upper, with: inserted)
                text.withUnsafeBufferPointer {
                    _ = index.update(afterReplacing: lower..<upper, withUTF8Count: inserted.count, in: $0)
                }
                let rebuilt = SyntaxIndex(syntax: syntax, text: text)
                let same = index.lineStarts == rebuilt.lineStarts && index.lineStartStates == rebuilt.lineStartStates
                    && index.regions == rebuilt.regions
                #expect(same, "seed \(seed), \(languageID), step \(step): edit \(lower)..<\(upper) + \(inserted.count) bytes")
                if !same { return }
            }
        }
    }

    /// The lazily lexed scopes of texts searched once agree with the index at every offset, asked in ascending order
    /// (every offset, half of them, a few far apart, so that lexing skips lines of code and lines inside strings and
    /// comments on its way to each, and must not skip an opener or a closer in them) and then in any order.
    @Test func lazyScopesEqualTheIndex() {
        let languages = ["c", "rust", "python", "lua", "ruby", "markdown", "elixir", "julia", "graphql", "shellscript", "haskell", "html"]
        let baseSeed: UInt64 = 0x0F_F5_E7
        for iteration in 0..<300 {
            let seed = baseSeed &+ UInt64(iteration)
            var generator = SplitMix64(seed: seed)
            let languageID = languages[iteration % languages.count]
            guard let syntax = LanguageSyntax.forLanguageID(languageID) else {
                Issue.record("no syntax for \(languageID)")
                return
            }
            let text = Self.randomText(&generator, pieces: Int.random(in: 0...120, using: &generator))
            let index = SyntaxIndex(syntax: syntax, text: text)
            let all = Array(0..<text.count)
            let some = all.filter { _ in Bool.random(using: &generator) } + [text.count + 3]
            let few = all.filter { _ in Int.random(in: 0..<60, using: &generator) == 0 } + [text.count + 3]
            let shuffled = (few + some.prefix(20)).shuffled(using: &generator)
            for offsets in [all, some, few, few + shuffled] {
                let expected = offsets.map { $0 < text.count ? index.scope(atUTF8Offset: $0) : syntax.textScope }
                let actual = text.withUnsafeBufferPointer { text in
                    let lazy = LazyScopes(syntax: syntax, text: text)
                    return offsets.map { lazy.scope(atUTF8Offset: $0) }
                }
                #expect(actual == expected, "seed \(seed), \(languageID), \(offsets.count) offsets")
                if actual != expected { return }
            }
        }
    }

    /// Lexing a text searched once passes the lines that cannot change the state at once: the lines of code with no
    /// opener, and those inside a multi-line string or comment with no closer, whatever their number.
    @Test func lazyScopesScanOnlyTheLinesThatCanChangeTheState() throws {
        let python = try #require(LanguageSyntax.forLanguageID("python"))
        let c = try #require(LanguageSyntax.forLanguageID("c"))
        let cases: [(LanguageSyntax, String, String)] = [
            (python, "x = 1\n", "# TODO\n"),
            (python, "def f():\n    \"\"\"Docs\n", "    TODO\n    \"\"\"\n# TODO\n"),
            (c, "/* start\n", " * TODO */\nint x; // TODO\n"),
        ]
        for (syntax, opening, ending) in cases {
            var scanned: [Int] = []
            for lines in [10, 10_000] {
                let body = opening.hasPrefix("x") ? String(repeating: opening, count: lines)
                    : opening + String(repeating: "    more words, no closer\n", count: lines)
                let text = Array((body + ending).utf8)
                let (scope, count) = text.withUnsafeBufferPointer { buffer in
                    let lazy = LazyScopes(syntax: syntax, text: buffer)
                    let last = text.count - 4
                    return (lazy.scope(atUTF8Offset: last), lazy.scannedLines)
                }
                let index = SyntaxIndex(syntax: syntax, text: text)
                #expect(scope == index.scope(atUTF8Offset: text.count - 4))
                scanned.append(count)
            }
            #expect(scanned[0] == scanned[1] && scanned[1] <= 4, "\(opening.debugDescription): \(scanned) lines scanned")
        }
    }

    /// Re-scanning stops where the states converge: an edit inside one line of a long file re-scans one line.
    @Test func updatesStopWhereStatesConverge() throws {
        let syntax = try #require(LanguageSyntax.forLanguageID("c"))
        var text = Array(String(repeating: "int x; // c\n", count: 1_000).utf8)
        var index = SyntaxIndex(syntax: syntax, text: text)
        text.replaceSubrange(600..<601, with: Array("/".utf8))
        let rescanned = text.withUnsafeBufferPointer { index.update(afterReplacing: 600..<601, withUTF8Count: 1, in: $0) }
        #expect(rescanned.count <= 2)
        // Opening a block comment re-scans to the end: every later line changes state.
        text.replaceSubrange(0..<0, with: Array("/*".utf8))
        let all = text.withUnsafeBufferPointer { index.update(afterReplacing: 0..<0, withUTF8Count: 2, in: $0) }
        #expect(all.count == 1_000)
    }

    /// The cursor a search uses answers as `scope(ofUTF8Range:)` does, for offsets asked in ascending
    /// order (walking forward) and, now and then, backward (searching again).
    @Test func theCursorAgreesWithTheIndex() {
        let languages = ["c", "python", "lua", "html", "markdown", "haskell"]
        for iteration in 0..<120 {
            var generator = SplitMix64(seed: 0xC0_25_0B &+ UInt64(iteration))
            guard let syntax = LanguageSyntax.forLanguageID(languages[iteration % languages.count]) else { continue }
            let text = Self.randomText(&generator, pieces: Int.random(in: 0...200, using: &generator))
            let index = SyntaxIndex(syntax: syntax, text: text)
            let cursor = SyntaxIndex.Cursor(index)
            var offset = 0
            for _ in 0..<80 {
                offset = Int.random(in: 0...3, using: &generator) == 0
                    ? Int.random(in: 0...text.count, using: &generator)
                    : min(text.count, offset + Int.random(in: 0...40, using: &generator))
                let range = offset..<offset
                #expect(cursor.scope(ofUTF8Range: range) == index.scope(ofUTF8Range: range), "seed \(iteration), offset \(offset)")
            }
        }
    }
}
