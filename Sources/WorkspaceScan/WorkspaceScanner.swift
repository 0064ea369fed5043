import Dispatch
import Foundation
import HighlightConfig
import LanguageSyntax
import PatternEngine
import Synchronization

// Scanning files on disk with the same engine, configuration, filters and
// scopes as open documents. Files are read whole (up to a size limit), a NUL
// byte in the first 8 KiB marks a file as binary and skips it, and the search
// runs on all cores, one file per work item, taken from a shared counter so
// that a few large files do not leave a core idle.

/// One match found in a file on disk, with its line for display.
public struct ScannedMatch: Sendable, Hashable {
    /// The rule's index in the configuration.
    public var ruleIndex: Int
    /// UTF-8 byte offsets from the start of the file.
    public var utf8Range: Range<Int>
    /// The zero-based line of the match's start (lines end at `\n`, `\r\n` or `\r`).
    public var line: Int
    /// The zero-based byte column of the match's start in its line.
    public var utf8Column: Int
    /// The text of the line from its start, without its terminator, cut at `ScanOptions.maximumLineBytes`.
    public var lineText: String
    /// The matched text.
    public var text: String
    /// UTF-16 code unit offsets from the start of the file.
    public var utf16Range: Range<Int>
}

/// The outcome of scanning one file.
public struct ScannedFile: Sendable {
    /// Why a file was not searched.
    public enum Skipped: Error, Sendable, Hashable {
        case binary
        case tooLarge
        case unreadable
    }

    /// The file as walked.
    public var file: WalkedFile
    /// The language id guessed from the file name, if any (nil too when no rule depends on the language).
    public var languageID: String?
    /// The matches, sorted.
    public var matches: [ScannedMatch]
    /// Set when the file was not searched.
    public var skipped: Skipped?
    /// Whether the engine's match limit cut the matches short.
    public var truncated: Bool
}

/// How files are scanned.
public struct ScanOptions: Sendable {
    /// Larger files are skipped (default 8 MiB).
    public var maximumFileSize: Int
    /// `lineText` is cut after this many bytes (default 400).
    public var maximumLineBytes: Int
    /// The rules to report, by index; nil for all. Overlaps are resolved among these rules only.
    public var selectedRules: [Bool]?

    /// Creates options.
    public init(maximumFileSize: Int = 8 << 20, maximumLineBytes: Int = 400, selectedRules: [Bool]? = nil) {
        self.maximumFileSize = maximumFileSize
        self.maximumLineBytes = maximumLineBytes
        self.selectedRules = selectedRules
    }
}

/// Scans files on disk with a configuration's rules.
public enum WorkspaceScanner {
    /// The bytes examined for a NUL to call a file binary.
    public static let binaryCheckBytes = 8 << 10

