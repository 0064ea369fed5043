#if os(Linux)
import CMalloc
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HighlightConfig
import LanguageServer
import WorkspaceScan

// highlight-ls: serve LSP on stdio (the default), or print / list / check files, or write a
// starting configuration. Every argument is read against `CommandLineSpec.highlightLS`.

let spec = CommandLineSpec.highlightLS
let version = ServerInfo.version

/// Prints a usage error with a pointer to the command's help, and gives exit code 2.
func usageFailure(_ error: UsageError, command: CommandSpec) -> Int32 {
    let help = command.name.isEmpty ? "\(spec.program) --help" : "\(spec.program) \(command.name) --help"
    warn("\(error.message)\nSee '\(help)'.")
    return 2
}

/// Runs the command the arguments select; returns the exit code.
func run(_ arguments: [String]) -> Int32 {
    switch arguments.first {
    case "--version", "-V":
        print("highlight-ls \(version)")
        return 0
    case "--help", "-h":
        writeToStandardOutput(spec.overviewHelp(version: version))
        return 0
    case "--generate-man":
        writeToStandardOutput(spec.manPage())
        return 0
    case "--print-schema":
        writeToStandardOutput(configurationSchema)
        return 0
    case "--generate-completions":
        guard arguments.count == 2, let shell = CompletionShell(rawValue: arguments[1]) else {
            warn("--generate-completions needs one of bash, zsh, fish")
            return 2
        }
        writeToStandardOutput(spec.completions(for: shell))
        return 0
    case let word? where spec.command(named: word) != nil:
        guard let command = spec.command(named: word) else { return 2 }
        let parsed: ParsedArguments
        do {
            parsed = try spec.parse(Array(arguments.dropFirst()), for: command)
        } catch {
            return usageFailure(error, command: command)
        }
        if parsed.has("--help") {
            writeToStandardOutput(spec.helpText(for: command, version: version))
            return 0
        }
        return runSubcommand(parsed)
    default:
        let command = spec.serve
        let parsed: ParsedArguments
        do {
            parsed = try spec.parse(arguments, for: command)
        } catch {
            if let first = arguments.first, !first.hasPrefix("-") {
                return usageFailure(UsageError(message: "unknown command \(first)"), command: command)
            }
            return usageFailure(error, command: command)
        }
        if parsed.has("--help") {
            writeToStandardOutput(spec.overviewHelp(version: version))
            return 0
        }
        // Someone who runs the program by hand sees why nothing happens; an editor's pipe is no terminal.
        if isatty(STDIN_FILENO) == 1 {
            warn("waiting for an LSP client on stdin (editors start highlight-ls themselves); to see highlights, run "
                + "'highlight-ls print FILE' or 'highlight-ls list [PATH]' ('highlight-ls --help' for more, Ctrl-D to stop)")
        }
        return StdioRunner.run(clientProcessID: parsed.value("--clientProcessId").flatMap { Int32($0) })
    }
}

/// Keeps memory that a one-shot command frees for its own reuse: large blocks (the matches of a file, a read
/// buffer) come from the heap instead of a mapping of their own, and the heap is not trimmed, so the next file's
/// arrays land on pages already touched instead of fresh ones faulted in and zeroed, and unmapped after: a run
/// with many matches spends less time in the kernel. Not for the server, which gives memory back.
func keepFreedMemoryForReuse() {
    #if os(Linux)
    _ = mallopt(M_MMAP_THRESHOLD, 256 << 20)
    _ = mallopt(M_TRIM_THRESHOLD, Int32.max)
    #endif
}

/// The commands besides serving LSP, by the word that names them.
enum Subcommand: String {
    case print, list, check, `init`, `import`, help
}

