#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import HighlightConfig
import LanguageServer
import PatternEngine
import WorkspaceScan

// `print`, `list` and `check`: the same configuration lookup, engine, filters and scopes as the
// editor, on files. Each file is searched with the configuration that governs it (the nearest
// `.highlights.json` above it, see `ConfigFile.governingFolder`), its `files` globs matched from
// that configuration's folder. `list` and `check` walk directories with the workspace scanner
// (ignore files and `--glob`s obeyed, large files skipped and named on stderr, binary files skipped
// silently) and search files on all cores; a file named on the command line is searched whatever
// its size. Standard input (`-`) is searched as the file `--stdin-filename` names would be.

/// The commands that search files and report their matches.
enum ScanCommand: String {
    /// Each file drawn with its highlights.
    case print
    /// Every match; exits 0.
    case list
    /// The matches of blocking rules; exits 1 when there are any.
    case check
}

/// The operand that stands for standard input.
let standardInputOperand = "-"

/// What `print`, `list` and `check` were asked to do.
struct ScanRequest {
    var command: ScanCommand
    var paths: [String]
    var format: OutputFormat
    var colours: Bool
    var maximumFileSize: Int
    var allowConfigErrors: Bool
    /// Whether `check` passes although files that could hold a blocking match were not read (`--allow-skipped`).
    var allowSkipped: Bool
    var explicitConfig: String?
    /// What the walk leaves out besides hidden and ignored entries (`--glob`); nil for nothing.
    var globs: WalkGlobs?
    /// The rules to report, by name (`--rule`); nil for every rule.
    var ruleNames: [String]?
    /// The path standard input stands for (`--stdin-filename`); nil when it stands for none.
    var standardInputName: String?
    /// Nothing on stdout (`--quiet`); for `list` and `print` the exit code then says whether something matched.
    var quiet: Bool
    /// One line about the run at the end, on stderr (`--stats`).
    var stats: Bool
    /// What `check` does with a baseline (`--baseline`, `--write-baseline`).
    var baseline: BaselineUse = .none
    /// The changes whose lines alone are reported (`--since`, `--staged`); nil for every line.
    var changeBase: ChangeBase? = nil
    /// The day deadlines are judged on (`--today`, else the local date).
    var today: CalendarDay = CalendarDay.today()
    /// How many threads search (`--threads`; 0, as there, one a core).
    var threads = 0
    /// Whether each match carries its line's blame (`--blame`, implied by `--older-than` and by grouping by author or age).
    var blame = false
    /// For `check`: the age past which a match of a rule marked `"list"` fails too (`--older-than`); nil for none.
    var olderThan: AgeLimit?
    /// What `list` writes: every match, the matches by group, or the count of each group.
    var listing: Listing = .matches
    /// The time taken as now for ages, in seconds since 1970: the clock's, or the start of `--today`'s day (UTC).
    var now: Int64 = Int64(time(nil))
}

/// What `list` writes of the matches it finds.
enum Listing: Equatable {
    /// Each match, in walk order.
    case matches
    /// Each match, group by group (`--group-by`).
    case grouped(by: GroupKey)
    /// How many matches each group has, rather than the matches (`--count`, by rule unless `--group-by` says).
    case counted(by: GroupKey)

    /// The key of the groups, if the matches are grouped or counted.
    var groupKey: GroupKey? {
        switch self {
        case .matches: nil
        case .grouped(let key), .counted(let key): key
        }
    }
}

/// What `check` does with a baseline of the blocking matches it accepts (`Baseline`).
enum BaselineUse: Equatable {
    /// No baseline: every blocking match fails the check.
    case none
    /// Only matches the baseline at `path` does not cover fail; with `prunes`, the file is written again without the
    /// entries that no longer match (`--prune-baseline`).
    case compare(path: String, prunes: Bool)
    /// The blocking matches found are written to `path`, and the check passes (`--write-baseline`).
    case write(path: String)
}

/// What a run searched, found and skipped, for `--stats` and `check`'s last line.
struct RunCounts {
    var searched = 0
    var matches = 0
    var filesWithMatches = 0
    /// Skipped as ripgrep skips them: named nowhere, but for a file over the size limit in `check`, which fails on it.
    var binary = 0
    var tooLarge = 0
    /// Files and folders that could not be read (a folder counts once, whatever it held).
    var unreadable = 0
    /// Files not read because git says they did not change (`--since`, `--staged`).
    var unchanged = 0

    /// The line `--stats` writes: `12 files searched, 3 matches in 2 files; skipped: 1 binary, 0 over the size limit,
    /// 0 unreadable; 0.004 s`.
    func statsLine(elapsed: Duration) -> String {
        let (seconds, attoseconds) = elapsed.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        let fraction = String(milliseconds % 1000)
        return "\(plural(searched, "file")) searched, \(plural(matches, "match", "matches")) in \(plural(filesWithMatches, "file")); "
            + "skipped: \(binary) binary, \(tooLarge) over the size limit, \(unreadable) unreadable"
            + (unchanged > 0 ? ", \(unchanged) unchanged; " : "; ")
            + "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
    }
}

