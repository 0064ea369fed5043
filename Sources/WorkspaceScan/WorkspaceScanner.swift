import CPUFeatures
import Dispatch
import UTF8Decoding
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import Threads
import HighlightConfig
import LanguageSyntax
import PatternEngine
import Synchronization
import TextIndex
import VectorKernels
import VectorKernels512

// Scanning files on disk with the same engine, configuration, filters and
// scopes as open documents. Files are read whole (up to a size limit), a NUL
// byte in the first 8 KiB marks a file as binary and skips it, and the search
// runs on all cores, one file per work item, taken from a shared counter so
// that a few large files do not leave a core idle. A large file whose rules
// never match across a line feed is searched in chunks of whole lines: while
// other files keep every core busy, streamed through the worker's buffer as it
// is read (`FileReadBuffer`); else read whole and split over all cores
// (`searchInChunks`). Either way the chunks give what one search gives.

/// The outcome of scanning one file.
public struct ScannedFile: Sendable {
    /// Why a file was not searched.
    public enum Skipped: Error, Sendable, Hashable {
        case binary
        case tooLarge
        /// Not read: nothing in it could count, as git says it did not change (`--since`, `--staged`).
        case unchanged
        /// It could not be read, and why ("permission denied").
        case unreadable(reason: String)
    }

    /// Whether the file was searched.
    public enum Outcome: Sendable, Hashable {
        /// Searched; `truncated` when the engine's match limit cut its matches short.
        case searched(truncated: Bool)
        case skipped(Skipped)
    }

    /// The file as walked.
    public var file: WalkedFile
    /// The language id guessed from the file name, if any (nil too when no rule depends on the language).
    public var languageID: String?
    /// The matches, sorted; none unless the file was searched.
    public var matches: [LocatedMatch] = []
    /// The matches of `ScanOptions.alsoSelecting`'s rules, with excerpts, searched in the same bytes; nil when they
    /// were not searched (no such rules, or a file searched as it streamed in).
    public var alsoMatches: [LocatedMatch]?
    public var outcome: Outcome

    /// A file searched, with no match found yet.
    init(searched file: WalkedFile, languageID: String?) {
        self.file = file
        self.languageID = languageID
        outcome = .searched(truncated: false)
    }

    /// A file (or folder) that could not be read, and why ("permission denied"), for reports.
    public init(unreadable file: WalkedFile, reason: String) {
        self.file = file
        outcome = .skipped(.unreadable(reason: reason))
    }

    /// Whether the engine's match limit cut the matches short.
    public var truncated: Bool {
        if case .searched(truncated: true) = outcome { return true }
        return false
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
    /// The rules to report by name (`--rule`), among those `selection` keeps; nil for every one.
    public var ruleNames: Set<String>?
    /// A second selection of rules searched in the same bytes once the first has been, overlaps resolved among them
    /// only, each match with an excerpt of `alsoExcerptBytes` (`ScannedFile.alsoMatches`): `check`'s deadlines, read
    /// after the rules that read fields.
    public var alsoSelecting: RuleSelection?
    /// How many threads search (default: one a core); with 1, the calling thread searches each file as the walk
    /// finds it, and starts none (`--threads`).
    public var threads: Int {
        get { chosenThreads ?? WorkspaceScanner.cores }
        set { chosenThreads = newValue }
    }
    /// The threads asked for; nil until asked, so that a run given a number never counts the cores (which reads the
    /// cgroup's files).
    private var chosenThreads: Int?
    /// Whether `alsoSelecting`'s rules match only where a group of fields follows (`RuleFilter.requiresFieldGroup`).
    public var alsoRequiresFieldGroup = false
    /// How long the excerpts of `alsoSelecting`'s matches are.
    public static let alsoExcerptBytes = 256
    /// Whether files of a megabyte or more are mapped rather than copied (default false): faster, but
    /// a file truncated during its search kills the process (SIGBUS), so only the command line sets it.
    var mapsLargeFiles: Bool

    /// Creates options.
    public init(maximumFileSize: Int = 8 << 20, maximumExcerptBytes: Int = 0, selection: RuleSelection = .all, mapsLargeFiles: Bool = false) {
        self.maximumFileSize = maximumFileSize
        self.maximumExcerptBytes = maximumExcerptBytes
        self.selection = selection
        self.mapsLargeFiles = mapsLargeFiles
    }
}

/// A configuration shared by the files a scan reads under it, with what a scan asks of it per file
/// answered once, and an identity by which the scan caches filters (`Scratch.filter(for:selecting:in:)`).
public final class SharedConfiguration: Sendable {
    /// The configuration.
    public let configuration: HighlightConfiguration
    /// Whether a text's path can decide which rules apply or its language (`HighlightConfiguration.dependsOnPath`).
    let dependsOnPath: Bool

