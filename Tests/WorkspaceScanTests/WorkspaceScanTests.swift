import CPUFeatures
import Foundation
import HighlightConfig
import PatternEngine
import Testing
import Seeded
import TextIndex
import UTF8Decoding
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

    /// A configuration of `rules` (JSON objects, comma-separated) without the built-in ones.
    static func configuration(_ rules: String) -> HighlightConfiguration {
        let (layer, diagnostics) = ConfigLayer.parse(fileContents: text("{ \"defaults\": false, \"rules\": [ " + rules + " ] }"), source: "test")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        return HighlightConfiguration(layers: [layer].compactMap { $0 })
    }

    /// Rules a text may be searched in chunks with: words, and regexes whose assertions look at a chunk's edges
    /// (`^` without multi-line mode and `\A` must not match at a chunk's start; `\b`, `$`, `\z`).
    static var splittable: HighlightConfiguration {
        configuration(#"""
            { "name": "w", "words": ["ab", "TODO", "日本"] }, { "name": "start", "regex": "(?-m)^#\\w+|\\Aab|\\A[ \\t]" },
            { "name": "line", "regex": "(?m)^[ \\t]*x" }, { "name": "word", "regex": "\\bx\\b" }, { "name": "emoji", "words": ["🔥"] },
            { "name": "end", "regex": "(?m)x$|ab\\z" }
            """#)
    }

    /// A rule whose match may hold a line feed: never searched in chunks.
    static var spanning: HighlightConfiguration { configuration(#"{ "name": "s", "regex": "ab\\s+TODO" }"#) }

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
        let scanned = WorkspaceScanner.scan(files, configuration: configuration, options: ScanOptions(maximumFileSize: 50, maximumExcerptBytes: 6))
        #expect(scanned.map(\.file.path) == files.map(\.path))
        let byName = Dictionary(uniqueKeysWithValues: scanned.map { ($0.file.relativePath, $0) })
        #expect(byName["binary.dat"]?.outcome == .skipped(.binary))
        #expect(byName["big.txt"]?.outcome == .skipped(.tooLarge))
        let matches = byName["a.txt"]?.matches ?? []
        #expect(matches.map(\.start.line) == [1, 2])
        #expect(matches.map(\.start.utf8Column) == [2, 0])
        #expect(matches.map(\.end.utf16Column) == [6, 4])
        // Excerpts run from the match to the line's end, cut at the limit.
        #expect(matches.map(\.excerpt) == ["TODO o", "TODO t"])
        // The invalid byte became U+FFFD (three bytes), as an editor shows it.
        #expect(byName["bad.txt"]?.matches.first?.utf8Range == 4..<8)
    }

    @Test func finishRunsOnceAFileOnTheWorkersAndDeliversInWalkOrder() throws {
        // Files of many matches (handed back alone) between small ones, so that results come back out of batch order.
        var files: [String: [UInt8]] = [:]
        for index in 0..<40 {
            let lines = index % 7 == 3 ? matchesHandedBackAlone + 5 : index
            files[String(format: "f%02d.txt", index)] = Self.text(String(repeating: "x TODO\n", count: lines))
        }
        let root = try Self.tree(files)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let whole = WorkspaceScanner.scan(walking: [root], configuration: .builtInOnly)
        let callingThread = pthread_self()
        var delivered: [(path: String, count: Int, onCallingThread: Bool)] = []
        WorkspaceScanner.scan(
            walking: [root], prepare: { ScanItem(file: $0, configuration: .builtInOnly, maximumFileSize: 1 << 30) },
            finish: { scanned, item in
                (item.file.path, scanned.matches.count, pthread_equal(pthread_self(), callingThread) != 0)
            },
            deliver: { delivered.append($0) })
        #expect(delivered.map(\.path) == whole.map(\.file.path))
        #expect(delivered.map(\.count) == whole.map(\.matches.count))
        #expect(delivered.count == 40 && delivered.contains { $0.count > matchesHandedBackAlone })
        #expect(!delivered.contains { $0.onCallingThread }, "the workers finish their files")
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
            WorkspaceWalker.files(under: root), configuration: configuration)
        func names(_ path: String) -> [String] {
            scanned.first { $0.file.relativePath == path }?.matches.map { match in
                configuration.rules[match.ruleIndex].name + "@" + String(match.start.utf8Column)
            } ?? []
        }
        // In code, `TODO` is not a comment-todo candidate, so `TO` (any-to) matches there instead of nothing.
        #expect(names("src/a.swift") == ["swift-only@0", "any-to@4", "strings@12", "comment-todo@18", "src-only@25"])
        #expect(names("src/gen/b.swift") == ["swift-only@0", "any-to@4", "strings@12", "comment-todo@18"])
        #expect(names("c.rs") == ["any-to@4", "strings@12", "comment-todo@18"])
    }

    /// A text searched in chunks on all cores gives what one search gives: matches, lines, columns and offsets in every
    /// unit, with CRLF and lone CR line ends, non-ASCII text, `^` without multi-line mode and `\A` (which must not
    /// match at a chunk's start) and `\b` at chunk edges; invalid UTF-8 goes the single way; and rules that may hold a line feed,
    /// or are scoped, are never searched in chunks.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func chunksGiveWhatOneSearchGives(seed: UInt64) throws {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let words = ["ab", "TODO", "é", "日本", "🔥x", "x", " ", " ", "\n", "\r\n", "\r", "#tag", "\t"]
        let splittable = Self.splittable
        let spanning = Self.spanning
        let scoped = Self.configuration(#"{ "name": "c", "words": ["TODO"], "scope": "comments" }"#)
        let file = WalkedFile(path: "/nonexistent/a.txt", relativePath: "a.txt", size: 0, modificationTime: 0)
        let options = ScanOptions(maximumExcerptBytes: 5)
        for round in 0..<12 {
            var text = ""
            for _ in 0..<(200 + next(3000)) { text += words[next(words.count)] }
            var bytes = Array(text.utf8)
            if round == 11 { bytes.insert(0xFF, at: bytes.count / 2) }
            for (name, configuration, splits) in [("splittable", splittable, round != 11), ("spanning", spanning, false), ("scoped", scoped, false)] {
                let origin = TextOrigin(relativePath: "a.txt", languageID: "python")
                let filter = configuration.ruleFilter(for: origin, selecting: .all)
                var whole = ScannedFile(searched: file, languageID: nil)
                var chunks = whole
                let chunkBytes = 16 + next(200)
                let didSplit = bytes.withUnsafeBufferPointer { buffer in
                    WorkspaceScanner.search(buffer, origin: origin, filter: filter, configuration: configuration, options: options, into: &whole)
                    return WorkspaceScanner.searchInChunks(
                        buffer, origin: origin, filter: filter, configuration: configuration, options: options, into: &chunks,
                        minimumBytes: 0, chunkBytes: chunkBytes)
                }
                #expect(didSplit == splits, "seed \(seed) round \(round) \(name)")
                guard didSplit else { continue }
                #expect(whole.matches.count > 10)
                #expect(chunks.matches == whole.matches, "seed \(seed) round \(round) \(name), chunks of \(chunkBytes) bytes")
                #expect(chunks.truncated == whole.truncated)
            }
        }
    }

    /// A file streamed through a small window gives what one search of the whole file gives: matches, lines, columns,
    /// offsets and excerpts, with lines longer than the window (which grows for them), CRLF and lone CR line ends,
    /// `^` without multi-line mode and `\A` (which must not match at a chunk's start), `\b` at chunk edges, with and
    /// without a final line feed; a file that is not valid UTF-8 is searched whole instead, with its bytes replaced;
    /// a file with a NUL in its first bytes is binary either way; rules that may hold a line feed are never streamed.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func streamingGivesWhatOneSearchGives(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let words = ["ab", "TODO", "é", "日本", "🔥x", "x", " ", " ", "\n", "\n", "\r\n", "\r", "#tag", "\t",
                     String(repeating: "long", count: 40)]
        let splittable = Self.splittable
        let spanning = Self.spanning
        var files: [String: [UInt8]] = [:]
        for round in 0..<10 {
            var text = ""
            for _ in 0..<(2_000 + generator.next(below: 4_000)) { text += words[generator.next(below: words.count)] }
            var bytes = Array(text.utf8)
            if round == 8 { bytes.insert(0xFF, at: bytes.count / 2) }
            if round == 9 { bytes.insert(0, at: 10) }
            if round % 2 == 0, bytes.last != 0x0A { bytes.append(0x0A) }
            files["\(round).txt"] = bytes
        }
        let root = try Self.tree(files)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let options = ScanOptions(maximumExcerptBytes: 5)
        for round in 0..<10 {
            let file = WalkedFile(path: root + "/\(round).txt", relativePath: "\(round).txt", size: 0, modificationTime: 0)
            for (name, configuration) in [("splittable", splittable), ("spanning", spanning)] {
                let origin = WorkspaceScanner.origin(of: file, in: configuration)
                let filter = configuration.ruleFilter(for: origin, selecting: .all)
                let whole = WorkspaceScanner.scan(
                    file, origin: origin, filter: filter, configuration: configuration, options: options, buffer: FileReadBuffer())
                let window = 8 + generator.next(below: 200)
                let buffer = FileReadBuffer(capacity: 16, streamingWindow: window)
                let streamed = WorkspaceScanner.scan(
                    file, origin: origin, filter: filter, configuration: configuration, options: options, buffer: buffer, streams: true)
                let context = "seed \(seed) round \(round) \(name), window \(window)"
                let differ = zip(streamed.matches, whole.matches).enumerated().first { $1.0 != $1.1 }?.offset
                #expect(differ == nil && streamed.matches.count == whole.matches.count,
                        "\(context): \(streamed.matches.count) against \(whole.matches.count) matches, first differing \(differ.map { "\(streamed.matches[$0]) against \(whole.matches[$0])" } ?? "none")")
                #expect(streamed.truncated == whole.truncated && streamed.outcome == whole.outcome, "\(context)")
                if round == 9 {
                    #expect(whole.outcome == .skipped(.binary), "\(context)")
                    continue
                }
                if name == "splittable" { #expect(whole.matches.count > 100, "\(context)") }
                // Streamed, the buffer holds a few lines; read whole, the file.
                let size = files["\(round).txt"]?.count ?? 0
                #expect((buffer.capacity < size) == (name == "splittable" && round < 8), "\(context): \(buffer.capacity) of \(size) bytes")
            }
        }
    }

    /// The validator agrees with the standard library on random mixes of ASCII, valid and broken sequences.
    @Test func utf8ValidationAgreesWithTheStandardLibrary() {
        let chunks: [[UInt8]] = [
            Array("abcdefgh".utf8), Array("é".utf8), Array("中".utf8), Array("🔥".utf8), [0xC0, 0x80], [0xE0, 0x80, 0x80],
            [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF8], [0x80], [0xE2, 0x82], [0x41],
        ]
        var state: UInt64 = 0x5554_4638
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            state = state &* 6364136223846793005 &+ 1442695040888963407
            for _ in 0..<Int(state >> 60) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                bytes += chunks[Int(state >> 33) % chunks.count]
            }
            #expect(UTF8Decoding.isValid(bytes) == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
        }
        // Regression: ASCII whose length is a multiple of 32 ends exactly where the wide loop stops.
        for count in [0, 8, 31, 32, 64, 96] {
            #expect(UTF8Decoding.isValid([UInt8](repeating: 0x41, count: count)), "\(count) ASCII bytes")
        }
    }

    /// Texts long enough for the sixteen- and thirty-two-byte checks and the ASCII runs, valid but for at most one
    /// defect (bytes at the edges of the ranges UTF-8 allows, put anywhere, also inside a character), against the
    /// standard library, with the AVX-512 loop, the AVX2 loop (each where the CPU has it) and without.
    @Test(arguments: UInt64(1)...4, VectorWidth.allCases)
    func utf8ValidationOfLongTextsAgreesWithTheStandardLibrary(seed: UInt64, loop: VectorWidth) {
        let characters = ["a", "let x = 1 ", "é", "中", "🔥", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFF}",
                          "\u{10000}", "\u{10FFFF}", String(repeating: " ", count: 130)].map { Array($0.utf8) }
        let edges: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
                              0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]
        var random = SplitMix64(seed: seed)
        var invalid = 0
        for round in 0..<3_000 {
            var bytes: [UInt8] = []
            let length = 17 + random.next(below: round % 2 == 0 ? 100 : 400)
            while bytes.count < length { bytes += characters[random.next(below: characters.count)] }
            if round % 4 != 0 {
                let defect = (0...random.next(below: 4)).map { _ in edges[random.next(below: edges.count)] }
                bytes.insert(contentsOf: defect, at: random.next(below: bytes.count + 1))
            }
            let expected = String(validating: bytes, as: UTF8.self) != nil
            if !expected { invalid += 1 }
            #expect(UTF8Decoding.isValid(bytes, widest: loop) == expected, "\(bytes)")
        }
        #expect(invalid > 1_000)
    }

    /// A chunk's check (`checkChunk`) tells valid from invalid as the standard library does, and where it counts the
    /// chunk's lines in the same pass (AVX2 or AVX-512, no `\r`), its end is where walking the whole chunk ends, each landmark is
    /// where the walk stands at its offset, and locating offsets from the landmarks gives what the walk gives.
    @Test(arguments: UInt64(1)...4, VectorWidth.allCases)
    func chunkCheckFindsTheEndTheWalkFinds(seed: UInt64, loop: VectorWidth) {
        let characters = ["a", "let x = 1 ", "é", "中", "🔥", "\u{7FF}", "\u{800}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}",
                          "\n", "\n\n", " x\n", String(repeating: " ", count: 130), "\r\n", "\r"].map { Array($0.utf8) }
        let edges: [UInt8] = [0x0A, 0x0D, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]
        var random = SplitMix64(seed: seed)
        var measured = 0
        var landmarks = 0
        var invalid = 0
        for round in 0..<3_000 {
            var bytes: [UInt8] = []
            // Some long enough for the line feeds of many ASCII steps to be summed more than once.
            let length = 1 + random.next(below: round % 20 == 0 ? 40_000 : round % 2 == 0 ? 100 : 600)
            // A quarter without `\r` (the pass finds their end), the rest with any line break.
            let choices = round % 4 == 0 ? characters.count - 2 : characters.count
            while bytes.count < length { bytes += characters[random.next(below: choices)] }
            if round % 3 == 0 {
                let defect = (0...random.next(below: 3)).map { _ in edges[random.next(below: edges.count)] }
                bytes.insert(contentsOf: defect, at: random.next(below: bytes.count + 1))
            }
            let valid = String(validating: bytes, as: UTF8.self) != nil
            let check = bytes.withUnsafeBufferPointer { WorkspaceScanner.checkChunk($0, widest: loop) }
            guard case .valid(let measure) = check else {
                #expect(!valid, "\(bytes)")
                invalid += 1
                continue
            }
            #expect(valid, "\(bytes)")
            let walked = bytes.withUnsafeBufferPointer { TextPoint.points(ofUTF8Offsets: [$0.count], in: $0) }.last
            if let measure {
                #expect(measure.end == walked, "\(bytes)")
                measured += 1
                landmarks += measure.landmarks.count
                let offsets = (0..<20).map { _ in random.next(below: bytes.count + 1) }.sorted()
                let (points, marks) = bytes.withUnsafeBufferPointer { text in
                    (TextPoint.points(ofUTF8Offsets: offsets, in: text),
                     TextPoint.points(ofUTF8Offsets: measure.landmarks.map(\.utf8Offset), in: text))
                }
                #expect(zip(measure.landmarks, marks).allSatisfy {
                    $0 == TextPoint.Landmark(utf8Offset: $1.utf8Offset, line: $1.line, utf16Offset: $1.utf16Offset, utf32Offset: $1.utf32Offset)
                }, "\(bytes)")
                let resumed = bytes.withUnsafeBufferPointer {
                    TextPoint.points(ofUTF8Offsets: offsets, in: $0, landmarks: measure.landmarks)
                }
                #expect(resumed == points, "\(offsets) in \(bytes)")
            } else if loop >= .avx2, VectorUnit.hasAVX2, bytes.count >= 64 {
                #expect(bytes.contains(0x0D), "the pass leaves only texts with a \\r to the walk: \(bytes)")
            }
        }
        #expect(invalid > 300)
        if loop >= .avx2, VectorUnit.hasAVX2 {
            #expect(measured > 300)
            #expect(landmarks > 100)
        } else {
            #expect(measured == 0)
        }
        // Every byte a line feed: each lane of each ASCII step counts four, the most the sum between flushes allows.
        for text in [[UInt8](repeating: 0x0A, count: 70_000), Array(String(repeating: "é\n", count: 9_000).utf8)] {
            let check = text.withUnsafeBufferPointer { WorkspaceScanner.checkChunk($0, widest: loop) }
            let walked = text.withUnsafeBufferPointer { TextPoint.points(ofUTF8Offsets: [$0.count], in: $0) }.last
            if case .valid(let measure) = check {
                #expect(measure?.end == (loop >= .avx2 && VectorUnit.hasAVX2 ? walked : nil))
            } else {
                Issue.record("a valid text was found invalid")
            }
        }
    }

    /// Locating from landmarks where lines are longer than the walk a landmark saves, or than a segment, gives what
    /// the walk gives.
    @Test func landmarksAmongLongLines() {
        var random = SplitMix64(seed: 7)
        for lineBytes in [100, 3_000, 9_000, 30_000] {
            var bytes: [UInt8] = []
            while bytes.count < 100_000 {
                bytes += Array(String(repeating: "é 🔥 x ", count: lineBytes / 10).utf8) + [0x0A]
            }
            guard case .valid(let measure?) = bytes.withUnsafeBufferPointer({ WorkspaceScanner.checkChunk($0) }) else {
                #expect(!VectorUnit.hasAVX2, "a valid text was not measured")
                continue
            }
            #expect(measure.landmarks.count > 10)
            let offsets = (0..<200).map { _ in random.next(below: bytes.count + 1) }.sorted()
            bytes.withUnsafeBufferPointer { text in
                #expect(TextPoint.points(ofUTF8Offsets: offsets, in: text, landmarks: measure.landmarks)
                    == TextPoint.points(ofUTF8Offsets: offsets, in: text), "lines of \(lineBytes) bytes")
            }
        }
    }

    @Test func selectedRulesOnly() throws {
        let configuration = HighlightConfiguration.builtInOnly
        let root = try Self.tree(["a.txt": Self.text("TODO NOTE FIXME")])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scanned = WorkspaceScanner.scan(
            WorkspaceWalker.files(under: root), configuration: configuration, options: ScanOptions(selection: .listed))
        #expect(scanned.first?.matches.map { configuration.rules[$0.ruleIndex].name } == ["todo", "fixme"])
    }
}

// MARK: - Reading, the streaming scan and locating matches

extension WorkspaceScanTests {
    /// One buffer reads files larger than itself, then smaller ones, and each read shows that file's bytes only.
    @Test func readBufferGrowsAndIsReused() throws {
        let large = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let root = try Self.tree(["large.bin": large, "small.txt": Self.text("small"), "empty.txt": []])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let buffer = FileReadBuffer(capacity: 16)
        for (name, expected) in [("small.txt", Self.text("small")), ("large.bin", large), ("small.txt", Self.text("small")), ("empty.txt", [])] {
            let count = try buffer.read(root + "/" + name, limit: 1 << 20).get()
            #expect(buffer.withBytes(count: count) { Array($0) } == expected, "\(name)")
        }
        #expect(buffer.capacity >= large.count)
        #expect(throws: ScannedFile.Skipped.tooLarge) { try buffer.read(root + "/large.bin", limit: 99_999).get() }
        #expect(throws: ScannedFile.Skipped.unreadable(reason: "no such file or directory")) { try buffer.read(root + "/missing.txt", limit: 1 << 20).get() }
    }

    /// With a binary check, a NUL in the first bytes gives `.binary` without the rest being read (the
    /// buffer does not grow to the file), one just past them does not, and text files read whole,
    /// copied or mapped, with their first bytes kept when the buffer grows.
    @Test func binaryFilesStopAfterTheirFirstBytes() throws {
        let check = WorkspaceScanner.binaryCheckBytes
        let size = FileReadBuffer.mappingThreshold + 1_000
        var early = [UInt8](repeating: UInt8(ascii: "a"), count: size)
        early[check - 1] = 0
        var late = [UInt8](repeating: UInt8(ascii: "b"), count: 3 * check)
        late[check] = 0
        let text = (0..<size).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        let root = try Self.tree(["early.bin": early, "late.bin": late, "text.txt": text, "tiny.bin": [0x41, 0, 0x42]])
        defer { try? FileManager.default.removeItem(atPath: root) }
        for mapping in [false, true] {
            let buffer = FileReadBuffer(capacity: 16)
            #expect(throws: ScannedFile.Skipped.binary) {
                try buffer.read(root + "/early.bin", limit: 1 << 30, mapsLargeFiles: mapping, binaryCheckBytes: check).get()
            }
            #expect(buffer.capacity < size, "a binary file is not read past its first bytes")
            #expect(throws: ScannedFile.Skipped.binary) {
                try buffer.read(root + "/tiny.bin", limit: 1 << 30, mapsLargeFiles: mapping, binaryCheckBytes: check).get()
            }
            let lateCount = try buffer.read(root + "/late.bin", limit: 1 << 30, mapsLargeFiles: mapping, binaryCheckBytes: check).get()
            #expect(buffer.withBytes(count: lateCount) { Array($0) } == late)
            let textCount = try buffer.read(root + "/text.txt", limit: 1 << 30, mapsLargeFiles: mapping, binaryCheckBytes: check).get()
            #expect(buffer.withBytes(count: textCount) { Array($0) } == text, "mapped: \(mapping)")
        }
    }

    /// With mapping allowed, a file of a megabyte or more is mapped and shows its bytes; the next read
    /// (copied or mapped) shows that file's bytes only, and the limit still applies.
    @Test func largeFilesAreMappedWhenAllowed() throws {
        let size = FileReadBuffer.mappingThreshold + 4_097
        let large = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }
        let root = try Self.tree(["large.bin": large, "small.txt": Self.text("small")])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let buffer = FileReadBuffer(capacity: 16)
        for name in ["large.bin", "small.txt", "large.bin", "large.bin", "small.txt"] {
            let expected = name == "small.txt" ? Self.text("small") : large
            let count = try buffer.read(root + "/" + name, limit: 1 << 30, mapsLargeFiles: true).get()
            #expect(buffer.withBytes(count: count) { Array($0) } == expected, "\(name)")
        }
        // Mapped files are never copied into the buffer, which stays small.
        #expect(buffer.capacity < size)
        #expect(throws: ScannedFile.Skipped.tooLarge) { try buffer.read(root + "/large.bin", limit: size - 1, mapsLargeFiles: true).get() }
        // The scan finds the same matches in a mapped file as in a copied one.
        var text = Array(repeating: UInt8(ascii: "x"), count: FileReadBuffer.mappingThreshold)
        text += Self.text("\n  TODO é FIXME\n")
        let scanRoot = try Self.tree(["big.txt": text])
        defer { try? FileManager.default.removeItem(atPath: scanRoot) }
        let files = WorkspaceWalker.files(under: scanRoot)
        let copied = WorkspaceScanner.scan(files, configuration: .builtInOnly, options: ScanOptions())
        let mapped = WorkspaceScanner.scan(files, configuration: .builtInOnly, options: ScanOptions(mapsLargeFiles: true))
        #expect(mapped.first?.matches.map(\.text) == ["TODO", "FIXME"])
        #expect(mapped.first?.matches == copied.first?.matches)
    }

    /// A file that grew, shrank or vanished between the walk and the scan is scanned as it is when read.
    @Test func filesChangedAfterTheWalkAreScannedAsTheyAreRead() throws {
        let root = try Self.tree([
            "grew.txt": Self.text("x\n"), "shrank.txt": Self.text("TODO one\nTODO two\n"), "gone.txt": Self.text("TODO"),
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = WorkspaceWalker.files(under: root)
        try Data(Self.text("x\nTODO later\n")).write(to: URL(fileURLWithPath: root + "/grew.txt"))
        try Data(Self.text("TODO one\n")).write(to: URL(fileURLWithPath: root + "/shrank.txt"))
        try FileManager.default.removeItem(atPath: root + "/gone.txt")
        let configuration = HighlightConfiguration.builtInOnly
        let scanned = WorkspaceScanner.scan(files, configuration: configuration, options: ScanOptions(maximumExcerptBytes: 400))
        let byName = Dictionary(uniqueKeysWithValues: scanned.map { ($0.file.relativePath, $0) })
        #expect(byName["grew.txt"]?.matches.map(\.excerpt) == ["TODO later"])
        #expect(byName["shrank.txt"]?.matches.map(\.excerpt) == ["TODO one"])
        #expect(byName["gone.txt"].map { if case .skipped(.unreadable) = $0.outcome { true } else { false } } == true)
    }

    /// Walking and scanning at once gives what walking, then scanning gives, in the same order, several roots included.
    @Test func streamingScanEqualsWalkThenScan() throws {
        var contents: [String: [UInt8]] = [".gitignore": Self.text("ignored/\n"), "ignored/a.txt": Self.text("TODO")]
        for index in 0..<700 {
            let directory = "d\(index % 7)/e\(index % 3)"
            let body = index % 5 == 0 ? "// TODO \(index)\nNOTE é FIXME\r\n" : index % 11 == 0 ? "TODO\u{0}" : "nothing \(index)\n"
            contents["\(directory)/f\(index).txt"] = Self.text(body)
        }
        let root = try Self.tree(contents)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let configuration = HighlightConfiguration.builtInOnly
        let roots = [root + "/d1", root, root + "/d2/e0/f2.txt", root + "/missing"]
        let expected = roots.flatMap { WorkspaceWalker.files(under: $0) }
        let separate = WorkspaceScanner.scan(expected, configuration: configuration)
        let streamed = WorkspaceScanner.scan(walking: roots, configuration: configuration) { file in
            var file = file
            file.relativePath = "x/" + file.relativePath
            return file
        }
        #expect(streamed.map(\.file.path) == expected.map(\.path))
        #expect(streamed.allSatisfy { $0.file.relativePath.hasPrefix("x/") })
        #expect(streamed.map(\.matches) == separate.map(\.matches))
        #expect(streamed.map(\.outcome) == separate.map(\.outcome))
        #expect(separate.contains { $0.outcome == .skipped(.binary) })
        #expect(separate.contains { !$0.matches.isEmpty })
    }

    /// A walk that takes types from the listing lists what one that looks up every entry lists: links, FIFOs and
    /// ignored entries left out alike; a file over the size limit still reports its size, learnt from the read.
    @Test func walkingWithoutFileStatusListsTheSameFiles() throws {
        let root = try Self.tree([
            ".gitignore": Self.text("*.log\nskipped/\n"), "a.swift": Self.text("// TODO a"), "debug.log": [],
            "sub/b.txt": Self.text("FIXME"), "sub/deeper/c.txt": [], "skipped/d.txt": [], ".hidden/e.txt": [],
            "big.txt": [UInt8](repeating: 0x41, count: 5000),
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        try #require(symlink(root + "/a.swift", root + "/link-to-file.swift") == 0)
        try #require(symlink(root + "/sub", root + "/link-to-folder") == 0)
        try #require(mkfifo(root + "/sub/pipe.txt", 0o644) == 0)
        for options in [WorkspaceWalker.Options(), .init(respectsIgnoreFiles: false, includesHidden: true)] {
            var unsized = options
            unsized.readsFileStatus = false
            let looked = WorkspaceWalker.files(under: root, options: options)
            let listed = WorkspaceWalker.files(under: root, options: unsized)
            #expect(listed.map(\.path) == looked.map(\.path))
            #expect(listed.map(\.relativePath) == looked.map(\.relativePath))
            #expect(looked.contains { $0.size > 0 })
            #expect(listed.allSatisfy { $0.size == 0 && $0.modificationTime == 0 })
        }
        #expect(WorkspaceWalker.files(under: root).map(\.relativePath) == ["a.swift", "big.txt", "sub/b.txt", "sub/deeper/c.txt"])
        let scanned = WorkspaceScanner.scan(
            walking: [root], walkOptions: .init(readsFileStatus: false), configuration: .builtInOnly,
            options: ScanOptions(maximumFileSize: 4096))
        let big = scanned.first { $0.file.relativePath == "big.txt" }
        #expect(big?.outcome == .skipped(.tooLarge))
        #expect(big?.file.size == 5000)
        #expect(scanned.first { $0.file.relativePath == "a.swift" }?.matches.count == 1)
    }

    @Test func nulCheck() {
        for (bytes, expected) in [([UInt8](), false), (Self.text("abc"), false), ([0x41, 0x00], true), ([0x00], true)] {
            #expect(bytes.withUnsafeBufferPointer { WorkspaceScanner.containsNUL($0) } == expected, "\(bytes)")
        }
    }
}

/// A list of files goes through the same scheduler as a walk: results in the items' order, each
/// with its own configuration, and nothing more searched once asked to stop.
@Suite struct ItemScanTests {
    @Test func itemsAreScannedInOrderEachWithItsConfiguration() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("highlight-ls-items-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        for index in 0..<100 { try Data("ONE TWO \(index)\n".utf8).write(to: URL(fileURLWithPath: root + "/f\(index).txt")) }
        let files = WorkspaceWalker.files(under: root).sorted { $0.path < $1.path }
        let one = HighlightConfiguration(layers: [ConfigLayer(rules: [RuleDefinition(name: "one", pattern: .words(["ONE"]))])])
        let two = HighlightConfiguration(layers: [ConfigLayer(rules: [RuleDefinition(name: "two", pattern: .words(["TWO"]))])])
        let items = files.enumerated().map { index, file in
            ScanItem(file: file, configuration: index % 2 == 0 ? one : two, maximumFileSize: .max)
        }
        var delivered: [(path: String, text: String)] = []
        WorkspaceScanner.scan(items, finish: { scanned, _ in scanned }) { scanned in
            delivered.append((scanned.file.path, scanned.matches.first(where: { $0.text != "TODO" })?.text ?? ""))
        }
        #expect(delivered.map(\.path) == files.map(\.path))
        #expect(delivered.enumerated().allSatisfy { index, result in result.text == (index % 2 == 0 ? "ONE" : "TWO") })

        var none: [String] = []
        WorkspaceScanner.scan(items, shouldStop: { true }, finish: { scanned, _ in scanned.file.path }) { none.append($0) }
        #expect(none.isEmpty)
    }
}