/// Runs `list` or `check`; returns the exit code.
func runScanCommand(_ request: ScanRequest) -> Int32 {
    let started = ContinuousClock.now
    let isCheck = request.command == .check
    guard let lookup = ConfigurationLookup(explicitPath: request.explicitConfig, report: reportConfigProblem) else {
        warn("cannot use --config \(request.explicitConfig ?? "")")
        return 2
    }
    // A baseline that cannot be used fails before anything is searched: a damaged one never passes the check.
    var comparison: BaselineComparison?
    switch request.baseline {
    case .none: break
    case .write: comparison = BaselineComparison(Baseline())
    case .compare(let path, _):
        switch Baseline.read(from: path) {
        case .success(let baseline): comparison = BaselineComparison(baseline)
        case .failure(let failure):
            warn(failure.message)
            return 2
        }
    }
    // Which lines count is asked of git once, before the walk; a repository or revision that cannot answer fails the run.
    var changedLines: ChangedLines?
    var folders = PhysicalPath.Folders()
    if let base = request.changeBase {
        switch ChangedLines.read(base) {
        case .success(let lines): changedLines = lines
        case .failure(let failure):
            warn(failure.message)
            return 2
        }
    }
    let deadlines = DeadlineReading(
        today: request.today, addsOverdue: isCheck, addsListed: isCheck && request.olderThan != nil,
        readsForReport: [.json, .sarif].contains(request.format) || request.listing.groupKey == .owner)
    var deadlineFailures = 0
    // The baseline holds the lines of matches, so it would match itself: it is not searched, under any path's spelling.
    let baselineIdentity: FileIdentity? = switch request.baseline {
    case .none: nil
    case .compare(let path, _), .write(let path): FileIdentity(ofFileAt: path)
    }
    var status: Int32 = 0
    // The paths to walk, in order; standard input falls between them where it was named.
    var sources: [[String]] = [[]]
    var namedFiles: Set<String> = []
    for path in request.paths {
        if path == standardInputOperand {
            sources += [[standardInputOperand], []]
            continue
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            warn("cannot read \(path): \(String(cString: strerror(errno)))")
            status = 2
            continue
        }
        if info.st_mode & S_IFMT != S_IFDIR { namedFiles.insert(path) }
        sources[sources.count - 1].append(path)
    }
    sources.removeAll { $0.isEmpty }
    // Nothing to search is not "no matches in 0 files".
    guard !sources.isEmpty else { return status }

    // A one-shot command may map large files (see `ScanOptions.mapsLargeFiles`).
    var options = ScanOptions(maximumFileSize: request.maximumFileSize, mapsLargeFiles: true)
    // With --older-than, the work items (rules marked "list") are searched too, beside the blocking rules so that
    // none of them hides a blocking match (`DeadlineReading`): an old one fails the check.
    if isCheck { options.selection = .blocking }
    options.ruleNames = request.ruleNames.map(Set.init)
    if request.threads > 0 { options.threads = request.threads }
    options = deadlines.adjusting(options)
    // Each prepared file's configuration, in walk order: the scanner returns one result per file, in that order.
    var configurationOfItem: [Int] = []
    // What the walk could not read, written to the report after the files (text and JSON only warn).
    var walkProblems: [WalkProblem] = []

    var writer: (any ReportWriter)? = nil
    if !request.quiet {
        switch request.format {
        case .text: writer = TextWriter(colours: request.colours)
        case .json: writer = JSONLinesWriter()
        case .sarif: writer = SARIFWriter(blocking: isCheck, currentDirectory: lookup.currentDirectory)
        case .github: writer = GitHubWriter(blocking: isCheck, tooLargeFails: isCheck && !request.allowSkipped)
        case .junit: writer = JUnitWriter(command: request.command)
        case .csv: writer = CSVWriter(blame: request.blame)
        case .markdown: writer = MarkdownWriter(blame: request.blame, currentDirectory: lookup.currentDirectory)
        }
        switch request.listing {
        case .matches: break
        case .grouped(let key): writer = writer.map { GroupingWriter(inner: $0, key: key, now: request.now) }
        case .counted(let key): writer = CountWriter(key: key, format: request.format, now: request.now)
        }
    }
    // Only these writers show a match's message (its rule's template filled in); the others are spared making it.
    let needsMessages = request.listing == .matches && [.sarif, .github, .junit].contains(request.format)
    // Text and JSON lines need nothing of the run to write a file: each file's report is written by the worker that
    // scanned it, which frees the matches where it made them (`FinishedFile`).
    // With a baseline, each match's line is looked up on this thread, which needs the matches.
    // With blame, the worker asks git after the file's report would be written, and `--older-than` keeps matches by
    // it here; grouping and counting gather every file here.
    let writesOnWorkers: (any ReportWriter & Sendable)? = switch request.format {
    case _ where request.quiet || comparison != nil || request.blame || request.listing != .matches: nil
    case .text: TextWriter(colours: request.colours)
    case .json: JSONLinesWriter()
    case .sarif, .github, .junit, .csv, .markdown: nil
    }
    var output = OutputBuffer()
    // Warnings about skipped files are gathered too, and each buffer is written before the other is added to, so
    // that a terminal shows them in walk order.
    var warnings = OutputBuffer(descriptor: STDERR_FILENO)
    var counts = RunCounts()

    func problem(_ problem: WalkProblem) {
        switch problem.kind {
        case .folder:
            warn("cannot read \(problem.terminalPath): \(problem.reason); its files were not searched")
        case .entry:
            warn("cannot read \(problem.terminalPath): \(problem.reason); it was not searched")
        case .ignoreFile:
            // Not obeying it searches more, never less: a warning, not a failure.
            warn("\(problem.terminalPath) not obeyed: \(problem.reason)")
            return
        case .gitIndex:
            // The reason names the index, whose path a `.git` file of the repository's may give.
            warn("\(terminalText(problem.reason)); the files git tracks under \(problem.terminalPath) that ignore files match "
                + "were not searched")
        }
        walkProblems.append(problem)
        counts.unreadable += 1
        if !isCheck { status = max(status, 1) }
    }

    // Standard input's bytes, which cannot be read again for the lines of its matches.
    var standardInputBytes: [UInt8] = []
    // Which files a baseline's entries could be judged stale in (`BaselineScope`).
    var searchedPaths: Set<String> = []
    var unsearchedPaths: Set<String> = []
    // Why blame could not be had, each said once (a message for every file outside a repository would bury the list).
    var blameProblemsSaid: Set<String> = []
    func blameProblem(of blame: FileBlame, for file: WalkedFile) -> (kind: String, message: String)? {
        switch blame {
        case .notAsked, .lines, .untracked: nil
        case .outsideRepository:
            ("outside", "\(file.terminalPath) is not in a git repository: matches outside one are listed without blame")
        case .gitUnavailable(let reason):
            ("git", "\(terminalText(reason)): matches are listed without blame")
        case .failed(let message):
            ("failed", "git blame failed for \(file.terminalPath): \(terminalText(message)); matches it cannot blame are listed without blame")
        }
    }

    // Each file's report as soon as it and those before it are searched (and blamed), in walk order.
    var position = 0
    /// The configuration of the file at `position` of the walk (the built-in one for what the walk could not read).
    func configurationAtPosition() -> HighlightConfiguration {
        configurationOfItem.indices.contains(position) ? lookup.entries[configurationOfItem[position]].configuration : .builtInOnly
    }
    func report(_ finished: consuming FinishedFile, isStandardInput: Bool = false) {
        var finished = finished
        let blame = finished.blame
        var blames = blame.blames(of: finished.scanned.matches)
        // Standard input has no file for git to blame: its matches carry blame all the same, unknown, so that every
        // match of a run with --blame has the same fields.
        if request.blame, blames.isEmpty { blames = finished.scanned.matches.map { _ in .unknown } }
        if let olderThan = request.olderThan, isCheck, !finished.scanned.matches.isEmpty {
            // A blocking rule's match fails whatever its age; a work item's only when its line is older than the limit.
            let entry = configurationAtPosition()
            // An overdue deadline fails whatever the rule says, as it does without --older-than.
            let kept = finished.scanned.matches.indices.filter { index in
                let rule = finished.scanned.matches[index].ruleIndex
                let blocking = entry.applicability.indices.contains(rule) && entry.applicability[rule].blocking
                let overdue = if finished.fields.indices.contains(index), case .overdue? = finished.fields[index]?.deadline { true } else { false }
                return blocking || overdue
                    || olderThan.isExceeded(by: blames.indices.contains(index) ? blames[index] : .unknown, now: request.now)
            }
            finished.scanned.matches = kept.map { finished.scanned.matches[$0] }
            if !finished.fields.isEmpty { finished.fields = kept.map { finished.fields[$0] } }
            blames = kept.map { blames.indices.contains($0) ? blames[$0] : .unknown }
            finished.matchCount = kept.count
        }
        let result = finished.scanned
        if let baselineIdentity, !isStandardInput, !result.matches.isEmpty, FileIdentity(ofFileAt: result.file.path) == baselineIdentity {
            position += 1
            return
        }
        func warnInOrder(_ message: String) {
            output.flush()
            warnings.append("highlight-ls: \(message)\n")
        }
        if let (kind, message) = blameProblem(of: blame, for: result.file), blameProblemsSaid.insert(kind).inserted {
            warnInOrder(message)
        }
        var skipReason: String?
        switch result.outcome {
        case .skipped(.tooLarge):
            skipReason = "\(describeSize(result.file.size)) > \(describeSize(request.maximumFileSize)) limit"
            // The gate names what it did not read, since that fails it; a list skips it as rg does (`--stats` counts it).
            if isCheck { warnInOrder("skipped \(result.file.terminalPath): \(skipReason ?? ""); name it or pass --max-filesize") }
            counts.tooLarge += 1
        case .skipped(.binary):
            skipReason = "binary (a NUL byte in the first \(describeSize(WorkspaceScanner.binaryCheckBytes)))"
            counts.binary += 1
        case .skipped(.unreadable(let reason)):
            skipReason = "cannot read it: \(reason)"
            warnInOrder("cannot read \(result.file.terminalPath): \(reason); it was not searched")
            counts.unreadable += 1
            if !isCheck { status = max(status, 1) }
        case .skipped(.unchanged):
            counts.unchanged += 1
        case .searched:
            counts.searched += 1
        }
        if result.truncated { warnInOrder("\(result.file.terminalPath): too many matches; only the first \(finished.matchCount) are shown") }
        counts.matches += finished.matchCount
        if finished.matchCount > 0 { counts.filesWithMatches += 1 }
        if !finished.warnings.isEmpty {
            let entry = configurationAtPosition()
            for warning in finished.warnings {
                warnInOrder(warning.message(path: result.file.terminalPath, ruleName: ruleName(warning.match.ruleIndex, in: entry)))
                if warning.fails { deadlineFailures += 1 }
            }
        }
        var baselineStates: [BaselineState] = []
        if comparison != nil {
            switch result.outcome {
            case .searched: searchedPaths.insert(BaselineKey.normalizedPath(result.file.path))
            case .skipped(.binary): break
            case .skipped: unsearchedPaths.insert(BaselineKey.normalizedPath(result.file.path))
            }
        }
        // Left out by --since or --staged: no report names it.
        if case .skipped(.unchanged) = result.outcome {
            position += 1
            return
        }
        if comparison != nil, !result.matches.isEmpty {
            let entry = configurationAtPosition()
            let text = WorkspaceScanner.utf8Text(ofFileBytes: isStandardInput ? standardInputBytes : contents(of: result.file))
            let path = BaselineKey.normalizedPath(result.file.path)
            for match in result.matches {
                let key = BaselineKey(
                    path: path, rule: ruleName(match.ruleIndex, in: entry),
                    text: BaselineKey.normalizedLineText(in: text, at: match.utf8Range.lowerBound, column: match.start.utf8Column))
                baselineStates.append(comparison?.state(of: key) ?? .new)
            }
        }
        if let report = finished.report {
            // The text and JSON writers write nothing for a file without matches.
            if !report.isEmpty { warnings.flush() }
            output.append(report)
            output.flushWhenFull()
        } else if writer != nil {
            warnings.flush()
            let entry = configurationAtPosition()
            // Written, the baseline's matches are all accepted: none is shown as new.
            let states: [BaselineState] = if case .write = request.baseline { [] } else { baselineStates }
            var report = FileReport(
                scanned: result, configuration: entry, skipReason: skipReason,
                messages: needsMessages ? messages(for: result, configuration: entry) : [], baselineStates: states,
                fields: finished.fields, blames: blames)
            report.messages = report.messagesWithDeadlines
            report.deadlineWarnings = finished.warnings
            writer?.file(report, to: &output)
            // Blamed files come slowly, a git process each: each is shown as soon as it is written.
            if request.blame { output.flush() }
        }
        position += 1
    }

    for roots in sources {
        guard roots != [standardInputOperand] else {
            let (item, origin, index) = standardInputItem(named: request.standardInputName, lookup: lookup)
            configurationOfItem.append(index)
            let scanned: ScannedFile
            switch readStandardInput() {
            case .success(let bytes):
                if comparison != nil { standardInputBytes = bytes }
                scanned = WorkspaceScanner.scan(bytes: bytes, as: item.file, origin: origin, configuration: item.configuration, options: options)
            case .failure(let failure):
                scanned = ScannedFile(unreadable: item.file, reason: failure.reason)
            }
            // Standard input is new as a whole, unless it is named as a file of the repository. Its deadlines are
            // not read: its bytes cannot be read again.
            var read = DeadlineReadingResult(scanned: scanned, fields: [], warnings: [])
            read.keepOnly { _ in changedLines.map { lines in request.standardInputName.map { lines.change(ofFileAt: Array($0.utf8)) } ?? .whole } }
            report(FinishedFile(read, of: item, writer: writesOnWorkers), isStandardInput: true)
            continue
        }
        WorkspaceScanner.scan(
            walking: roots,
            walkOptions: WorkspaceWalker.Options(readsFileStatus: false, searchesTrackedFiles: isCheck, globs: request.globs),
            options: options, problem: problem,
            prepare: { file in
                let (index, relativePath) = lookup.configuration(forWalkedFile: file.path, report: reportConfigProblem)
                configurationOfItem.append(index)
                var walked = file
                walked.relativePath = relativePath
                let limit = !namedFiles.isEmpty && namedFiles.contains(file.path) ? Int.max : request.maximumFileSize
                var item = ScanItem(file: walked, shared: lookup.entries[index].shared, maximumFileSize: limit)
                // A file git says is unchanged holds no match that could count: it is not read.
                if let changedLines, changedLines.change(ofFileAt: file.undecodedPath ?? Array(file.path.utf8), folders: &folders) == .unchanged {
                    item.searches = false
                }
                return item
            },
            finish: { [writesOnWorkers, changedLines, blames = request.blame] scanned, item in
                var read = deadlines.read(scanned, item: item)
                read.keepOnly { file in changedLines?.change(ofFileAt: file.undecodedPath ?? Array(file.path.utf8)) }
                var finished = FinishedFile(read, of: item, writer: writesOnWorkers)
                // With blame, the worker that searched a file with matches asks git about their lines: one git
                // process a search thread, while the walk goes on.
                if blames, !finished.scanned.matches.isEmpty {
                    finished.blame = Blaming.blame(
                        path: finished.scanned.file.undecodedPath ?? Array(finished.scanned.file.path.utf8),
                        lineNumbers: finished.scanned.matches.map { $0.start.line + 1 })
                }
                return finished
            },
            deliver: { report($0) })
    }

    // A gate fails closed: what it could not read fails the run unless the user says it may pass.
    let unsearchedCount = counts.tooLarge + counts.unreadable
    let unsearchedFails = isCheck && unsearchedCount > 0 && !request.allowSkipped
    if unsearchedFails { status = 2 }
    warnings.flush()
    for problem in walkProblems {
        let file = WalkedFile(path: problem.path, relativePath: problem.path, size: 0, modificationTime: 0)
        let unread = ScannedFile(unreadable: file, reason: problem.reason)
        let reason = switch problem.kind {
        case .folder: "cannot read the folder: \(problem.reason); its files were not searched"
        case .gitIndex: "\(problem.reason); the tracked files that ignore files match were not searched"
        case .entry, .ignoreFile: "cannot read it: \(problem.reason)"
        }
        writer?.file(FileReport(scanned: unread, configuration: .builtInOnly, skipReason: reason, messages: []), to: &output)
    }

    // The configurations of the searched files; the nested check may load the files above them.
    let usedConfigurations = lookup.entries.map(\.configuration)
    // No file reached the search (globs, ignore files or empty folders left none): no rule was looked at.
    let nothingSearched = configurationOfItem.isEmpty
    let unknownRules = nothingSearched ? [] : unknownRuleNames(request.ruleNames, in: usedConfigurations)
    var nestedForbidden = false
    if isCheck {
        // The nearest file governs alone, so a nested one can leave a blocking rule out: said, and by default a failure.
        for nested in lookup.nestedNarrowings(report: reportConfigProblem) {
            let allowed = nested.policy == .report ? " (allowed by \"nestedConfigs\": \"report\")" : ""
            warn("\(terminalText(nested.nestedFile)) narrows the blocking rule \"\(nested.narrowing.ruleName)\" of "
                + "\(terminalText(nested.outerFile)): it \(nested.narrowing.description)\(allowed)")
            if nested.policy == .forbid { nestedForbidden = true }
        }
    }
    let configProblems = lookup.problemCount > 0 && !request.allowConfigErrors
    var noBlockingRule = false
    if isCheck {
        noBlockingRule = !usedConfigurations.contains { configuration in
            zip(configuration.rules, configuration.applicability).contains { rule, applies in
                (applies.blocking || (request.olderThan != nil && applies.list)) && (options.ruleNames?.contains(rule.name) ?? true)
            }
        }
        // With a baseline, only the matches it does not cover fail; writing one accepts them all.
        let failingMatches = switch request.baseline {
        case .none: counts.matches
        case .compare: comparison?.newCount ?? 0
        case .write: 0
        }
        if failingMatches > 0 || deadlineFailures > 0, status == 0 { status = 1 }
    }
    var staleEntries: [StaleBaselineEntry] = []
    var baselineScope = BaselineScope(roots: [], ruleNames: options.ruleNames, searchedPaths: nil, unsearchedPaths: unsearchedPaths)
    if case .compare = request.baseline, let comparison {
        baselineScope.roots = request.paths.map { path in
            BaselineKey.normalizedPath(path == standardInputOperand ? request.standardInputName ?? "<stdin>" : path)
        }
        if request.globs != nil { baselineScope.searchedPaths = searchedPaths }
        staleEntries = comparison.staleEntries(in: baselineScope)
    }
    // Matches are what `check` is for; the run itself failed only when it could not do its job.
    let failed = status > 1 || (status == 1 && !isCheck) || configProblems || noBlockingRule || nestedForbidden || !unknownRules.isEmpty
    writer?.finish(
        RunSummary(
            command: request.command, matchCount: counts.matches, fileCount: counts.searched, failed: failed,
            staleBaselineEntries: staleEntries),
        to: &output)
    output.flush()

    if isCheck {
        if nothingSearched {
            warn("no file was searched: nothing to check")
            status = 2
        } else if noBlockingRule {
            let sources = lookup.entries.prefix(usedConfigurations.count).compactMap(\.file)
            let where_ = sources.isEmpty ? "the built-in rules" : terminalText(sources.joined(separator: ", "))
            let picked = request.ruleNames.map { " among the rules given to --rule (\($0.joined(separator: ", ")))" } ?? ""
            warn("no rule is marked \"blocking\"\(picked) in \(where_): nothing to check. Mark the rules that must fail the check "
                + "with \"blocking\": true in .highlights.json (highlight-ls init writes an example)")
            status = 2
        } else if !request.quiet {
            // Binary files are named nowhere; the gate's last line says how many it did not search.
            let notRead = (counts.binary > 0 ? [plural(counts.binary, "binary file") + " skipped"] : [])
                + (counts.unchanged > 0 ? [plural(counts.unchanged, "unchanged file") + " not read"] : [])
            let searched = plural(counts.searched, "file") + " searched"
            // Which lines were looked at is part of the verdict.
            var lines = switch request.changeBase {
            case nil: ""
            case .since(let revision)?: "; only lines changed since \(terminalText(revision)) count"
            case .staged?: "; only staged lines count"
            }
            // So does which matches fail: with --older-than, old work items are among them.
            if let olderThan = request.olderThan { lines += "; work items (rules marked \"list\") count when older than \(olderThan.text)" }
            if counts.matches == 0 {
                warn("no blocking matches in \(searched)" + (notRead.isEmpty ? "" : " (" + notRead.joined(separator: ", ") + ")") + lines)
            } else {
                let baselined = switch request.baseline {
                case .none: ""
                case .compare: ", \(comparison?.unchangedCount ?? 0) in the baseline, \(comparison?.newCount ?? 0) new"
                case .write: ", all accepted by the baseline being written"
                }
                warn("\(plural(counts.matches, "blocking match", "blocking matches")) in \(plural(counts.filesWithMatches, "file")) "
                    + "(" + ([searched] + notRead).joined(separator: ", ") + ")" + baselined + lines)
            }
        }
    }
    if unsearchedFails {
        warn("\(plural(unsearchedCount, "file or folder", "files or folders")) that could hold a blocking match "
            + "\(unsearchedCount == 1 ? "was" : "were") not searched (named above); fix that, name the file, raise "
            + "--max-filesize, or pass --allow-skipped to pass without \(unsearchedCount == 1 ? "it" : "them")")
    }
    if nestedForbidden {
        warn("a nested .highlights.json may not narrow a blocking rule of a file above it: repeat the rule there as it "
            + "is, or allow it with \"nestedConfigs\": \"report\" in the file above")
        status = 2
    }
    if configProblems {
        warn("the configuration has \(plural(lookup.problemCount, "problem")); fix \(lookup.problemCount == 1 ? "it" : "them") "
            + "or pass --allow-config-errors")
        status = 2
    }
    if !unknownRules.isEmpty {
        warnUnknownRules(unknownRules, in: usedConfigurations)
        status = 2
    }
    if let comparison { status = finishBaseline(request.baseline, comparison: comparison, stale: staleEntries, scope: baselineScope, status: status) }
    if request.stats { warn(counts.statsLine(elapsed: started.duration(to: .now))) }
    // Quiet, list answers whether something matched, as rg -q does: an error counts only when nothing did.
    if request.quiet, !isCheck, !configProblems, unknownRules.isEmpty {
        status = counts.matches > 0 ? 0 : status > 0 ? 2 : 1
    }
    return status
}

