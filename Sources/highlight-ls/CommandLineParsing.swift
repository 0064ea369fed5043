// Parsing a command's arguments against its `CommandSpec`: `--name value`, `--name=value`,
// flags, `--` before operands that start with a dash, and every value checked by its kind, so
// that a typo is an error with the command's usage rather than something silently ignored.

/// A command's arguments after parsing.
struct ParsedArguments {
    /// The command they belong to.
    var command: CommandSpec
    /// The values of each option that takes one, by name, in the order given.
    var values: [String: [String]] = [:]
    /// The flags given, by name.
    var flags: Set<String> = []
    /// The operands, in order.
    var operands: [String] = []

    /// Whether the flag `name` was given.
    func has(_ name: String) -> Bool { flags.contains(name) }

    /// The value of the option `name`: the last one given, when it was given.
    func value(_ name: String) -> String? { values[name]?.last }
}

/// Why arguments were refused: a message for stderr, always followed by a pointer to `--help`.
struct UsageError: Error {
    var message: String
}

extension CommandLineSpec {
    /// Parses `arguments` (after the command word) for `command`.
    func parse(_ arguments: [String], for command: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments(command: command)
        let commandName = command.name.isEmpty ? program : "\(program) \(command.name)"
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                guard command.operands != nil else {
                    throw UsageError(message: "\(commandName) takes no operands, but was given \(argument)")
                }
                parsed.operands.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = command.option(named: name) else {
                let known = command.options.filter { !$0.hidden }.map(\.name)
                let suggestion = closest(to: name, among: known).map { "; did you mean \($0)?" } ?? ""
                throw UsageError(message: "unknown option \(name) for \(commandName)\(suggestion)")
            }
            guard let (placeholder, kind) = option.value else {
                guard inlineValue == nil else { throw UsageError(message: "\(name) takes no value") }
                parsed.flags.insert(option.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else { throw UsageError(message: "\(name) needs a value (\(placeholder))") }
                value = arguments[index]
                index += 1
            }
            try check(value, of: option, kind: kind)
            parsed.values[option.name, default: []].append(value)
        }
        if let operands = command.operands, operands.required, parsed.operands.isEmpty, !parsed.has("--help") {
            throw UsageError(message: "\(commandName) needs at least one \(operands.placeholder.replacingEvery("...", with: ""))")
        }
        return parsed
    }

    /// Refuses a value that its kind does not allow.
    private func check(_ value: String, of option: OptionSpec, kind: ValueKind) throws(UsageError) {
        switch kind {
        case .choice(let words) where !words.contains(value):
            throw UsageError(message: "\(option.name) must be one of \(words.joined(separator: ", ")), not \"\(value)\"")
        case .shell where CompletionShell(rawValue: value) == nil:
            throw UsageError(message: "\(option.name) must be one of bash, zsh, fish, not \"\(value)\"")
        case .number where Int32(value) == nil:
            throw UsageError(message: "\(option.name) needs a whole number, not \"\(value)\"")
        case .size where parseSize(value) == nil:
            throw UsageError(message: "\(option.name) needs a size such as 8M, 500K or 1048576, not \"\(value)\"")
        case .file, .directory, .path:
            if value.isEmpty { throw UsageError(message: "\(option.name) needs a path, not an empty string") }
        case .text:
            if value.isEmpty { throw UsageError(message: "\(option.name) needs a value, not an empty string") }
        default:
            break
        }
    }

    /// The known name closest to `name` by edit distance, when it is close enough to be a typo.
    private func closest(to name: String, among known: [String]) -> String? {
        let scored = known.map { ($0, editDistance(Array(name.utf8), Array($0.utf8))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, name.count / 3) else { return nil }
        return best.0
    }
}

/// A size in bytes: digits with an optional K, M, G (or KiB, MiB, GiB, KB, MB, GB) suffix, each a power of 1024.
func parseSize(_ text: String) -> Int? {
    let digits = text.prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty, let number = Int(digits) else { return nil }
    let suffix = text.dropFirst(digits.count).uppercased()
    let shift: Int
    switch suffix {
    case "", "B": shift = 0
    case "K", "KB", "KIB": shift = 10
    case "M", "MB", "MIB": shift = 20
    case "G", "GB", "GIB": shift = 30
    default: return nil
    }
    let (result, overflow) = number.multipliedReportingOverflow(by: 1 << shift)
    return overflow ? nil : result
}

/// A size for people: `12 MiB`, `512 KiB`, `300 bytes`.
func describeSize(_ bytes: Int) -> String {
    for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] where bytes >= 1 << shift {
        let whole = bytes >> shift
        let tenths = ((bytes - whole << shift) * 10) >> shift
        return tenths == 0 || whole >= 10 ? "\(whole) \(unit)" : "\(whole).\(tenths) \(unit)"
    }
    return plural(bytes, "byte")
}

/// `1 match`, `2 matches`: a count with its noun in the right number.
func plural(_ count: Int, _ singular: String, _ pluralForm: String? = nil) -> String {
    "\(count) " + (count == 1 ? singular : pluralForm ?? singular + "s")
}

/// The Levenshtein distance between two byte strings.
private func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