    /// Shares `configuration`.
    public init(_ configuration: HighlightConfiguration) {
        self.configuration = configuration
        dependsOnPath = configuration.dependsOnPath
    }
}

/// A file to scan, with the configuration that governs it and its size limit.
public struct ScanItem: Sendable {
    /// The file as walked (its `relativePath` is what `files` globs match).
    public var file: WalkedFile
    /// The configuration whose rules search the file.
    var shared: SharedConfiguration
    /// A larger file is skipped (`Int.max` for a file the user named).
    public var maximumFileSize: Int
    /// Whether the file is read and searched at all; a file none of whose matches could count (unchanged, for
    /// `--since`) is not read, and its result says so (`ScannedFile.Skipped.unchanged`).
    public var searches = true

    /// The configuration whose rules search the file.
    public var configuration: HighlightConfiguration { shared.configuration }

    /// Creates an item with a configuration of its own.
    init(file: WalkedFile, configuration: HighlightConfiguration, maximumFileSize: Int) {
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
    private var filters: [FilterKey: KeptFilter] = [:]

    /// A filter the worker keeps, handed to each file's search by reference: one retain a file, not one for each of
    /// the filter's arrays.
    final class KeptFilter {
        let rules: RuleFilter
        init(_ rules: RuleFilter) { self.rules = rules }
    }

    private struct FilterKey: Hashable {
        var configuration: ObjectIdentifier
        var languageID: String?
        var selection: RuleSelection
    }

    init(buffer: FileReadBuffer = FileReadBuffer()) {
        self.buffer = buffer
    }

    /// The filter of a text from `origin`, computed once per configuration, language and selection when the path does not
    /// matter (a worker scans with one set of options).
    func filter(for origin: TextOrigin, options: ScanOptions, in shared: SharedConfiguration) -> KeptFilter {
        guard !shared.dependsOnPath else {
            return KeptFilter(WorkspaceScanner.filter(for: origin, options: options, in: shared.configuration))
        }
        let key = FilterKey(configuration: ObjectIdentifier(shared), languageID: origin.languageID, selection: options.selection)
        if let known = filters[key] { return known }
        let filter = KeptFilter(WorkspaceScanner.filter(for: origin, options: options, in: shared.configuration))
        filters[key] = filter
        return filter
    }
}

/// Calls `body` with each number below `count`, on threads of its own, one a core (the calling thread among them),
/// and returns when every call has.
///
/// Not `DispatchQueue.concurrentPerform`: called from a walk's worker, it ran every iteration on the calling thread
/// while the pool's threads were busy; and the pool starts its threads late, through a thread that manages them.
func forEachOnAllCores(_ count: Int, threads: Int = WorkspaceScanner.cores, _ body: @escaping @Sendable (Int) -> Void) {
    let next = Atomic<Int>(0)
    let drain: @Sendable () -> Void = {
        while true {
            let number = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard number < count else { return }
            body(number)
        }
    }
    let helpers = min(count, threads) - 1
    let done = DispatchSemaphore(value: 0)
    var started = 0
    for _ in 0..<max(helpers, 0) {
        // A helper the system cannot give leaves its share to the threads that run.
        if startThread({ drain(); done.signal() }) { started += 1 }
    }
    drain()
    for _ in 0..<started { done.wait() }
}

/// The matches of a text searched in chunks, gathered chunk after chunk in text order, counted from the text's start.
struct ChunkMatches {
    /// One chunk's matches, located on their own (counted from the chunk's start), and where the chunk ends.
    struct Chunk {
        var matches: [LocatedMatch]
        /// Whether the engine's match limit cut the chunk's matches short.
        var truncated: Bool
        var end: TextPoint
    }

    /// The matches so far.
    private(set) var matches: [LocatedMatch] = []
    /// Whether the match limit cut them short.
    private(set) var truncated = false
    private let limit: Int
    /// The size of the whole text, when known (0 when not), to reserve room for its matches from the first chunks'.
    private let expectedBytes: Int
    /// Where the chunks so far end.
    private var end = TextPoint.start

    /// Gathers at most `limit` matches (nil: no limit) of a text of `expectedBytes` (0: unknown).
    init(limit: Int?, expectedBytes: Int = 0) {
        self.limit = limit ?? Int.max
        self.expectedBytes = expectedBytes
    }

    mutating func reserveCapacity(_ count: Int) {
        matches.reserveCapacity(min(limit, count))
    }