/// `print`, `list`, `check`, `init`, `import` and `help`.
func runSubcommand(_ parsed: ParsedArguments) -> Int32 {
    keepFreedMemoryForReuse()
    let colour = useColours(parsed.value("--color").flatMap(ColorChoice.init(rawValue:)) ?? .auto)
    guard let subcommand = Subcommand(rawValue: parsed.command.name) else {
        return usageFailure(UsageError(message: "unknown command \(parsed.command.name)"), command: parsed.command)
    }
    let scanCommand: ScanCommand
    switch subcommand {
    case .help:
        guard let name = parsed.operands.first else {
            writeToStandardOutput(spec.overviewHelp(version: version))
            return 0
        }
        guard let command = spec.command(named: name) else {
            return usageFailure(UsageError(message: "no command \(name)"), command: parsed.command)
        }
        writeToStandardOutput(spec.helpText(for: command, version: version))
        return 0
    case .`init`:
        guard parsed.operands.count <= 1 else {
            return usageFailure(UsageError(message: "init takes one directory"), command: parsed.command)
        }
        return runInitCommand(directory: parsed.operands.first ?? ".", force: parsed.has("--force"))
    case .`import`:
        guard parsed.operands.count == 1 else {
            return usageFailure(UsageError(message: "import takes one settings file"), command: parsed.command)
        }
        return runImportCommand(ImportRequest(
            path: parsed.operands[0], source: parsed.value("--from").flatMap(ImportSource.init(rawValue:)), writes: parsed.has("--write")))
    case .print: scanCommand = .print
    case .list: scanCommand = .list
    case .check: scanCommand = .check
    }
    let paths = parsed.operands.isEmpty ? ["."] : parsed.operands
    // Standard input can be read once, and `--stdin-filename` names it, so it needs it among the paths.
    let standardInputs = paths.filter { $0 == standardInputOperand }.count
    if standardInputs > 1 {
        return usageFailure(UsageError(message: "- (standard input) can be named once"), command: parsed.command)
    }
    if parsed.value("--stdin-filename") != nil, standardInputs == 0 {
        return usageFailure(UsageError(message: "--stdin-filename names standard input, but - is not among the paths"), command: parsed.command)
    }
    var format = parsed.value("--format").flatMap(OutputFormat.init(rawValue:)) ?? .text
    if parsed.has("--json") {
        if parsed.value("--format") != nil, format != .json {
            return usageFailure(UsageError(message: "--json and --format \(format.rawValue) disagree"), command: parsed.command)
        }
        format = .json
    }
    let baseline: BaselineUse
    switch (parsed.value("--baseline"), parsed.value("--write-baseline")) {
    case (let compared?, nil): baseline = .compare(path: compared, prunes: parsed.has("--prune-baseline"))
    case (nil, let written?) where !parsed.has("--prune-baseline"): baseline = .write(path: written)
    case (nil, nil) where !parsed.has("--prune-baseline"): baseline = .none
    case (_?, _?):
        return usageFailure(UsageError(message: "--baseline and --write-baseline cannot be given together"), command: parsed.command)
    default:
        return usageFailure(UsageError(message: "--prune-baseline needs --baseline FILE"), command: parsed.command)
    }
    var changeBase: ChangeBase?
    switch (parsed.value("--since"), parsed.has("--staged")) {
    case (let revision?, false): changeBase = .since(revision)
    case (nil, true): changeBase = .staged
    case (nil, false): changeBase = nil
    case (_?, true): return usageFailure(UsageError(message: "--since and --staged cannot be given together"), command: parsed.command)
    }
    if let changeBase, case .write = baseline {
        let option = changeBase == .staged ? "--staged" : "--since"
        return usageFailure(
            UsageError(message: "--write-baseline records every blocking match, so it cannot be given with \(option)"), command: parsed.command)
    }
    let olderThan: AgeLimit?
    switch parsed.value("--older-than") {
    case nil: olderThan = nil
    case let text?:
        guard let limit = AgeLimit(text) else {
            return usageFailure(
                UsageError(message: "--older-than needs a number and a unit, d, w, m (30 days) or y (365 days), as in 180d; not \"\(text)\""),
                command: parsed.command)
        }
        olderThan = limit
    }
    let groupKey = parsed.value("--group-by").flatMap(GroupKey.init(rawValue:))
    let listing: Listing = parsed.has("--count") ? .counted(by: groupKey ?? .rule) : groupKey.map { .grouped(by: $0) } ?? .matches
    if listing != .matches, [.sarif, .github, .junit].contains(format) {
        let option = parsed.has("--count") ? "--count" : "--group-by"
        return usageFailure(UsageError(message: "\(option) writes text, json, csv or markdown, not \(format.rawValue)"), command: parsed.command)
    }
    var today = CalendarDay.today()
    if let written = parsed.value("--today") {
        guard let day = CalendarDay(written) else {
            return usageFailure(UsageError(message: "--today \(written) is not a day: write YYYY-MM-DD, a day that exists"), command: parsed.command)
        }
        today = day
    }
    // Ages are measured from now, or from the start of the day --today gives (midnight UTC), so that tests do not move.
    let now = parsed.value("--today") == nil ? Int64(time(nil)) : today.startSecondsSince1970
    var request = ScanRequest(
        command: scanCommand, paths: paths, format: format,
        colours: colour, maximumFileSize: parsed.value("--max-filesize").flatMap(parseSize) ?? ScanOptions().maximumFileSize,
        allowConfigErrors: parsed.has("--allow-config-errors"), allowSkipped: parsed.has("--allow-skipped"),
        explicitConfig: parsed.value("--config"), globs: parsed.values["--glob"].map(WalkGlobs.init),
        ruleNames: parsed.values["--rule"], standardInputName: parsed.value("--stdin-filename"),
        quiet: parsed.has("--quiet"), stats: parsed.has("--stats"), baseline: baseline,
        changeBase: changeBase,
        blame: parsed.has("--blame") || olderThan != nil || (listing.groupKey?.needsBlame ?? false), olderThan: olderThan,
        listing: listing, now: now)
    request.today = today
    if let threads = parsed.value("--threads").flatMap({ Int($0) }) {
        guard threads >= 0 else {
            return usageFailure(UsageError(message: "--threads needs 0 (one a core) or more, not \(threads)"), command: parsed.command)
        }
        if threads > 0 { request.threads = threads }
    }
    return scanCommand == .print ? runPrintCommand(request) : runScanCommand(request)
}

exit(run(Array(CommandLine.arguments.dropFirst())))
