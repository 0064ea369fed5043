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
    public var matches: [LocatedMatch]
    /// Set when the file was not searched.
    public var skipped: Skipped?
    /// Whether the engine's match limit cut the matches short.
    public var truncated: Bool
    /// Why the file could not be read ("permission denied"), when `skipped` is `.unreadable`.
    public var unreadableReason: String? = nil
}

extension ScannedFile {
    /// A file (or folder) that could not be read, and why ("permission denied"), for reports.
    public init(unreadable file: WalkedFile, reason: String) {
        self.init(file: file, languageID: nil, matches: [], skipped: .unreadable, truncated: false, unreadableReason: reason)
    }
}

/// How files are scanned.
public struct ScanOptions: Sendable {
    /// Larger files are skipped (default 8 MiB).
    public var maximumFileSize: Int
    /// Each match's `excerpt` is cut after this many bytes (default 0: no excerpts).
    public var maximumExcerptBytes: Int
    /// The rules to report. Overlaps are resolved among these rules only.
    public var selection: RuleSelection
    /// Whether files of a megabyte or more are mapped rather than copied (default false): faster, but
    /// a file truncated during its search kills the process (SIGBUS), so only the command line sets it.
    public var mapsLargeFiles: Bool

    /// Creates options.
    public init(maximumFileSize: Int = 8 << 20, maximumExcerptBytes: Int = 0, selection: RuleSelection = .all, mapsLargeFiles: Bool = false) {
        self.maximumFileSize = maximumFileSize
        self.maximumExcerptBytes = maximumExcerptBytes
        self.selection = selection
        self.mapsLargeFiles = mapsLargeFiles
    }
}

/// A configuration shared by many scanned files without copying it: a copy of the struct
/// retains each of its arrays, which per file was a measurable part of a walk's time.
public final class SharedConfiguration: Sendable {
    /// The configuration.
    public let configuration: HighlightConfiguration
    /// Whether some rule has `files` globs, so that a text's path decides which rules apply.
    let hasFileGlobs: Bool

    /// Shares `configuration`.
    public init(_ configuration: HighlightConfiguration) {
        self.configuration = configuration
        hasFileGlobs = configuration.applicability.contains { $0.files != nil }
    }
}

/// A file to scan, with the configuration that governs it and its size limit.
public struct ScanItem: Sendable {
    /// The file as walked (its `relativePath` is what `files` globs match).
    public var file: WalkedFile
    /// The configuration whose rules search the file.
    public var shared: SharedConfiguration
    /// A larger file is skipped (`Int.max` for a file the user named).
    public var maximumFileSize: Int

    /// The configuration whose rules search the file.
    public var configuration: HighlightConfiguration { shared.configuration }

    /// Creates an item with a configuration of its own.
    public init(file: WalkedFile, configuration: HighlightConfiguration, maximumFileSize: Int) {
        self.init(file: file, shared: SharedConfiguration(configuration), maximumFileSize: maximumFileSize)
    }

    /// Creates an item whose configuration is shared with other items.
    public init(file: WalkedFile, shared: SharedConfiguration, maximumFileSize: Int) {
        self.file = file
        self.shared = shared
        self.maximumFileSize = maximumFileSize
    }
}

/// What one scanning worker keeps from file to file: its read buffer and the rule filters it
/// computed, by configuration and language (valid when no rule has `files` globs, so that the
/// path does not matter). Not `Sendable`: a worker's own.
final class ScanWorker {
    let buffer: FileReadBuffer
    private var filters: [FilterKey: RuleFilter] = [:]

    private struct FilterKey: Hashable {
        var configuration: ObjectIdentifier
        var languageID: String?
        var selection: RuleSelection
    }

    init(buffer: FileReadBuffer = FileReadBuffer()) {
        self.buffer = buffer
    }