/// Says which baseline entries are stale and writes the baseline that `--write-baseline` or `--prune-baseline` asks
/// for, when the run could do its job; returns the exit code.
func finishBaseline(_ use: BaselineUse, comparison: BaselineComparison, stale: [StaleBaselineEntry], scope: BaselineScope, status: Int32) -> Int32 {
    switch use {
    case .none:
        return status
    case .write(let path):
        // A run that could not read everything would record too little, and the matches left out would fail later.
        guard status < 2 else {
            warn("the baseline \(terminalText(path)) was not written, as the check could not do its job (see above)")
            return status
        }
        do {
            try comparison.recorded.write(to: path)
        } catch {
            warn(error.message)
            return 2
        }
        warn("wrote \(plural(comparison.recorded.counts.count, "baseline entry", "baseline entries")) to \(terminalText(path))")
        return 0
    case .compare(let path, let prunes):
        for entry in stale {
            let times = entry.found == 0 ? "" : " (recorded \(entry.recorded) times, found \(entry.found))"
            warn("stale baseline entry, no longer found\(times): \(terminalText(entry.key.path)): \(terminalText(entry.key.rule)): "
                + terminalText(entry.key.text))
        }
        guard !stale.isEmpty else { return status }
        guard prunes else {
            warn("\(plural(stale.count, "baseline entry", "baseline entries")) of \(terminalText(path)) no longer "
                + "\(stale.count == 1 ? "matches" : "match"); --prune-baseline removes \(stale.count == 1 ? "it" : "them")")
            return status
        }
        guard status < 2 else {
            warn("the baseline \(terminalText(path)) was not pruned, as the check could not do its job (see above)")
            return status
        }
        do {
            try comparison.pruned(in: scope).write(to: path)
        } catch {
            warn(error.message)
            return 2
        }
        warn("pruned \(plural(stale.count, "stale entry", "stale entries")) from \(terminalText(path))")
        return status
    }
}