    /// Locates the next chunk's matches (`found`, counted from the chunk's start) into the matches so far, with the
    /// chunk's lines as its check counted them, if it did (see `WorkspaceScanner.checkChunk`); false once the match
    /// limit is reached (`truncated`: the search reached it in the chunk), when later chunks would not count.
    mutating func locate(
        _ found: [Match], truncated: Bool, in chunk: UnsafeBufferPointer<UInt8>, measured: WorkspaceScanner.ChunkMeasure? = nil,
        maximumExcerptBytes: Int
    ) -> Bool {
        let kept = matches.count + found.count > limit ? Array(found.prefix(limit - matches.count)) : found
        if matches.count + kept.count > matches.capacity, expectedBytes > 0 {
            // Room for as many matches as the chunks so far promise over the whole text, so that the array grows
            // once or twice rather than by doubling.
            let done = max(1, end.utf8Offset + chunk.count)
            let projected = (matches.count + kept.count).multipliedFullWidth(by: max(expectedBytes, done))
            let estimate = projected.high == 0 ? Int(projected.low / UInt(done)) : Int.max
            reserveCapacity(max(matches.count + kept.count, estimate / 8 * 9))
        }
        end = LocatedMatch.locate(
            kept, inChunk: chunk, at: end, endingAt: measured?.end, landmarks: measured?.landmarks ?? [],
            maximumExcerptBytes: maximumExcerptBytes, appendingTo: &matches)
        if kept.count < found.count || truncated {
            self.truncated = true
            return false
        }
        return true
    }

    /// Adds the next chunk, located on its own; false once the match limit is reached, when later chunks would not count.
    mutating func append(_ chunk: consuming Chunk) -> Bool {
        if end != .start {
            for index in chunk.matches.indices {
                let range = chunk.matches[index].utf8Range
                chunk.matches[index].utf8Range = (range.lowerBound + end.utf8Offset)..<(range.upperBound + end.utf8Offset)
                chunk.matches[index].start = chunk.matches[index].start.counted(from: end)
                chunk.matches[index].end = chunk.matches[index].end.counted(from: end)
            }
        }
        if matches.count + chunk.matches.count > limit {
            matches.append(contentsOf: chunk.matches.prefix(limit - matches.count))
            truncated = true
            return false
        }
        matches.append(contentsOf: chunk.matches)
        if chunk.truncated {
            truncated = true
            return false
        }
        end = chunk.end.counted(from: end)
        return true
    }
}

/// A walk's result for one file, in an object: delivered from here without a copy.
@usableFromInline
final class ScanResultBox<Value: Sendable>: Sendable {
    @usableFromInline let value: Value

    @usableFromInline
    init(_ value: Value) { self.value = value }
}

/// Bytes that several threads read at once.
///
/// `@unchecked` because an unsafe pointer is not `Sendable`: the bytes are only read, and they outlive every reader
/// (`forEachOnAllCores` returns when all its calls have).
struct ReadOnlyBytes: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
}

/// Scans files on disk with a configuration's rules.
public enum WorkspaceScanner {
    /// The bytes examined for a NUL to call a file binary.
    public static let binaryCheckBytes = 8 << 10

    /// The cores to scan on, read once: Foundation reads the cgroup's CPU quota files each time it is asked.
    static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// Scans `files`, all with `configuration`, on all cores; the results are in the files' order.
    ///
    /// - Complexity: O(total bytes) spread over the cores.
    public static func scan(
        _ files: [WalkedFile], configuration: HighlightConfiguration, options: ScanOptions = ScanOptions()
    ) -> [ScannedFile] {
        let shared = SharedConfiguration(configuration)
        var results: [ScannedFile] = []
        results.reserveCapacity(files.count)
        scan(
            files.map { ScanItem(file: $0, shared: shared, maximumFileSize: options.maximumFileSize) }, options: options,
            finish: { scanned, _ in scanned }
        ) { results.append($0) }
        return results
    }

    /// Scans `items` on all cores, each with its own configuration and size limit, as a walk's files are
    /// (`scan(walking:walkOptions:options:problem:prepare:finish:deliver:)`: the same workers, batches and order):
    /// each result is turned into what `finish` makes of it on the worker that scanned it, and handed to `deliver`
    /// (on the calling thread, in the items' order) as soon as it and those before it are done. Once `shouldStop`
    /// says so, no more files are searched, and the results so far are delivered.
    ///
    /// - Complexity: O(total bytes) spread over the cores.
    @inlinable
    public static func scan<Finished: Sendable>(
        _ items: [ScanItem], options: ScanOptions = ScanOptions(), shouldStop: @escaping @Sendable () -> Bool = { false },
        finish: @escaping @Sendable (consuming ScannedFile, ScanItem) -> Finished, deliver: (Finished) -> Void
    ) {
        scanBoxed(
            options: options, sizedBatches: true, shouldStop: shouldStop,
            produce: { add in
                for item in items {
                    guard !shouldStop() else { return }
                    add(item)
                }
            },
            finish: { scanned, item in ScanResultBox(finish(scanned, item)) },
            deliver: { boxed in
                // Always a box of a `Finished`: every box was made by `finish` above.
                if let box = boxed as? ScanResultBox<Finished> { deliver(box.value) }
            })
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
        var results: [ScannedFile] = []
        scan(walking: roots, walkOptions: walkOptions, options: options, problem: problem, prepare: prepare, finish: { scanned, _ in scanned }) {
            results.append($0)
        }
        return results
    }