    /// Scans `files` on all cores; `progress(done, total)` is called on the calling thread between batches.
    ///
    /// - Complexity: O(total bytes) spread over the cores.
    public static func scan(
        _ files: [WalkedFile], configuration: HighlightConfiguration, filters: RuleFilterSet, options: ScanOptions = ScanOptions(),
        progress: (Int, Int) -> Void = { _, _ in }
    ) -> [ScannedFile] {
        let results = Mutex<[ScannedFile?]>([ScannedFile?](repeating: nil, count: files.count))
        let batchSize = 256
        var start = 0
        while start < files.count {
            let end = min(files.count, start + batchSize)
            let next = Atomic<Int>(start)
            let workers = min(end - start, max(1, ProcessInfo.processInfo.activeProcessorCount))
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                let buffer = FileReadBuffer()
                while true {
                    let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard index < end else { return }
                    let scanned = scan(files[index], configuration: configuration, filters: filters, options: options, buffer: buffer)
                    results.withLock { $0[index] = scanned }
                }
            }
            start = end
            progress(start, files.count)
        }
        return results.withLock { $0.compactMap { $0 } }
    }

    /// Walks each of `roots` and scans its files on all cores while the walk goes on; the results
    /// are in walk order, root after root, as `WorkspaceWalker.files(under:)` lists them.
    ///
    /// The calling thread walks and hands files in small batches to a shared queue that one worker per core
    /// drains, so the walk's system calls overlap the reading and searching of files already found.
    /// `adjust` may rewrite an entry (its `relativePath`, for filters and display) before it is scanned.
    ///
    /// - Complexity: O(total bytes) spread over the cores, plus the walk.
    public static func scan(
        walking roots: [String], walkOptions: WorkspaceWalker.Options = WorkspaceWalker.Options(),
        configuration: HighlightConfiguration, filters: RuleFilterSet, options: ScanOptions = ScanOptions(),
        adjust: (WalkedFile) -> WalkedFile = { $0 }
    ) -> [ScannedFile] {
        let queue = ScanQueue()
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let group = DispatchGroup()
        for _ in 0..<workers {
            DispatchQueue.global().async(group: group) {
                let buffer = FileReadBuffer()
                while let (index, batch) = queue.take() {
                    let scanned = batch.map { scan($0, configuration: configuration, filters: filters, options: options, buffer: buffer) }
                    queue.store(scanned, at: index)
                }
            }
        }
        var batch: [WalkedFile] = []
        batch.reserveCapacity(ScanQueue.batchSize)
        for root in roots {
            WorkspaceWalker.walk(under: root, options: walkOptions) { file in
                batch.append(adjust(file))
                if batch.count == ScanQueue.batchSize {
                    queue.add(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        }
        queue.add(batch)
        queue.finish(workers: workers)
        group.wait()
        return queue.results()
    }

    /// Scans one file.
    public static func scan(
        _ file: WalkedFile, configuration: HighlightConfiguration, filters: RuleFilterSet, options: ScanOptions = ScanOptions()
    ) -> ScannedFile {
        scan(file, configuration: configuration, filters: filters, options: options, buffer: FileReadBuffer(capacity: file.size + 1))
    }

    /// Scans one file, read into `buffer`.
    static func scan(
        _ file: WalkedFile, configuration: HighlightConfiguration, filters: RuleFilterSet, options: ScanOptions,
        buffer: FileReadBuffer
    ) -> ScannedFile {
        let languageID = filters.dependsOnLanguage ? LanguageSyntax.languageID(forFileName: file.relativePath) : nil
        var result = ScannedFile(file: file, languageID: languageID, matches: [], skipped: nil, truncated: false)
        var filter = filters.filter(languageID: languageID ?? "", relativePath: file.relativePath)
        if let selected = options.selectedRules {
            filter = filter.restricted { selected.indices.contains($0) && selected[$0] }
        }
        if filter.isEmpty { return result }

        let count: Int
        switch buffer.read(file.path, limit: options.maximumFileSize) {
        case .success(let read): count = read
        case .failure(let reason):
            result.skipped = reason
            return result
        }
        buffer.withBytes(count: count) { bytes in
            if containsNUL(UnsafeBufferPointer(rebasing: bytes.prefix(binaryCheckBytes))) {
                result.skipped = .binary
                return
            }
            if isValidUTF8(bytes) {
                search(bytes, languageID: languageID, filter: filter, configuration: configuration, options: options, into: &result)
            } else {
                // Invalid UTF-8 is replaced (U+FFFD) exactly as an editor would show it.
                let text = Array(String(decoding: bytes, as: UTF8.self).utf8)
                text.withUnsafeBufferPointer {
                    search($0, languageID: languageID, filter: filter, configuration: configuration, options: options, into: &result)
                }
            }
        }
        return result
    }

    /// Searches valid UTF-8 `text` and stores the located matches in `result`.
    private static func search(
        _ text: UnsafeBufferPointer<UInt8>, languageID: String?, filter: RuleFilter, configuration: HighlightConfiguration,
        options: ScanOptions, into result: inout ScannedFile
    ) {
        // Scopes cost a scan of the comments and strings, so they are looked at only when a scoped rule
        // matched without them. Otherwise the result is the same: taking away candidates that never won
        // changes nothing in a leftmost-longest resolution.
        var list = configuration.ruleSet.matches(in: text, startingIn: 0..<text.count, accept: filter.acceptance(syntax: nil))
        if filter.needsSyntax, list.matches.contains(where: { filter.scopes[$0.ruleIndex] != .anywhere }),
           let syntax = languageID.flatMap(LanguageSyntax.forLanguageID) {
            let accept = filter.acceptance(syntax: SyntaxIndex(syntax: syntax, text: text))
            list = configuration.ruleSet.matches(in: text, startingIn: 0..<text.count, accept: accept)
        }
        result.truncated = list.truncated
        if !list.matches.isEmpty {
            result.matches = located(list.matches, in: text, maximumLineBytes: options.maximumLineBytes)
        }
    }

    /// Whether `bytes` hold a NUL byte.
    static func containsNUL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        return memchr(base, 0, bytes.count) != nil
    }

    /// Adds lines, columns and line texts to sorted matches, in one pass over the text up to the last match.
    static func located(_ matches: [Match], in text: [UInt8], maximumLineBytes: Int) -> [ScannedMatch] {
        text.withUnsafeBufferPointer { located(matches, in: $0, maximumLineBytes: maximumLineBytes) }
    }

    /// Adds lines, columns and line texts to sorted matches, in one pass over the text up to the last match.
    ///
    /// Runs of eight ASCII bytes without a line break are skipped a word at a time.
    static func located(_ matches: [Match], in text: UnsafeBufferPointer<UInt8>, maximumLineBytes: Int) -> [ScannedMatch] {
        guard let base = text.baseAddress else { return [] }
        var located: [ScannedMatch] = []
        located.reserveCapacity(matches.count)
        var line = 0
        var lineStart = 0
        var position = 0
        var utf16Offset = 0
        for match in matches {
            let start = min(max(match.utf8Range.lowerBound, 0), text.count)
            while position < start {
                if start - position >= 8 {
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                    if word & 0x8080_8080_8080_8080 == 0 {
                        // ASCII: skip to the first line break, if any (little-endian: the lowest flagged byte is first).
                        let breaks = bytesEqual(word, 0x0A) | bytesEqual(word, 0x0D)
                        let skipped = breaks == 0 ? 8 : breaks.trailingZeroBitCount / 8
                        position += skipped
                        utf16Offset += skipped
                        if skipped > 0 { continue }
                    }
                }
                let byte = text[position]
                position += 1
                utf16Offset += utf16Units(leadByte: byte)
                if byte == 0x0A || (byte == 0x0D && (position >= text.count || text[position] != 0x0A)) {
                    line += 1
                    lineStart = position
                }
            }
            var lineEnd = start
            let cut = min(text.count, lineStart + maximumLineBytes)
            while lineEnd < cut, text[lineEnd] != 0x0A, text[lineEnd] != 0x0D { lineEnd += 1 }
            let lineText = String(decoding: text[lineStart..<max(lineStart, min(lineEnd, cut))], as: UTF8.self)
            let matched = UnsafeBufferPointer(rebasing: text[match.utf8Range.clamped(to: 0..<text.count)])
            let utf16Length = matched.reduce(0) { $0 + utf16Units(leadByte: $1) }
            located.append(ScannedMatch(
                ruleIndex: match.ruleIndex, utf8Range: match.utf8Range, line: line, utf8Column: start - lineStart,
                lineText: lineText, text: String(decoding: matched, as: UTF8.self),
                utf16Range: utf16Offset..<(utf16Offset + utf16Length)))
        }
        return located
    }

    /// The high bit of each byte of `word` that equals `byte`, exact up to the lowest such byte
    /// (bytes above it may be flagged falsely); zero when no byte equals `byte`.
    @inline(__always)
    static func bytesEqual(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
    }

    /// Whether `bytes` are valid UTF-8.
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { isValidUTF8($0) }
    }

    /// Whether `bytes` are valid UTF-8, eight ASCII bytes at a time, without allocating.
    static func isValidUTF8(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        let count = buffer.count
        var index = 0
        while index < count {
            // Long ASCII runs, thirty-two bytes at a time.
            while count - index >= 32 {
                let raw = UnsafeRawPointer(base + index)
                let any = raw.loadUnaligned(as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                    | raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                guard any & 0x8080_8080_8080_8080 == 0 else { break }
                index += 32
            }
            if index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                    continue
                }
            }
            let lead = buffer[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            let lowest: UInt32
            switch lead {
            case 0xC2...0xDF: length = 2; lowest = 0x80
            case 0xE0...0xEF: length = 3; lowest = 0x800
            case 0xF0...0xF4: length = 4; lowest = 0x10000
            default: return false
            }
            guard index + length <= count else { return false }
            var scalar = UInt32(lead) & (0xFF >> (length + 1))
            for offset in 1..<length {
                let byte = buffer[index + offset]
                guard byte & 0xC0 == 0x80 else { return false }
                scalar = scalar << 6 | UInt32(byte & 0x3F)
            }
            // Overlong forms, surrogates and values past U+10FFFF are invalid.
            guard scalar >= lowest, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return false }
            index += length
        }
        return true
    }

    /// The UTF-16 code units a byte of valid UTF-8 accounts for: one per scalar (two for four-byte ones), none for continuation bytes.
    @inline(__always)
    static func utf16Units(leadByte byte: UInt8) -> Int {
        if byte < 0x80 || (byte >= 0xC0 && byte < 0xF0) { return 1 }
        return byte >= 0xF0 ? 2 : 0
    }
}