extension DeadlineReadingResult {
    /// Keeps only the matches (and warnings) that touch a changed line of the file, as `change` tells it of the file
    /// (asked only when there are some); all of them when it tells nil (no `--since` or `--staged`).
    mutating func keepOnly(touching change: (WalkedFile) -> ChangedLines.FileChange?) {
        guard !scanned.matches.isEmpty || !warnings.isEmpty, let change = change(scanned.file) else { return }
        // A match that ends at the start of a line does not touch that line.
        func touches(_ match: LocatedMatch) -> Bool {
            change.touches(lines: match.start.line...max(match.start.line, match.end.utf8Column == 0 ? match.end.line - 1 : match.end.line))
        }
        let kept = scanned.matches.map(touches)
        scanned.matches = zip(scanned.matches, kept).filter(\.1).map(\.0)
        if !fields.isEmpty { fields = zip(fields, kept).filter(\.1).map(\.0) }
        warnings.removeAll { !touches($0.match) }
    }
}

/// Standard input as an item of the run, and where its text comes from: the file `name` would be (its configuration,
/// the path its `files` globs see, its language), or, without a name, a text in the current directory with no path and
/// no language, named `<stdin>`.
func standardInputItem(named name: String?, lookup: ConfigurationLookup) -> (item: ScanItem, origin: TextOrigin, configuration: Int) {
    let index: Int
    let file: WalkedFile
    let origin: TextOrigin
    if let name {
        let (found, relativePath) = lookup.configuration(forFile: name, report: reportConfigProblem)
        index = found
        file = WalkedFile(path: name, relativePath: relativePath, size: 0, modificationTime: 0)
        origin = TextOrigin(guessingLanguageOf: relativePath)
    } else {
        // The configuration of a file directly in the current directory.
        index = lookup.configuration(forFile: "", absoluteFolder: lookup.currentDirectory, report: reportConfigProblem).index
        file = WalkedFile(path: "<stdin>", relativePath: "<stdin>", size: 0, modificationTime: 0)
        origin = TextOrigin(relativePath: nil, languageID: nil)
    }
    return (ScanItem(file: file, shared: lookup.entries[index].shared, maximumFileSize: Int.max), origin, index)
}

