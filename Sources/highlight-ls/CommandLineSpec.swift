// The one description of the command line. The parser, `--help`, the man page and the shell
// completions are all made from `CommandLineSpec.highlightLS`, so they cannot drift apart:
//
//     CommandLineSpec ──▶ parse(_:)                     what the program accepts
//                     ├─▶ helpText(for:)                 `highlight-ls list --help`
//                     ├─▶ manPage()                      docs/highlight-ls.1 (`--generate-man`)
//                     └─▶ completions(for: .bash/...)    `--generate-completions bash|zsh|fish`

/// What kind of value an option or operand takes; completions offer candidates by kind.
enum ValueKind: Equatable {
    /// A file path.
    case file
    /// A directory path.
    case directory
    /// A file or directory path.
    case path
    /// One of a fixed list of words.
    case choice([String])
    /// A whole number.
    case number
    /// A size in bytes, with an optional K, M or G suffix.
    case size
    /// A shell name for completions.
    case shell
    /// Free text, such as a glob or a rule name; completions offer nothing.
    case text
}

/// An option such as `--config FILE` or `--json`.
struct OptionSpec {
    /// The long name, with its dashes: `--config`.
    var name: String
    /// The one-letter name, with its dash (`-g`), when the option has one.
    var short: String? = nil
    /// The value's placeholder (`FILE`) and kind; nil for a flag.
    var value: (placeholder: String, kind: ValueKind)?
    /// One sentence for `--help`, the man page and completions.
    var summary: String
    /// Whether each use adds a value (`--glob`), rather than the last one winning.
    var repeatable = false
    /// Left out of `--help`, the man page's option lists and completions' offers (still accepted).
    var hidden = false

    /// `-g, --glob GLOB`: the names and the placeholder, as help and the man page head the option.
    var heading: String {
        (short.map { "\($0), " } ?? "") + name + (value.map { " " + $0.placeholder } ?? "")
    }

    /// The words a shell should offer for the value, when it is a choice.
    var choices: [String] {
        switch value?.kind {
        case .choice(let words)?: return words
        case .shell?: return CompletionShell.allCases.map(\.rawValue)
        default: return []
        }
    }
}

/// A subcommand such as `list`, or the top level (name "") that serves LSP.
struct CommandSpec {
    /// The word that selects the command ("" for the top level).
    var name: String
    /// One line for the command list and the man page's NAME-like summary.
    var summary: String
    /// The operands' placeholder (`PATH...`), nil when the command takes none.
    var operands: (placeholder: String, kind: ValueKind, required: Bool)?
    /// The command's options, in the order `--help` lists them.
    var options: [OptionSpec]
    /// Paragraphs for `--help` and the man page, after the usage line.
    var details: [String]

    /// `highlight-ls list [OPTIONS] [PATH...]`.
    var usage: String {
        var words = ["highlight-ls"]
        if !name.isEmpty { words.append(name) }
        if options.contains(where: { !$0.hidden }) { words.append("[OPTIONS]") }
        if let operands { words.append(operands.required ? operands.placeholder : "[\(operands.placeholder)]") }
        return words.joined(separator: " ")
    }

    /// The option called `name` (long or short), hidden ones included.
    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name || $0.short == name }
    }
}

/// The whole command line: the commands, and what the man page says around them.
struct CommandLineSpec {
    var program: String
    var summary: String
    var commands: [CommandSpec]
    /// Options accepted before any command word (`--version`, `--help`, and hidden generators).
    var globalOptions: [OptionSpec]
    var exitStatus: [(code: String, meaning: String)]
    var environment: [(name: String, meaning: String)]
    var files: [(name: String, meaning: String)]
    var examples: [(title: String, command: String)]

    /// The command selected by `word`, if any.
    func command(named word: String) -> CommandSpec? {
        commands.first { $0.name == word && !word.isEmpty }
    }