    /// The filter of a text from `origin`, computed once per configuration, language and selection when the path does not matter.
    func filter(for origin: TextOrigin, selecting selection: RuleSelection, in shared: SharedConfiguration) -> RuleFilter {
        guard !shared.hasFileGlobs else { return shared.configuration.ruleFilter(for: origin, selecting: selection) }
        let key = FilterKey(configuration: ObjectIdentifier(shared), languageID: origin.languageID, selection: selection)
        if let known = filters[key] { return known }
        let filter = shared.configuration.ruleFilter(for: origin, selecting: selection)
        filters[key] = filter
        return filter
    }
}

/// Scans files on disk with a configuration's rules.
public enum WorkspaceScanner {
    /// The bytes examined for a NUL to call a file binary.
    public static let binaryCheckBytes = 8 << 10

    /// Scans `files` on all cores; `progress(done, total)` is called on the calling thread between
    /// batches, and the scan ends early, with the files scanned so far, once `shouldStop` says so.
    ///
    /// - Complexity: O(total bytes) spread over the cores.
    public static func scan(
        _ files: [WalkedFile], configuration: HighlightConfiguration, options: ScanOptions = ScanOptions(),
        shouldStop: () -> Bool = { false }, progress: (Int, Int) -> Void = { _, _ in }
    ) -> [ScannedFile] {
        let results = Mutex<[ScannedFile?]>([ScannedFile?](repeating: nil, count: files.count))
        let batchSize = 256
        var start = 0
        while start < files.count, !shouldStop() {
            let end = min(files.count, start + batchSize)
            let next = Atomic<Int>(start)
            let workers = min(end - start, max(1, ProcessInfo.processInfo.activeProcessorCount))
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                let worker = ScanWorker()
                while true {
                    let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard index < end else { return }
                    let scanned = scan(files[index], configuration: configuration, options: options, buffer: worker.buffer)
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
        configuration: HighlightConfiguration, options: ScanOptions = ScanOptions(),
        adjust: (WalkedFile) -> WalkedFile = { $0 }
    ) -> [ScannedFile] {
        let shared = SharedConfiguration(configuration)
        return scan(walking: roots, walkOptions: walkOptions, options: options) { file in
            ScanItem(file: adjust(file), shared: shared, maximumFileSize: options.maximumFileSize)
        }
    }

    /// Walks each of `roots` and scans its files on all cores while the walk goes on, each file
    /// with the configuration and size limit `prepare` gives it (on the calling thread, in walk
    /// order); the results are in walk order, root after root. `problem` is called (on the calling
    /// thread) with each folder, entry or ignore file the walk could not read.
    ///
    /// - Complexity: O(total bytes) spread over the cores, plus the walk and one `prepare` per file.
    public static func scan(
        walking roots: [String], walkOptions: WorkspaceWalker.Options = WorkspaceWalker.Options(),
        options: ScanOptions = ScanOptions(), problem: (WalkProblem) -> Void = { _ in }, prepare: (WalkedFile) -> ScanItem
    ) -> [ScannedFile] {
        let queue = ScanQueue()
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let group = DispatchGroup()
        for _ in 0..<workers {
            DispatchQueue.global().async(group: group) {
                let worker = ScanWorker()
                while let (index, batch) = queue.take() {
                    let scanned = batch.map { item in
                        var itemOptions = options
                        itemOptions.maximumFileSize = item.maximumFileSize
                        let origin = origin(of: item.file, in: item.shared.configuration)
                        let filter = worker.filter(for: origin, selecting: options.selection, in: item.shared)
                        return scan(
                            item.file, origin: origin, filter: filter, configuration: item.shared.configuration, options: itemOptions,
                            buffer: worker.buffer)
                    }
                    queue.store(scanned, at: index)
                }
            }
        }
        var batch: [ScanItem] = []
        batch.reserveCapacity(ScanQueue.batchSize)
        for root in roots {
            WorkspaceWalker.walk(under: root, options: walkOptions, problem: problem) { file in
                batch.append(prepare(file))
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
        _ file: WalkedFile, configuration: HighlightConfiguration, options: ScanOptions = ScanOptions()
    ) -> ScannedFile {
        scan(file, configuration: configuration, options: options, buffer: FileReadBuffer(capacity: file.size + 1))
    }

    /// Where a walked file comes from, as its configuration's rules see it (the language guessed
    /// from its name only when some rule depends on the language).
    static func origin(of file: WalkedFile, in configuration: HighlightConfiguration) -> TextOrigin {
        configuration.dependsOnLanguage
            ? TextOrigin(guessingLanguageOf: file.relativePath) : TextOrigin(relativePath: file.relativePath, languageID: nil)
    }

    /// Scans one file, read into `buffer`.
    static func scan(
        _ file: WalkedFile, configuration: HighlightConfiguration, options: ScanOptions,
        buffer: FileReadBuffer
    ) -> ScannedFile {
        let origin = origin(of: file, in: configuration)
        let filter = configuration.ruleFilter(for: origin, selecting: options.selection)
        return scan(file, origin: origin, filter: filter, configuration: configuration, options: options, buffer: buffer)
    }

    /// Scans one file from `origin` with the rules `filter` enables, read into `buffer`.
    static func scan(
        _ file: WalkedFile, origin: TextOrigin, filter: RuleFilter, configuration: HighlightConfiguration, options: ScanOptions,
        buffer: FileReadBuffer
    ) -> ScannedFile {
        var result = ScannedFile(file: file, languageID: origin.languageID, matches: [], skipped: nil, truncated: false)
        if filter.isEmpty { return result }

        let count: Int
        // A NUL byte in the first `binaryCheckBytes` makes the file binary: the read stops there.
        switch buffer.read(file, limit: options.maximumFileSize, mapsLargeFiles: options.mapsLargeFiles, binaryCheckBytes: binaryCheckBytes) {
        case .success(let read): count = read
        case .failure(let reason):
            result.skipped = reason
            result.unreadableReason = buffer.lastFailure
            return result
        }
        buffer.withBytes(count: count) { bytes in
            if isValidUTF8(bytes) {
                search(bytes, origin: origin, filter: filter, configuration: configuration, options: options, into: &result)
            } else {
                // Invalid UTF-8 is replaced (U+FFFD) exactly as an editor would show it.
                let text = Array(String(decoding: bytes, as: UTF8.self).utf8)
                text.withUnsafeBufferPointer {
                    search($0, origin: origin, filter: filter, configuration: configuration, options: options, into: &result)
                }
            }
        }
        return result
    }

    /// Searches valid UTF-8 `text` and stores the located matches in `result`.
    private static func search(
        _ text: UnsafeBufferPointer<UInt8>, origin: TextOrigin, filter: RuleFilter, configuration: HighlightConfiguration,
        options: ScanOptions, into result: inout ScannedFile
    ) {
        let list = filter.matches(of: configuration.ruleSet, in: text, languageID: origin.languageID)
        result.truncated = list.truncated
        if !list.matches.isEmpty {
            result.matches = LocatedMatch.locate(list.matches, in: text, maximumExcerptBytes: options.maximumExcerptBytes)
        }
    }

    /// Whether `bytes` hold a NUL byte.
    static func containsNUL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        return memchr(base, 0, bytes.count) != nil
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
            // Long ASCII runs, sixty-four bytes at a time in vectors, then thirty-two in words.
            while count - index >= 64 {
                let raw = UnsafeRawPointer(base + index)
                let any = raw.loadUnaligned(as: SIMD16<UInt8>.self) | raw.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self)
                    | raw.loadUnaligned(fromByteOffset: 32, as: SIMD16<UInt8>.self) | raw.loadUnaligned(fromByteOffset: 48, as: SIMD16<UInt8>.self)
                let highBits = any & SIMD16<UInt8>(repeating: 0x80)
                let nonASCII = withUnsafeBytes(of: highBits) { $0.loadUnaligned(as: UInt64.self) | $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self) }
                guard nonASCII == 0 else { break }
                index += 64
            }
            while count - index >= 32 {
                let raw = UnsafeRawPointer(base + index)
                let any = raw.loadUnaligned(as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                    | raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                guard any & 0x8080_8080_8080_8080 == 0 else { break }
                index += 32
            }
            guard index < count else { break }
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
}