/// The bytes of standard input, read to its end.
func readStandardInput() -> Result<[UInt8], ReadFailure> {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count > 0 {
            bytes += chunk[0..<count]
        } else if count == 0 {
            return .success(bytes)
        } else if errno != EINTR {
            return .failure(ReadFailure(reason: FileSystemPath.describeError(errno)))
        }
    }
}

/// A file under any spelling of its path: its device and inode.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64

    /// The identity of the file at `path` (a link followed), or nil when there is none to look at.
    init?(ofFileAt path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
    }
}

/// Why something could not be read ("permission denied").
struct ReadFailure: Error {
    var reason: String
}

/// The names of `--rule` that no configuration of the run has, in the order given.
func unknownRuleNames(_ names: [String]?, in configurations: [HighlightConfiguration]) -> [String] {
    guard let names else { return [] }
    let known = Set(configurations.flatMap { $0.rules.map(\.name) })
    return names.filter { !known.contains($0) }
}

/// Says which `--rule` names are unknown, and the names the run's configurations have.
func warnUnknownRules(_ unknown: [String], in configurations: [HighlightConfiguration]) {
    var known: [String] = []
    for name in configurations.flatMap({ $0.rules.map(\.name) }) where !known.contains(name) { known.append(name) }
    let quoted = unknown.map { "\"\(terminalText($0))\"" }.joined(separator: ", ")
    warn("no rule is named \(quoted); the rules are: \(known.map(terminalText).joined(separator: ", "))")
}