    /// Walks and scans as `scan(walking:walkOptions:options:problem:prepare:)` does, turns each result into what
    /// `finish` makes of it (on the worker that scanned it, with its item: a report is written there, and the
    /// matches freed where they were made), and hands that to `deliver` (on the calling thread, in walk order)
    /// as `scanBoxed` says: a report is written while later files are still searched.
    ///
    /// - Complexity: O(total bytes) spread over the cores, plus the walk and one `prepare` per file.
    @inlinable
    public static func scan<Finished: Sendable>(
        walking roots: [String], walkOptions: WorkspaceWalker.Options = WorkspaceWalker.Options(),
        options: ScanOptions = ScanOptions(), problem: (WalkProblem) -> Void = { _ in }, prepare: (WalkedFile) -> ScanItem,
        finish: @escaping @Sendable (consuming ScannedFile, ScanItem) -> Finished, deliver: (Finished) -> Void
    ) {
        // The walk and the queue are not generic: code generic over `Finished` would run unspecialized here (another
        // module's type), asking the runtime for metadata and copying through witnesses at every file (7% of a
        // `list` of /usr/include's 7,900 files). Each result is boxed once instead, in an object, so that it is
        // delivered from the box without a copy (taken out of an existential, a result was copied field by field).
        scanBoxed(
            options: options, sizedBatches: walkOptions.readsFileStatus, shouldStop: { false },
            produce: { add in
                for root in roots {
                    WorkspaceWalker.walk(under: root, options: walkOptions, problem: problem) { file in add(prepare(file)) }
                }
            },
            finish: { scanned, item in ScanResultBox(finish(scanned, item)) },
            deliver: { boxed in
                // Always a box of a `Finished`: every box was made by `finish` above.
                if let box = boxed as? ScanResultBox<Finished> { deliver(box.value) }
            })
    }

    /// The one scheduler of scans: `produce` hands over the files to scan (a walk as it goes, or a list), which are
    /// gathered in batches for the workers, one thread a core; each result is boxed by `finish` on its worker and
    /// handed to `deliver` on the calling thread, in the order produced, once `produce` is over. With one thread
    /// (`options.threads` 1), the calling thread searches each file as it is produced and delivers its result at
    /// once, during `produce`. Once `shouldStop` says so, no more files are searched. `sizedBatches` says whether the
    /// files' sizes are known, which lets a batch hold more of them (see `ScanQueue`).
    @usableFromInline
    static func scanBoxed(
        options: ScanOptions, sizedBatches: Bool, shouldStop: @escaping @Sendable () -> Bool,
        produce: (_ add: (ScanItem) -> Void) -> Void,
        finish: @escaping @Sendable (consuming ScannedFile, ScanItem) -> any AnyObject & Sendable,
        deliver: (any AnyObject & Sendable) -> Void
    ) {
        let workers = max(1, options.threads)
        if workers == 1 {
            // One thread: each file is searched as soon as it is produced, and its result delivered at once, while the
            // file's item and bytes are still in the core's caches and nothing waits in a queue.
            let worker = ScanWorker()
            withoutActuallyEscaping(deliver) { deliver in
                produce { item in
                    guard !shouldStop() else { return }
                    deliver(finish(scan(item, worker: worker, options: options, streams: true), item))
                }
            }
            return
        }
        let queue = ScanQueue<any AnyObject & Sendable>()
        let work: @Sendable () -> Void = {
            let worker = ScanWorker()
            while let (index, batch) = queue.take() {
                // Stored together, but a large result at once (`isWorthHandingBack`).
                var done: [(any AnyObject & Sendable)?] = []
                for position in batch.indices {
                    var large = false
                    if shouldStop() {
                        done.append(nil)
                    } else {
                        let scanned = scan(batch[position], worker: worker, options: options, streams: queue.keepsBusy(workers: workers))
                        large = isWorthHandingBack(scanned)
                        done.append(finish(scanned, batch[position]))
                    }
                    let last = position == batch.count - 1
                    if last || large {
                        queue.store(done, at: index, last: last, wakes: large)
                        done.removeAll(keepingCapacity: true)
                    }
                }
            }
        }
        // Threads of their own, one a core, rather than Dispatch's pool, which adds a thread that manages it.
        let stopped = DispatchSemaphore(value: 0)
        var started = 0
        // One thread in all is the calling one: it searches once the files are produced.
        for _ in 0..<(workers > 1 ? workers : 0) where startThread({ work(); stopped.signal() }) { started += 1 }
        var batch: [ScanItem] = []
        var batchBytes = 0
        let batchSize = sizedBatches
            ? ScanQueue<any AnyObject & Sendable>.batchSize : ScanQueue<any AnyObject & Sendable>.unsizedBatchSize
        batch.reserveCapacity(batchSize)
        produce { item in
            batch.append(item)
            batchBytes += item.file.size
            if batch.count == batchSize || batchBytes >= ScanQueue<any AnyObject & Sendable>.batchBytes {
                queue.add(batch)
                batch.removeAll(keepingCapacity: true)
                batchBytes = 0
            }
        }
        queue.add(batch)
        queue.finish(workers: workers)
        // With no thread to be had, the calling thread searches what was produced.
        if started == 0 { work() }
        while let done = queue.nextResults() { done.forEach(deliver) }
        for _ in 0..<started { stopped.wait() }
    }

