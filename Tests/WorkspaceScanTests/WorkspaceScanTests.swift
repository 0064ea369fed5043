import Foundation
import HighlightConfig
import Testing
@testable import WorkspaceScan

/// The walker and the scanner on a real temporary tree.
@Suite struct WorkspaceScanTests {
    /// Writes `files` (relative path → contents) below a new temporary directory and returns it.
    static func tree(_ files: [String: [UInt8]]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("workspace-scan-\(UUID().uuidString)")
        for (path, contents) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents).write(to: url)
        }
        return root.path
    }

    static func text(_ string: String) -> [UInt8] { Array(string.utf8) }

    @Test func walkerObeysIgnoreFilesAndSkipsHiddenEntries() throws {
        let root = try Self.tree([
            ".gitignore": Self.text("*.log\nbuild/\n/only-root.txt\n"),
            ".ignore": Self.text("!important.log\n"),
            "a.swift": [], "debug.log": [], "important.log": [], "only-root.txt": [],
            "build/out.swift": [], ".hidden/x.swift": [], ".git/config": [],
            "sub/.gitignore": Self.text("!sub.log\n*.tmp\n"), "sub/sub.log": [], "sub/x.tmp": [], "sub/only-root.txt": [],
            "sub/deeper/y.tmp": [], "sub/deeper/z.swift": [],
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let paths = WorkspaceWalker.files(under: root).map(\.relativePath)
        #expect(paths == ["a.swift", "important.log", "sub/deeper/z.swift", "sub/only-root.txt", "sub/sub.log"])
        let everything = WorkspaceWalker.files(under: root, options: .init(respectsIgnoreFiles: false, includesHidden: true))
        #expect(everything.count == 14)
        #expect(!everything.contains { $0.relativePath.hasPrefix(".git/") })
    }

    @Test func scannerSkipsBinaryAndLargeFilesAndLocatesMatches() throws {
        let root = try Self.tree([
            "a.txt": Self.text("x\r\n  TODO one\rTODO two\n"),
            "binary.dat": Self.text("TODO\u{0}"),
            "big.txt": [UInt8](repeating: 0x41, count: 100) + Self.text(" TODO"),
            "bad.txt": [0xFF] + Self.text(" TODO"),
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let configuration = HighlightConfiguration.builtInOnly
        let files = WorkspaceWalker.files(under: root)
        var reported: [(Int, Int)] = []
        let scanned = WorkspaceScanner.scan(
            files, configuration: configuration, filters: RuleFilterSet(configuration: configuration),
            options: ScanOptions(maximumFileSize: 50)) { reported.append(($0, $1)) }
        #expect(reported.last.map { $0 == (4, 4) } == true)
        let byName = Dictionary(uniqueKeysWithValues: scanned.map { ($0.file.relativePath, $0) })
        #expect(byName["binary.dat"]?.skipped == .binary)
        #expect(byName["big.txt"]?.skipped == .tooLarge)
        let matches = byName["a.txt"]?.matches ?? []
        #expect(matches.map(\.line) == [1, 2])
        #expect(matches.map(\.utf8Column) == [2, 0])
        #expect(matches.map(\.lineText) == ["  TODO one", "TODO two"])
        // The invalid byte became U+FFFD (three bytes), as an editor shows it.
        #expect(byName["bad.txt"]?.matches.first?.utf8Range == 4..<8)
    }

    @Test func filtersAndScopesResolveAmongApplicableRulesOnly() throws {
        let (layer, diagnostics) = ConfigLayer.parse(fileContents: Self.text("""
            { "defaults": false, "rules": [
              { "name": "comment-todo", "words": ["TODO"], "scope": "comments" },
              { "name": "any-to", "words": ["TO"] },
              { "name": "swift-only", "words": ["let"], "languages": ["swift"] },
              { "name": "src-only", "words": ["x"], "wholeWord": true, "files": ["src/**", "!src/gen/**"] },
              { "name": "strings", "words": ["s"], "wholeWord": true, "scope": ["strings"] },
            ] }
            """), source: "test")
        #expect(diagnostics.isEmpty)
        let configuration = HighlightConfiguration(layers: [layer].compactMap { $0 })
        let contents = Self.text("let TODO = \"s\" // TODO s x\n")
        let root = try Self.tree(["src/a.swift": contents, "src/gen/b.swift": contents, "c.rs": contents])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scanned = WorkspaceScanner.scan(
            WorkspaceWalker.files(under: root), configuration: configuration, filters: RuleFilterSet(configuration: configuration))
        func names(_ path: String) -> [String] {
            scanned.first { $0.file.relativePath == path }?.matches.map { match in
                configuration.rules[match.ruleIndex].name + "@" + String(match.utf8Column)
            } ?? []
        }
        // In code, `TODO` is not a comment-todo candidate, so `TO` (any-to) matches there instead of nothing.
        #expect(names("src/a.swift") == ["swift-only@0", "any-to@4", "strings@12", "comment-todo@18", "src-only@25"])
        #expect(names("src/gen/b.swift") == ["swift-only@0", "any-to@4", "strings@12", "comment-todo@18"])
        #expect(names("c.rs") == ["any-to@4", "strings@12", "comment-todo@18"])
    }

    /// The validator agrees with the standard library on random mixes of ASCII, valid and broken sequences.
    @Test func utf8ValidationAgreesWithTheStandardLibrary() {
        let pieces: [[UInt8]] = [
            Array("abcdefgh".utf8), Array("é".utf8), Array("中".utf8), Array("🔥".utf8), [0xC0, 0x80], [0xE0, 0x80, 0x80],
            [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF8], [0x80], [0xE2, 0x82], [0x41],
        ]
        var state: UInt64 = 0x5554_4638
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            state = state &* 6364136223846793005 &+ 1442695040888963407
            for _ in 0..<Int(state >> 60) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                bytes += pieces[Int(state >> 33) % pieces.count]
            }
            #expect(WorkspaceScanner.isValidUTF8(bytes) == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
        }
    }

    @Test func selectedRulesOnly() throws {
        let configuration = HighlightConfiguration.builtInOnly
        let root = try Self.tree(["a.txt": Self.text("TODO NOTE FIXME")])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let listed = configuration.applicability.map(\.list)
        let scanned = WorkspaceScanner.scan(
            WorkspaceWalker.files(under: root), configuration: configuration, filters: RuleFilterSet(configuration: configuration),
            options: ScanOptions(selectedRules: listed))
        #expect(scanned.first?.matches.map { configuration.rules[$0.ruleIndex].name } == ["todo", "fixme"])
    }
}