/// Each match's message: the rule's `message` template filled in from the match, else `rule: text`.
func messages(for result: ScannedFile, configuration: HighlightConfiguration) -> [String] {
    guard !result.matches.isEmpty else { return [] }
    let needsText = result.matches.contains { match in
        configuration.details.indices.contains(match.ruleIndex) && configuration.details[match.ruleIndex].message != nil
            && configuration.details[match.ruleIndex].needsCaptures
    }
    // Groups are found again in the file's bytes, which are read a second time only when a template needs them.
    let bytes: [UInt8] = needsText ? WorkspaceScanner.utf8Text(ofFileBytes: contents(of: result.file)) : []
    return bytes.withUnsafeBufferPointer { text in
        result.matches.map { match in
            let name = ruleName(match.ruleIndex, in: configuration)
            guard configuration.details.indices.contains(match.ruleIndex), let template = configuration.details[match.ruleIndex].message else {
                return "\(name): \(match.text)"
            }
            guard needsText, match.utf8Range.upperBound <= text.count else {
                return template.filled { $0 == 0 ? match.text : nil }
            }
            let groups = configuration.captures(of: Match(ruleIndex: match.ruleIndex, utf8Range: match.utf8Range), in: text)
            return template.filled { group in
                guard groups.indices.contains(group), let range = groups[group] else { return nil }
                return String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)
            }
        }
    }
}