    /// Scans a walk's item with `worker`'s buffer and filters.
    static func scan(_ item: ScanItem, worker: ScanWorker, options: ScanOptions, streams: Bool) -> ScannedFile {
        // Nothing in it can count (`--since`): not even read.
        guard item.searches else {
            var unread = ScannedFile(searched: item.file, languageID: nil)
            unread.outcome = .skipped(.unchanged)
            return unread
        }
        var itemOptions = options
        itemOptions.maximumFileSize = item.maximumFileSize
        let origin = origin(of: item.file, in: item.shared.configuration)
        let filter = worker.filter(for: origin, options: options, in: item.shared)
        var alsoFilter: RuleFilter?
        if let also = options.alsoSelecting {
            var alsoOptions = options
            alsoOptions.selection = also
            alsoFilter = worker.filter(for: origin, options: alsoOptions, in: item.shared).rules
            alsoFilter?.requiresFieldGroup = options.alsoRequiresFieldGroup
        }
        var scanned = scan(
            item.file, origin: origin, filter: filter.rules, configuration: item.shared.configuration, options: itemOptions,
            buffer: worker.buffer, streams: streams, alsoFilter: alsoFilter.flatMap { $0.isEmpty ? nil : $0 })
        // No rule of the second selection applies: it found nothing, without a search.
        if alsoFilter?.isEmpty == true, case .searched = scanned.outcome { scanned.alsoMatches = [] }
        return scanned
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
        let filter = filter(for: origin, options: options, in: configuration)
        return scan(file, origin: origin, filter: filter, configuration: configuration, options: options, buffer: buffer)
    }

    /// Which rules of `configuration` search a text from `origin`: those `options.selection` keeps, and of them those
    /// `options.ruleNames` names.
    static func filter(for origin: TextOrigin, options: ScanOptions, in configuration: HighlightConfiguration) -> RuleFilter {
        configuration.ruleFilter(for: origin, selecting: options.selection, named: options.ruleNames)
    }

    /// Scans bytes read from elsewhere than a file (standard input) as a walked file is scanned: binary when a NUL
    /// byte is among the first `binaryCheckBytes` and no byte order mark says UTF-16 or UTF-32, else their text
    /// (`utf8Text(ofFileBytes:)`) searched with the rules that apply to a text from `origin`. `file` names them in
    /// the result.
    ///
    /// - Complexity: O(n) in the number of bytes.
    public static func scan(
        bytes: [UInt8], as file: WalkedFile, origin: TextOrigin, configuration: HighlightConfiguration, options: ScanOptions
    ) -> ScannedFile {
        var result = ScannedFile(searched: file, languageID: origin.languageID)
        let binary = bytes.withUnsafeBufferPointer { buffer in
            ByteOrderMark.of(buffer) == nil && containsNUL(UnsafeBufferPointer(rebasing: buffer.prefix(binaryCheckBytes)))
        }
        guard !binary else {
            result.outcome = .skipped(.binary)
            return result
        }
        let filter = filter(for: origin, options: options, in: configuration)
        guard !filter.isEmpty else { return result }
        utf8Text(ofFileBytes: bytes).withUnsafeBufferPointer { text in
            search(text, origin: origin, filter: filter, configuration: configuration, options: options, into: &result)
        }
        return result
    }