    /// The top level: serving LSP.
    var serve: CommandSpec {
        commands.first { $0.name.isEmpty } ?? CommandSpec(name: "", summary: "", operands: nil, options: [], details: [])
    }
}

/// The shells `--generate-completions` writes for.
enum CompletionShell: String, CaseIterable {
    case bash, zsh, fish
}

/// The output formats of `list` and `check`.
enum OutputFormat: String, CaseIterable {
    case text, json, sarif, github, junit, csv, markdown
}

/// When to colour output.
enum ColorChoice: String, CaseIterable {
    case auto, always, never
}

extension CommandLineSpec {
    private static let config = OptionSpec(
        name: "--config", value: ("FILE", .file),
        summary: "Use FILE for every file searched, instead of the nearest .highlights.json of each file. Its files globs "
            + "match paths relative to the current directory.")
    private static let allowConfigErrors = OptionSpec(
        name: "--allow-config-errors",
        summary: "Report configuration problems but do not fail because of them (rules with errors are left out).")
    private static let color = OptionSpec(
        name: "--color", value: ("WHEN", .choice(ColorChoice.allCases.map(\.rawValue))),
        summary: "Colour the output: auto (on a terminal, unless NO_COLOR is set), always or never.")
    private static let format = OptionSpec(
        name: "--format", value: ("FORMAT", .choice(OutputFormat.allCases.map(\.rawValue))),
        summary: "The output format: text (path:line:column: rule: text), json (one object per line), sarif (SARIF 2.1.0), "
            + "github (workflow commands that annotate the lines), junit (JUnit XML, one test case per file), csv (a header "
            + "row, then a row per match, RFC 4180) or markdown (a table, its locations linked to the files by paths relative "
            + "to the current directory).")
    private static let json = OptionSpec(name: "--json", summary: "The same as --format json.")
    private static let maxFilesize = OptionSpec(
        name: "--max-filesize", value: ("SIZE", .size),
        summary: "Skip (and name on stderr) files over SIZE bytes found in directories; K, M and G suffixes count 1024s "
            + "(default 8M). Files named on the command line are searched whatever their size.")
    private static let allowSkipped = OptionSpec(
        name: "--allow-skipped",
        summary: "Pass although files that could hold a blocking match were not searched (over the size limit, or "
            + "unreadable); they are still named on stderr.")
    private static let glob = OptionSpec(
        name: "--glob", short: "-g", value: ("GLOB", .text),
        summary: "Walk only what GLOB allows (repeatable), as rg -g does. A file is searched when the last glob that "
            + "matches its path from the folder searched has no !, or when none matches and every glob has one; a file or "
            + "folder that a !GLOB matches last is left out. A GLOB without / matches a name at any depth. Files named on "
            + "the command line are searched whatever the globs; hidden and ignored files stay out.",
        repeatable: true)
    private static let rule = OptionSpec(
        name: "--rule", value: ("NAME", .text),
        summary: "Report only the matches of the rule NAME (repeatable). The other rules are left out before overlaps are "
            + "resolved, so none of them hides a match of NAME. A NAME that no configuration of the run has exits 2 "
            + "and lists the names there are.",
        repeatable: true)
    private static let stdinFilename = OptionSpec(
        name: "--stdin-filename", value: ("PATH", .file),
        summary: "Search standard input (the operand -) as if it were the file PATH: with the configuration that governs "
            + "PATH, its files globs and the language of PATH's name, and named PATH in the output. Without it, standard "
            + "input has the current directory's configuration and no language, and is named <stdin>.")
    private static let stats = OptionSpec(
        name: "--stats",
        summary: "At the end, write one line to stderr: the files searched, the matches, the files skipped by kind "
            + "(binary, over the size limit, unreadable) and the time taken.")
    private static let listQuiet = OptionSpec(
        name: "--quiet", short: "-q",
        summary: "Write nothing to stdout, whatever the format. Exit 0 when something matched, 1 when nothing did, and 2 "
            + "when something could not be read and nothing matched, as rg -q does; messages still go to stderr.")
    private static let checkQuiet = OptionSpec(
        name: "--quiet", short: "-q",
        summary: "Write no matches and no count, whatever the format. Only the exit code says what check found; errors "
            + "still go to stderr.")
    private static let printQuiet = OptionSpec(
        name: "--quiet", short: "-q",
        summary: "Write nothing to stdout. Exit 0 when some file has a match, 1 when none has, and 2 when a file could "
            + "not be read and none matched.")
    private static let baseline = OptionSpec(
        name: "--baseline", value: ("FILE", .file),
        summary: "Fail only on blocking matches that the baseline FILE (written by --write-baseline) does not cover. Its "
            + "entries that no longer match are named on stderr and pass. A FILE that is missing or damaged exits 2.")
    private static let writeBaseline = OptionSpec(
        name: "--write-baseline", value: ("FILE", .file),
        summary: "Record the blocking matches found in FILE, replaced atomically, and pass; commit it and check with "
            + "--baseline FILE.")
    private static let pruneBaseline = OptionSpec(
        name: "--prune-baseline",
        summary: "With --baseline FILE: write FILE again without the entries that no longer match (and with counts "
            + "lowered to the matches found); never adds an entry.")
    private static let since = OptionSpec(
        name: "--since", value: ("REF", .text),
        summary: "Report only matches on lines added or changed since the branch left REF (from the merge base of REF and "
            + "HEAD, uncommitted changes included), as git diff reports them; files git does not track and does not ignore "
            + "are new as a whole. Needs git and a history that reaches the merge base.")
    private static let staged = OptionSpec(
        name: "--staged",
        summary: "Report only matches on lines that the staged changes add or change (git diff --cached), as a pre-commit "
            + "hook sees them; line numbers are those of the staged text.")
    private static let threads = OptionSpec(
        name: "--threads", short: "-j", value: ("N", .number),
        summary: "Search with N threads, as rg -j does (default, and 0: one a core). With 1 no thread is started: each "
            + "file is searched as the walk finds it. print shows one file at a time, whatever N.")
    private static let today = OptionSpec(
        name: "--today", value: ("YYYY-MM-DD", .text),
        summary: "Judge the deadlines written with markers (TODO(2026-03-01)) as on this day, instead of the local date, "
            + "for runs that must give the same answer tomorrow.")
    private static let help = OptionSpec(name: "--help", short: "-h", summary: "Show this help and exit.")
    private static let blame = OptionSpec(
        name: "--blame",
        summary: "Add to each match who last changed its line, from git blame --porcelain run in the file's own folder (so "
            + "nested repositories and submodules blame their own files): the author, email, author date (author-time in "
            + "the author's zone, ISO 8601) and commit. A line changed in the working tree, or a file git does not track, "
            + "is not committed yet. Outside a repository, or without git, this is said once on stderr and the matches are "
            + "listed without blame. text adds (commit author <email> date); json a \"blame\" object; sarif a blame "
            + "property; csv and markdown blame columns.")
    private static let olderThan = OptionSpec(
        name: "--older-than", value: ("AGE", .text),
        summary: "Also search the rules marked \"list\" (the built-in fixme, todo, hack and task), and fail on those of "
            + "their matches whose line's author date is more than AGE ago: a number and a unit, d (days), w (weeks), m "
            + "(30 days) or y (365 days), as in 180d. Blocking rules fail whatever the age; lines not committed yet are "
            + "never old. Implies --blame.")
    private static let count = OptionSpec(
        name: "--count",
        summary: "Write how many matches each rule has (each group with --group-by) instead of the matches, most first: "
            + "name count lines in text, one object in json, a table in csv and markdown.")
    private static let groupBy = OptionSpec(
        name: "--group-by", value: ("KEY", .choice(GroupKey.allCases.map(\.rawValue))),
        summary: "Write the matches group by group: by rule, owner (written in the marker, TODO(alice)) or author (largest "
            + "group first), file (walk order) or age "
            + "(newest first: not committed yet, less than a week, a month, 3 months, a year, a year or more). text and "
            + "markdown head each group; json and csv give its matches in group order. author and age imply --blame. "
            + "Not with sarif, github or junit.")