/// The bytes of a walked file (by its path on disk), or none when it cannot be read again.
func contents(of file: WalkedFile) -> [UInt8] {
    (try? WorkspaceScanner.fileBytes(of: file).get()) ?? []
}

/// `print`: each file with its highlights, as the editor draws them; returns the exit code.
func runPrintCommand(_ request: ScanRequest) -> Int32 {
    guard let lookup = ConfigurationLookup(explicitPath: request.explicitConfig, report: reportConfigProblem) else {
        warn("cannot use --config \(request.explicitConfig ?? "")")
        return 2
    }
    let names = request.ruleNames.map(Set.init)
    var status: Int32 = 0
    var matched = false
    for path in request.paths {
        let data: [UInt8]
        let index: Int
        let origin: TextOrigin
        let shown: String
        if path == standardInputOperand {
            let standardInput = standardInputItem(named: request.standardInputName, lookup: lookup)
            (index, origin, shown) = (standardInput.configuration, standardInput.origin, standardInput.item.file.terminalPath)
            switch readStandardInput() {
            case .success(let bytes): data = bytes
            case .failure(let failure):
                warn("cannot read \(shown): \(failure.reason)")
                status = max(status, 1)
                continue
            }
        } else {
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                warn("cannot read \(path): no such file or directory")
                status = 2
                continue
            }
            guard !isDirectory else {
                warn("\(path) is a directory; print shows files (list searches directories)")
                status = 2
                continue
            }
            switch WorkspaceScanner.fileBytes(of: WalkedFile(path: path, relativePath: path, size: 0, modificationTime: 0)) {
            case .success(let bytes): data = bytes
            case .failure(let skipped):
                let reason: String
                switch skipped {
                case .unreadable(let why): reason = why
                case .binary, .tooLarge, .unchanged: reason = "not read"  // None is asked for: no size limit, no binary check, no git.
                }
                warn("cannot read \(path): \(reason)")
                status = max(status, 1)
                continue
            }
            let (found, relativePath) = lookup.configuration(forFile: path, report: reportConfigProblem)
            (index, origin, shown) = (found, TextOrigin(guessingLanguageOf: relativePath), path)
        }
        let config = lookup.entries[index].configuration
        // As an editor shows it: UTF-16 and UTF-32 transcoded, invalid UTF-8 replaced (U+FFFD).
        let text = WorkspaceScanner.utf8Text(ofFileBytes: data)
        let rendered = text.withUnsafeBufferPointer { buffer in
            let matches = config.ruleFilter(for: origin, selecting: .all, named: names)
                .matches(of: config.ruleSet, in: buffer)
            if matches.truncated { warn("\(shown): too many matches; only the first \(matches.matches.count) are shown") }
            if !matches.matches.isEmpty { matched = true }
            return request.quiet ? "" : renderANSI(text: buffer, pieces: config.pieces(of: matches.matches, in: buffer), config: config, colours: request.colours)
        }
        writeToStandardOutput(rendered)
    }
    let configProblems = lookup.problemCount > 0 && !request.allowConfigErrors
    if configProblems {
        warn("the configuration has \(plural(lookup.problemCount, "problem")); fix \(lookup.problemCount == 1 ? "it" : "them") "
            + "or pass --allow-config-errors")
        status = 2
    }
    let unknownRules = unknownRuleNames(request.ruleNames, in: lookup.entries.map(\.configuration))
    if !unknownRules.isEmpty {
        warnUnknownRules(unknownRules, in: lookup.entries.map(\.configuration))
        status = 2
    }
    // Quiet, print answers whether something matched, as list -q does.
    if request.quiet, !configProblems, unknownRules.isEmpty {
        status = matched ? 0 : status > 0 ? 2 : 1
    }
    return status
}