    /// Scans one file from `origin` with the rules `filter` enables, read into `buffer`; with `streams`, a large file
    /// whose rules allow it is searched chunk by chunk as it is read (see `FileReadBuffer.stream`), else in chunks on
    /// all cores once read whole (see `searchInChunks`). A walk streams while other files keep every core busy.
    static func scan(
        _ file: WalkedFile, origin: TextOrigin, filter: RuleFilter, configuration: HighlightConfiguration, options: ScanOptions,
        buffer: FileReadBuffer, streams: Bool = false, alsoFilter: RuleFilter? = nil
    ) -> ScannedFile {
        var result = ScannedFile(searched: file, languageID: origin.languageID)
        if filter.isEmpty, alsoFilter == nil { return result }

        // Made at the first chunk: reading the limit copies the rule set, a retain of each of its arrays.
        var streamed: ChunkMatches?
        // Files of two windows or more: a smaller one is read at once anyway.
        let streamingFrom = streams && alsoFilter == nil && searchesInChunks(filter: filter, configuration: configuration)
            ? 2 * buffer.streamingWindow : Int.max
        // A NUL byte in the first `binaryCheckBytes` makes the file binary: the read stops there.
        let read = buffer.read(
            file, limit: options.maximumFileSize, mapsLargeFiles: options.mapsLargeFiles, binaryCheckBytes: binaryCheckBytes,
            streamingFrom: streamingFrom
        ) { text, range in
            guard let found = searchChunk(range, of: text, origin: origin, filter: filter, configuration: configuration) else {
                streamed = nil
                return .whole
            }
            // Taken out, so that its array is not shared while it grows.
            var gathered = streamed.take() ?? ChunkMatches(
                limit: configuration.ruleSet.limits.maximumMatchCount, expectedBytes: buffer.lastFileSize)
            let more = gathered.locate(
                found.matches, truncated: found.truncated, in: UnsafeBufferPointer(rebasing: text[range]), measured: found.measure,
                maximumExcerptBytes: options.maximumExcerptBytes)
            streamed = gathered
            return more ? .more : .stop
        }
        let count: Int
        switch read {
        case .success(.whole(let read)): count = read
        case .success(.streamed):
            result.matches = streamed?.matches ?? []
            result.outcome = .searched(truncated: streamed?.truncated ?? false)
            return result
        case .failure(let reason):
            result.outcome = .skipped(reason)
            // The size judged against the limit (a walk may not have looked it up).
            if reason == .tooLarge { result.file.size = buffer.lastFileSize }
            return result
        }
        func searchWhole(_ bytes: UnsafeBufferPointer<UInt8>, filter: RuleFilter, options: ScanOptions, into result: inout ScannedFile) {
            if searchInChunks(bytes, origin: origin, filter: filter, configuration: configuration, options: options, into: &result) {
                return
            }
            if UTF8Decoding.isValid(bytes) {
                search(bytes, origin: origin, filter: filter, configuration: configuration, options: options, into: &result)
            } else {
                // Invalid UTF-8 is replaced (U+FFFD) exactly as an editor would show it.
                let text = Array(String(decoding: bytes, as: UTF8.self).utf8)
                text.withUnsafeBufferPointer {
                    search($0, origin: origin, filter: filter, configuration: configuration, options: options, into: &result)
                }
            }
        }
        func searchBoth(_ bytes: UnsafeBufferPointer<UInt8>) {
            if !filter.isEmpty { searchWhole(bytes, filter: filter, options: options, into: &result) }
            guard let alsoFilter else { return }
            var also = ScannedFile(searched: file, languageID: origin.languageID)
            var alsoOptions = options
            alsoOptions.maximumExcerptBytes = ScanOptions.alsoExcerptBytes
            searchWhole(bytes, filter: alsoFilter, options: alsoOptions, into: &also)
            result.alsoMatches = also.matches
        }
        buffer.withBytes(count: count) { bytes in
            // A UTF-16 or UTF-32 file is searched, and its matches located, in its UTF-8 transcoding.
            if let mark = ByteOrderMark.of(bytes) {
                mark.transcodedToUTF8(bytes).withUnsafeBufferPointer { searchBoth($0) }
            } else {
                searchBoth(bytes)
            }
        }
        return result
    }

    /// Searches valid UTF-8 `text` and stores the located matches in `result`.
    static func search(
        _ text: UnsafeBufferPointer<UInt8>, origin: TextOrigin, filter: RuleFilter, configuration: HighlightConfiguration,
        options: ScanOptions, into result: inout ScannedFile
    ) {
        let list = filter.matches(of: configuration.ruleSet, in: text)
        result.outcome = .searched(truncated: list.truncated)
        if !list.matches.isEmpty {
            result.matches = LocatedMatch.locate(list.matches, in: text, maximumExcerptBytes: options.maximumExcerptBytes)
        }
    }

    /// Texts of at least this many bytes are searched in chunks on all cores, when their rules allow it.
    static let chunkThreshold = 4 << 20

    /// Whether a text may be searched in chunks that begin at line starts: no rule is scoped (comments and strings
    /// are found from the start of the text) and no rule's match may hold a line feed, so that no match crosses a
    /// chunk's start.
    static func searchesInChunks(filter: RuleFilter, configuration: HighlightConfiguration) -> Bool {
        !filter.needsSyntax && configuration.ruleSet.maximumMatchLineBreaks.lineFeeds == 0
    }