    /// The command line of highlight-ls.
    static let highlightLS = CommandLineSpec(
        program: "highlight-ls",
        summary: "highlight TODO, FIXME, ticket ids and your own words in any LSP editor, and check files for them in CI",
        commands: [
            CommandSpec(
                name: "", summary: "Serve the Language Server Protocol on stdin and stdout (the default).",
                operands: nil,
                options: [
                    OptionSpec(name: "--stdio", summary: "Talk LSP over stdin and stdout (the default; accepted for editors that pass it)."),
                    OptionSpec(
                        name: "--clientProcessId", value: ("PID", .number),
                        summary: "Exit within a few seconds of the process PID ending (the editor's processId does the same)."),
                    help,
                ],
                details: [
                    "Editors start highlight-ls without arguments and talk to it over stdin and stdout. stdout carries "
                        + "protocol messages only; logs go to stderr. Started by hand on a terminal, it says on stderr that it "
                        + "waits for an LSP client and what to run instead, and serves all the same (Ctrl-D ends it).",
                ]),
            CommandSpec(
                name: "print", summary: "Show files with their highlights in ANSI colours, as an editor draws them.",
                operands: ("FILE...", .file, true),
                options: [config, rule, color, printQuiet, stdinFilename, threads, allowConfigErrors, help],
                details: [
                    "Each FILE is shown with its matches drawn in their styles, capture groups in their own styles and "
                        + "colour literals in their colour, with the configuration that governs the file. A FILE of - is "
                        + "standard input (see --stdin-filename).",
                ]),
            CommandSpec(
                name: "list", summary: "Print every match as path:line:column: rule: text.",
                operands: ("PATH...", .path, false),
                options: [
                    config, glob, rule, since, staged, today, format, json, color, listQuiet, stats, maxFilesize, stdinFilename,
                    threads, allowConfigErrors, blame, count, groupBy, help,
                ],
                details: [
                    "list prints the matches of every rule, as the editor highlights them; the editors' workspace list "
                        + "shows only the rules marked \"list\" (the built-in fixme, todo, hack and task). --rule picks rules.",
                    "Directories are walked as the editor's workspace list walks them: hidden entries and .git are skipped, "
                        + ".gitignore and .ignore files are obeyed, symbolic links are not followed, files over the size limit "
                        + "and binary files (a NUL byte in the first 8 KiB) are skipped silently, as rg skips them (--stats "
                        + "counts them). Files in UTF-16 or UTF-32 with a byte order mark "
                        + "are searched in their UTF-8 transcoding, and positions are those of that text. A file or folder "
                        + "that cannot be read is named on stderr with the reason, and list exits 1. A name that is not valid "
                        + "UTF-8 is searched like any other and shown with each byte that is not UTF-8 as \\xNN (and its "
                        + "backslashes as \\\\); in text and github output, control characters in names and matched texts are "
                        + "shown as \\xNN too. PATH defaults to the current directory; a PATH of - is standard input "
                        + "(see --stdin-filename).",
                    "Lines and columns are 1-based; the column counts bytes, as grep and rg do (json and sarif also give "
                        + "UTF-16 positions).",
                ]),
            CommandSpec(
                name: "check", summary: "Print the matches of rules marked \"blocking\"; fail when there are any.",
                operands: ("PATH...", .path, false),
                options: [
                    config, glob, rule, since, staged, today, format, json, color, checkQuiet, stats, maxFilesize, stdinFilename,
                    threads, allowConfigErrors, allowSkipped, baseline, writeBaseline, pruneBaseline, blame, olderThan, help,
                ],
                details: [
                    "For CI: exits 1 when a blocking rule matches, 0 when none does. A configuration problem, a path, "
                        + "a file or folder that cannot be read or a file over the size limit (each named on stderr with "
                        + "the reason, and unless --allow-skipped), a configuration with no blocking rule, or a nested "
                        + ".highlights.json that switches off or narrows a blocking rule of the one above it (unless that "
                        + "one says \"nestedConfigs\": \"report\") exits 2, so nothing that could hold a blocking match "
                        + "is skipped silently. Files are walked as for list, except that inside a git repository the files "
                        + "git tracks are searched even where an ignore file matches them (read from the git index; git is "
                        + "never run). Binary files are skipped, and counted in the last line on stderr. PATH defaults to "
                        + "the current directory; a PATH of - is standard input (see --stdin-filename).",
                    "A baseline lets a gate be adopted on a codebase that already has blocking matches: --write-baseline "
                        + "records them, and --baseline fails only on the others. An entry is the rule, the path as check "
                        + "prints it (without a leading ./) and the match's line, trimmed and with each run of whitespace "
                        + "one space, with a count: lines added above, a block moved or re-indented stay covered, and a "
                        + "second identical line in the same file is new. Run check from the same folder each time, so "
                        + "that paths compare. Text output shows only the new matches and ends with how many the baseline "
                        + "covered; json gives each match \"baseline\": \"new\" or \"unchanged\"; sarif sets "
                        + "baselineState (stale entries are results whose state is absent); github annotates only new "
                        + "matches; junit fails a file only for new ones.",
                ]),
            CommandSpec(
                name: "init", summary: "Write a commented .highlights.json to start from.",
                operands: ("DIRECTORY", .directory, false),
                options: [
                    OptionSpec(name: "--force", summary: "Replace an existing .highlights.json."),
                    help,
                ],
                details: [
                    "Writes DIRECTORY/.highlights.json (DIRECTORY defaults to the current directory) with a blocking rule "
                        + "for DO NOT MERGE, and the built-in rules as comments, each exactly as built in, to copy and change. "
                        + "Its $schema is ./.highlights.schema.json, for editors that check the file: write that file with "
                        + "highlight-ls --print-schema > .highlights.schema.json (init writes nothing else).",
                    "The file is written to a new file in DIRECTORY, flushed and renamed over the old one, so a failure "
                        + "(a full disk) leaves the old file as it was. A symbolic link, directory, FIFO or device of that "
                        + "name is refused, never written through.",
                ]),
            CommandSpec(
                name: "import", summary: "Print another highlighter's settings as a .highlights.json.",
                operands: ("FILE", .file, true),
                options: [
                    OptionSpec(
                        name: "--from", value: ("TOOL", .choice(ImportSource.allCases.map(\.rawValue))),
                        summary: "Read FILE as the settings of TOOL: vscode (a settings.json with vscode-highlight, Todo Tree or "
                            + "TODO Highlight settings), todo-comments (a Lua file calling require(\"todo-comments\").setup) or "
                            + "hl-todo (an Emacs init file setting hl-todo-keyword-faces). Without it, FILE's name decides: "
                            + ".json or .jsonc, .lua, .el or .emacs."),
                    OptionSpec(
                        name: "--write",
                        summary: "Add the rules to ./.highlights.json instead of printing (made when there is none), keeping "
                            + "its comments and layout; a rule whose name the file has already is not added, and is named on stderr."),
                    help,
                ],
                details: [
                    "Prints a commented .highlights.json to stdout, one rule per keyword, tag or regex of FILE, each under a "
                        + "comment that says where it came from. Whatever cannot be carried over as it was is named on stderr, one "
                        + "line each, as FILE:LINE:COLUMN: cannot carry over X: reason; nearest: Y, saying whether the nearest "
                        + "was used or the rule was left out. A regex with look-around or a backreference, which RE2 cannot run, "
                        + "is never rewritten to mean something else: it is left out and named. Every rule printed has been "
                        + "read back as highlight-ls loads configuration.",
                    "Exits 0 when everything was carried over as it was, 1 when something was named on stderr (the rest is "
                        + "printed or written all the same), and 2 when FILE cannot be read, holds no settings of the tool, or "
                        + "./.highlights.json cannot be written. --write writes as init does: to a new file renamed over the old "
                        + "one, never through a symbolic link.",
                ]),
            CommandSpec(
                name: "help", summary: "Show the help of a command.",
                operands: ("COMMAND", .choice(["print", "list", "check", "init", "import"]), false),
                options: [help],
                details: []),
        ],
        globalOptions: [
            OptionSpec(name: "--version", short: "-V", summary: "Print the version and exit."),
            OptionSpec(name: "--help", short: "-h", summary: "Show the help and exit."),
            OptionSpec(
                name: "--print-schema",
                summary: "Print the JSON Schema of .highlights.json (built in from schema/highlights.schema.json of the "
                    + "sources) and exit; highlight-ls init points $schema at ./.highlights.schema.json, where it can go."),
            OptionSpec(
                name: "--generate-completions", value: ("SHELL", .shell),
                summary: "Print the completion script for bash, zsh or fish.", hidden: true),
            OptionSpec(name: "--generate-man", summary: "Print the man page (roff).", hidden: true),
        ],
        exitStatus: [
            ("0", "Success; for check, no blocking match; for list -q and print -q, something matched."),
            ("1", "check: a blocking rule matched (with --baseline, one the baseline does not cover). list and print: a file or folder could not be read; with -q, nothing "
                + "matched. The server: it stopped without shutdown."),
            ("2", "Bad arguments, a missing path, a --rule NAME that no configuration of the run has, a configuration with "
                + "problems (unless --allow-config-errors), check with no blocking rule, check unable to read a file or "
                + "folder or skipping one over the size limit (unless --allow-skipped), check finding a nested "
                + ".highlights.json that narrows a blocking rule (unless \"nestedConfigs\": \"report\"), a --baseline FILE "
                + "that is missing or damaged or a baseline that cannot be written, or list -q and "
                + "print -q unable to read something where nothing matched."),
        ],
        environment: [
            ("NO_COLOR", "When set and not empty, --color auto does not colour."),
        ],
        files: [
            (".highlights.json", "The configuration. For each file, the nearest .highlights.json in its folder or above, "
                + "up to the repository root (a folder holding .git), is used on top of the built-in rules, and its files "
                + "globs match paths relative to the folder that holds it, as in the editor."),
        ],
        examples: [
            ("Fail a CI job on DO NOT MERGE, with annotations on the lines:", "highlight-ls check --format github"),
            ("Write SARIF for code scanning:", "highlight-ls check --format sarif > highlights.sarif"),
            ("Accept today's blocking matches and fail only on new ones:",
             "highlight-ls check --write-baseline .highlights-baseline.json && highlight-ls check --baseline .highlights-baseline.json"),
            ("List every TODO and FIXME of a project as JSON lines:", "highlight-ls list --format json src"),
            ("List the TODOs of the Python files outside tests:", "highlight-ls list --rule todo -g '*.py' -g '!tests/'"),
            ("Count the work items of each author:", "highlight-ls list --count --group-by author"),
            ("Fail on TODOs and FIXMEs committed more than half a year ago:", "highlight-ls check --older-than 180d"),
            ("Check the staged text of a file, with that file's configuration:",
             "git show :src/app.py | highlight-ls check --stdin-filename src/app.py -"),
            ("Show a file with its highlights in a pager:", "highlight-ls print --color always main.swift | less -R"),
            ("Start from the Todo Tree or TODO Highlight settings of VS Code:",
             "highlight-ls import ~/.config/Code/User/settings.json > .highlights.json"),
        ])
}