/// The text with each piece (a match, a styled group of it, or a colour literal) wrapped in the
/// ANSI escape sequences of its style.
func renderANSI(text: UnsafeBufferPointer<UInt8>, pieces: [MatchPiece], config: HighlightConfiguration, colours: Bool) -> String {
    guard colours else { return String(decoding: text, as: UTF8.self) }
    var out = ""
    var position = 0
    for piece in pieces {
        let range = piece.utf8Range.clamped(to: position..<text.count)
        guard !range.isEmpty else { continue }
        out += String(decoding: UnsafeBufferPointer(rebasing: text[position..<range.lowerBound]), as: UTF8.self)
        let start = ansiStart(config.pieceKind(piece.piece)?.style ?? Style.neutral)
        // Styles are reset at line ends so that a match spanning lines does not colour the margin.
        let matched = String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)
        out += start + matched.replacingEvery("\n", with: "\u{1B}[0m\n" + start) + "\u{1B}[0m"
        position = range.upperBound
    }
    out += String(decoding: UnsafeBufferPointer(rebasing: text[position...]), as: UTF8.self)
    return out
}

/// Whether to colour: `always` and `never` say so; `auto` colours a terminal unless NO_COLOR is set.
func useColours(_ choice: ColorChoice) -> Bool {
    switch choice {
    case .always: return true
    case .never: return false
    case .auto:
        // A terminal first: off one, the environment is not read.
        guard isatty(STDOUT_FILENO) == 1 else { return false }
        if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
        return true
    }
}

/// A file's result as the worker that scanned it leaves it: with a writer that needs nothing of the run (text,
/// JSON lines), its report already written and its matches freed there, on the worker that made them, so that
/// their memory is reused by its next file and the calling thread only copies bytes out in order; else whole,
/// for the writer on the calling thread.
struct FinishedFile: Sendable {
    /// The file's result; without its matches once they are written (`report`).
    var scanned: ScannedFile
    /// Each match's fields (empty when none has any, or once written).
    var fields: [MatchFields?]
    /// What the file's deadlines say on stderr.
    var warnings: [DeadlineWarning]
    /// The report written for the file (empty when it had no matches), or nil when it is the calling thread's to write.
    var report: [UInt8]?
    var matchCount: Int
    /// Who last changed the lines of its matches (`--blame`), asked by the worker that searched it.
    var blame = FileBlame.notAsked

    init(_ read: consuming DeadlineReadingResult, of item: ScanItem, writer: (any ReportWriter & Sendable)?) {
        scanned = read.scanned
        fields = read.fields
        warnings = read.warnings
        matchCount = scanned.matches.count
        guard var writer else { return }
        guard !scanned.matches.isEmpty else {
            report = []
            return
        }
        // A line a match: the path, line, column and rule name, and the text (longer in JSON lines; a report that
        // outgrows this is copied once or twice).
        let perMatch = scanned.file.path.utf8.count + 64
        var output = OutputBuffer(gathering: scanned.matches.reduce(0) { $0 + perMatch + $1.textUTF8.count })
        writer.file(
            FileReport(scanned: scanned, configuration: item.configuration, skipReason: nil, messages: [], fields: fields), to: &output)
        report = output.bytes
        scanned.matches = []
        fields = []
    }
}

/// A configuration problem on stderr, as compilers print theirs: `file:line:column: error: message`.
///
/// The file's path and the message (which may quote the file's text) are escaped for a terminal or a CI log
/// (`terminalText`), and a path that would begin the line with `:` is written `./path`, so that a folder named
/// `::error::…` cannot make a workflow command of the line.
func reportConfigProblem(_ diagnostic: ConfigDiagnostic) {
    var location = terminalText(diagnostic.source)
    if location.hasPrefix(":") { location = "./" + location }
    if let line = diagnostic.line {
        location += ":\(line)"
        if let column = diagnostic.column { location += ":\(column)" }
    }
    let severity = diagnostic.severity == .error ? "error" : "warning"
    writeToStandardError("\(location): \(severity): \(terminalText(diagnostic.message))\n")
}

func writeToStandardOutput(_ string: String) {
    var output = OutputBuffer(descriptor: STDOUT_FILENO)
    output.append(string)
    output.flush()
}

func writeToStandardError(_ string: String) {
    var output = OutputBuffer(descriptor: STDERR_FILENO)
    output.append(string)
    output.flush()
}

func warn(_ message: String) {
    writeToStandardError("highlight-ls: \(message)\n")
}