    /// The matches of the chunk `range` of `text`, which begins at a line start and ends after a line feed (or at the
    /// text's end), counted from the chunk's start, whether the match limit cut them short, and what the check found
    /// of the chunk's lines (see `checkChunk`); nil when the chunk is not valid UTF-8 (the whole text must then be
    /// searched as one, which replaces the bad bytes).
    ///
    /// The chunk is searched inside `text` (`startingIn`), so that `^`, `\b` and the like see the bytes around it.
    static func searchChunk(
        _ range: Range<Int>, of text: UnsafeBufferPointer<UInt8>, origin: TextOrigin, filter: RuleFilter,
        configuration: HighlightConfiguration
    ) -> (matches: [Match], truncated: Bool, measure: ChunkMeasure?)? {
        guard case .valid(let measure) = checkChunk(UnsafeBufferPointer(rebasing: text[range])) else { return nil }
        var syntax: SyntaxIndex?
        let list = filter.matches(of: configuration.ruleSet, in: text, startingIn: range, syntax: &syntax)
        let local = list.matches.map {
            Match(ruleIndex: $0.ruleIndex, utf8Range: ($0.utf8Range.lowerBound - range.lowerBound)..<($0.utf8Range.upperBound - range.lowerBound))
        }
        return (local, list.truncated, measure)
    }

    /// What checking a chunk found.
    enum ChunkCheck: Equatable {
        /// Not valid UTF-8.
        case invalid
        /// Valid UTF-8, and its lines when the check could count them (nil: the walk must find them).
        case valid(ChunkMeasure?)
    }

    /// A chunk's lines as the check counted them, counted from its start.
    struct ChunkMeasure: Equatable {
        /// Where the chunk ends.
        var end: TextPoint
        /// Where each of the check's segments ended (see `AVX2.validUTF8Counts`), for locating matches from there.
        var landmarks: [TextPoint.Landmark]
    }

    /// Checks that `chunk` is valid UTF-8 and, where the CPU has AVX2 and the chunk holds no `\r`,
    /// counts its lines in the same pass (`AVX2.validUTF8Counts`: its lines are its line feeds), so that locating its
    /// matches walks only from the landmark before each, and only up to the last of them. Where the CPU has
    /// AVX-512, `AVX512.validUTF8Counts` does it, with the same results. `widest` holds it to narrower loops (tests).
    static func checkChunk(_ chunk: UnsafeBufferPointer<UInt8>, widest: VectorWidth = .avx512) -> ChunkCheck {
        let width = min(widest, VectorUnit.widest)
        guard width >= .avx2, chunk.count >= 64, let base = chunk.baseAddress else {
            return UTF8Decoding.isValid(chunk, widest: width) ? .valid(nil) : .invalid
        }
        guard let start = UTF8Decoding.afterFirstCharacters(chunk) else { return .invalid }
        var counted = [Int](repeating: 0, count: ((chunk.count - start) / AVX2.segmentBytes + 1) * 4)
        let run = counted.withUnsafeMutableBufferPointer {
            width == .avx512
                ? AVX512.validUTF8Counts(text: UnsafeRawPointer(base), from: start, count: chunk.count, landmarks: $0.baseAddress)
                : AVX2.validUTF8Counts(text: UnsafeRawPointer(base), from: start, count: chunk.count, landmarks: $0.baseAddress)
        }
        guard run.position >= 0, UTF8Decoding.isValid(UnsafeBufferPointer(rebasing: chunk[run.position...]), widest: .baseline) else {
            return .invalid
        }
        if run.hasCarriageReturn { return .valid(nil) }
        // The few bytes before and after the loop's, counted one by one.
        func counts(_ range: Range<Int>) -> (lineFeeds: Int, continuations: Int, fourByteLeads: Int)? {
            var counts = (lineFeeds: 0, continuations: 0, fourByteLeads: 0)
            for byte in chunk[range] {
                if byte == 0x0D { return nil }
                if byte == 0x0A { counts.lineFeeds += 1 }
                if byte & 0xC0 == 0x80 { counts.continuations += 1 }
                if byte >= 0xF0 { counts.fourByteLeads += 1 }
            }
            return counts
        }
        guard let before = counts(0..<start), let after = counts(run.position..<chunk.count) else { return .valid(nil) }
        let landmarks = (0..<run.landmarkCount).map { index in
            let offset = counted[4 * index]
            let utf32 = offset - before.continuations - counted[4 * index + 2]
            return TextPoint.Landmark(
                utf8Offset: offset, line: before.lineFeeds + counted[4 * index + 1],
                utf16Offset: utf32 + before.fourByteLeads + counted[4 * index + 3], utf32Offset: utf32)
        }
        // The last line's units, from its start (after the last line feed: the last byte, unless the text ends there).
        var lineStart = chunk.count
        while lineStart > 0, chunk[lineStart - 1] != 0x0A { lineStart -= 1 }
        let (lineUTF16, lineUTF32) = TextPoint.units(of: UnsafeBufferPointer(rebasing: chunk[lineStart...]))
        let utf32 = chunk.count - before.continuations - run.continuations - after.continuations
        let end = TextPoint(
            line: before.lineFeeds + run.lineFeeds + after.lineFeeds, utf8Offset: chunk.count,
            utf16Offset: utf32 + before.fourByteLeads + run.fourByteLeads + after.fourByteLeads, utf32Offset: utf32,
            utf8Column: chunk.count - lineStart, utf16Column: lineUTF16, utf32Column: lineUTF32)
        return .valid(ChunkMeasure(end: end, landmarks: landmarks))
    }

    /// Checks, searches and locates a large text in chunks that begin at line starts, one chunk per work item on all
    /// cores, and stores the matches in `result`; false (and `result` untouched) when the text is small, there is
    /// one core, or the rules do not allow chunks (`searchesInChunks`).
    ///
    /// The chunks give the same matches as one search (see `searchChunk`); each is located on its own and shifted
    /// by the lines and units of the chunks before it (`ChunkMatches`). A chunk that is not valid UTF-8 makes the
    /// whole text go the single way, which replaces it.
    ///
    /// - Complexity: O(n) spread over the cores: each chunk is read to check it, to search it, and to locate it.
    static func searchInChunks(
        _ text: UnsafeBufferPointer<UInt8>, origin: TextOrigin, filter: RuleFilter, configuration: HighlightConfiguration,
        options: ScanOptions, into result: inout ScannedFile, minimumBytes: Int = chunkThreshold, chunkBytes: Int = 256 << 10
    ) -> Bool {
        guard text.count >= minimumBytes, options.threads > 1, searchesInChunks(filter: filter, configuration: configuration),
              let base = text.baseAddress
        else { return false }
        // Chunks of about `chunkBytes` (a streamed window's size), so that each is checked, searched and located while
        // the core's cache holds it (chunks of an eighth of a 100 MB file were read from memory three times); four a
        // core at least, so that a chunk full of matches does not leave the other cores idle.
        let wanted = max(options.threads * 4, text.count / max(chunkBytes, 1))
        var starts = [0]
        for number in 1..<max(wanted, 1) {
            let cut = text.count / wanted * number
            guard let last = starts.last, cut > last, let lineFeed = memchr(base + cut, 0x0A, text.count - cut) else { continue }
            let next = UnsafePointer<UInt8>(lineFeed.assumingMemoryBound(to: UInt8.self)) - base + 1
            if next > last, next < text.count { starts.append(next) }
        }
        let ranges = starts.indices.map { starts[$0]..<(starts.indices.contains($0 + 1) ? starts[$0 + 1] : text.count) }

        let chunks = Mutex([ChunkMatches.Chunk?](repeating: nil, count: ranges.count))
        let shared = ReadOnlyBytes(bytes: text)
        forEachOnAllCores(ranges.count, threads: options.threads) { number in
            guard let found = searchChunk(ranges[number], of: shared.bytes, origin: origin, filter: filter, configuration: configuration)
            else { return }
            let chunk = UnsafeBufferPointer(rebasing: shared.bytes[ranges[number]])
            var located = ChunkMatches.Chunk(matches: [], truncated: found.truncated, end: .start)
            // The last chunk's end is not needed: without the check's count, it is located up to its last match only.
            if number < ranges.count - 1 || found.measure != nil {
                located.end = LocatedMatch.locate(
                    found.matches, inChunk: chunk, at: .start, endingAt: found.measure?.end, landmarks: found.measure?.landmarks ?? [],
                    maximumExcerptBytes: options.maximumExcerptBytes,
                    appendingTo: &located.matches)
            } else {
                located.matches = LocatedMatch.locate(found.matches, in: chunk, maximumExcerptBytes: options.maximumExcerptBytes)
            }
            chunks.withLock { $0[number] = located }
        }
        // Taken out of the lock, so that each chunk's matches are the only reference and are shifted in place.
        var found = chunks.withLock { all in
            let taken = all
            all = []
            return taken.compactMap { $0 }
        }
        guard found.count == ranges.count else { return false }
        var matches = ChunkMatches(limit: configuration.ruleSet.limits.maximumMatchCount)
        matches.reserveCapacity(found.reduce(0) { $0 + $1.matches.count })
        found.reverse()
        // Popped, so that each chunk's matches are the only reference and are shifted in place.
        while let chunk = found.popLast(), matches.append(chunk) {}
        result.matches = matches.matches
        result.outcome = .searched(truncated: matches.truncated)
        return true
    }

    /// Whether `bytes` hold a NUL byte.
    static func containsNUL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        return memchr(base, 0, bytes.count) != nil
    }
}
