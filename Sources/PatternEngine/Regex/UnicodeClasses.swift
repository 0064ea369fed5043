// Unicode scalar sets for the regex dialect: Unicode Perl classes ((?u)\d \w \s),
// general categories (\p{Lu}), scripts (\p{Greek}) and script extensions
// (\p{scx=Greek}), ASCII (POSIX) classes ([[:alpha:]]) and case folding of whole
// sets.
//
// The standard library answers property questions per scalar, so the sets are
// built by one pass over every scalar, once per process, into global `let`s
// (lazily and thread-safely initialised). Scripts are not exposed by the
// standard library; their tables are generated from the Unicode Character
// Database (UnicodeScripts.swift) and parsed on first use.

/// Scalar sets for the character classes of the regex dialect.
enum UnicodeClasses {
    /// `(?u)\d`: general category Nd.
    static var digit: ScalarSet { unicodeTables.decimalNumber }

    /// `(?u)\w`: Alphabetic, marks (M), Nd, connector punctuation (Pc) and Join_Control.
    static var word: ScalarSet { unicodeTables.word }

    /// `(?u)\s`: the White_Space property.
    static var space: ScalarSet { unicodeTables.whiteSpace }

    /// Whether `scalarValue` is a word character for `(?u)\b` (same set as `(?u)\w`).
    ///
    /// A boundary asks about one scalar at a time, so it asks the scalar's own properties rather than the set, whose
    /// first use builds every table from a pass over all scalars (tens of milliseconds at a process's start).
    ///
    /// - Complexity: O(1) for ASCII, a few property lookups otherwise.
    @inline(__always)
    static func isWordScalar(_ scalarValue: UInt32) -> Bool {
        if scalarValue < 0x80 {
            return isASCIIWordByte(UInt8(truncatingIfNeeded: scalarValue))
        }
        return Unicode.Scalar(scalarValue).map { isWord($0.properties) } ?? false
    }

    /// Whether a scalar of these properties is a word character: Alphabetic, marks (M), Nd, connector punctuation
    /// (Pc) or Join_Control. The one definition of `(?u)\w`, for the set and for single scalars.
    static func isWord(_ properties: Unicode.Scalar.Properties) -> Bool {
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation: true
        default: properties.isAlphabetic || properties.isJoinControl
        }
    }

    /// Whether `byte` is an ASCII word character: `[0-9A-Za-z_]`.
    @inline(__always)
    static func isASCIIWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }

    /// The set named by a `\p{...}` property, with loose name matching (case, spaces, `_` and `-` ignored); nil if unknown.
    ///
    /// RE2's names (general categories such as `L` and `Lu`, scripts such as `Greek`, and `Any`) mean what they mean
    /// in RE2; the loose spellings, long category names, binary properties, `sc=`/`scx=` and four-letter script
    /// aliases are extensions.
    static func property(named rawName: String) -> ScalarSet? {
        // RE2's own names, spelled exactly as RE2 wants them.
        if rawName == "Any" { return ScalarSet.all }
        if let categories = generalCategoryShortNames[rawName] { return categorySet(categories) }
        if let script = scriptSetsByName[rawName] { return script }
        // Extensions, matched loosely; RE2's names in another spelling (`\p{greek}`, `\p{lu}`) stay errors.
        var name = looseName(rawName)
        for prefix in ["scx=", "scriptextensions="] where name.hasPrefix(prefix) {
            return scriptExtensionSets[String(name.dropFirst(prefix.count))]
        }
        for prefix in ["sc=", "script="] where name.hasPrefix(prefix) {
            return scriptSets[String(name.dropFirst(prefix.count))]
        }
        var hasCategoryPrefix = false
        for prefix in ["gc=", "generalcategory="] where name.hasPrefix(prefix) {
            name = String(name.dropFirst(prefix.count))
            hasCategoryPrefix = true
        }
        switch name {
        case "ascii": return ScalarSet([0...0x7F])
        case "alphabetic", "alpha": return unicodeTables.alphabetic
        case "whitespace", "wspace", "space": return unicodeTables.whiteSpace
        case "uppercase", "upper": return unicodeTables.uppercase
        case "lowercase", "lower": return unicodeTables.lowercase
        case "digit": return unicodeTables.decimalNumber
        case "word": return unicodeTables.word
        default: break
        }
        // One- and two-letter names are RE2's and were looked up exactly above, unless written `gc=lu`.
        guard hasCategoryPrefix || name.count > 2, let categories = generalCategoryNames[name] else { return nil }
        return categorySet(categories)
    }

    private static func categorySet(_ categories: [Unicode.GeneralCategory]) -> ScalarSet {
        var result = ScalarSet()
        for category in categories {
            if let set = unicodeTables.categories[category] {
                result = result.union(set)
            }
        }
        return result
    }

    /// RE2's general category names (one and two letters, exact case); RE2 has no `Cn` and no `LC`.
    private static let generalCategoryShortNames: [String: [Unicode.GeneralCategory]] = {
        let names = ["C", "Cc", "Cf", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N", "Nd", "Nl",
                     "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm", "So", "Z", "Zl", "Zp", "Zs"]
        var table: [String: [Unicode.GeneralCategory]] = [:]
        for name in names {
            if let categories = generalCategoryNames[name.lowercased()] { table[name] = categories }
        }
        return table
    }()

    /// The ASCII class named inside `[[:name:]]`; nil if unknown.
    static func posixClass(named name: String) -> ScalarSet? {
        switch name {
        case "alnum": return ScalarSet([0x30...0x39, 0x41...0x5A, 0x61...0x7A])
        case "alpha": return ScalarSet([0x41...0x5A, 0x61...0x7A])
        case "ascii": return ScalarSet([0...0x7F])
        case "blank": return ScalarSet([0x09...0x09, 0x20...0x20])
        case "cntrl": return ScalarSet([0...0x1F, 0x7F...0x7F])
        case "digit": return ScalarSet([0x30...0x39])
        case "graph": return ScalarSet([0x21...0x7E])
        case "lower": return ScalarSet([0x61...0x7A])
        case "print": return ScalarSet([0x20...0x7E])
        case "punct": return ScalarSet([0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E])
        case "space": return ScalarSet([0x09...0x0D, 0x20...0x20])
        case "upper": return ScalarSet([0x41...0x5A])
        case "word": return ScalarSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
        case "xdigit": return ScalarSet([0x30...0x39, 0x41...0x46, 0x61...0x66])
        default: return nil
        }
    }

    /// The set closed under Unicode simple case folding: every member's case equivalents are added.
    ///
    /// - Complexity: O(r + c) for r ranges and c cased scalars (a few thousand).
    static func caseFolded(_ set: ScalarSet) -> ScalarSet {
        var added: [ClosedRange<UInt32>] = []
        let cased = casedScalars
        var index = 0
        for range in set.ranges {
            // Skip cased scalars below this range by binary search, then walk those inside it.
            var low = index
            var high = cased.count
            while low < high {
                let middle = (low + high) / 2
                if cased[middle] < range.lowerBound { low = middle + 1 } else { high = middle }
            }
            index = low
            while index < cased.count && cased[index] <= range.upperBound {
                if let scalar = Unicode.Scalar(cased[index]) {
                    for equivalent in CaseFolding.equivalents(of: scalar) where !set.contains(equivalent.value) {
                        added.append(equivalent.value...equivalent.value)
                    }
                }
                index += 1
            }
        }
        if added.isEmpty {
            return set
        }
        return set.union(ScalarSet(added))
    }

    /// Lowercases and drops spaces, underscores and hyphens, as Unicode loose matching does.
    private static func looseName(_ name: String) -> String {
        String(name.lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" })
    }

    /// Loose general category names (short and long) to the categories they stand for.
    private static let generalCategoryNames: [String: [Unicode.GeneralCategory]] = {
        let table: [(short: String, long: String, categories: [Unicode.GeneralCategory])] = [
            ("lu", "uppercaseletter", [.uppercaseLetter]),
            ("ll", "lowercaseletter", [.lowercaseLetter]),
            ("lt", "titlecaseletter", [.titlecaseLetter]),
            ("lm", "modifierletter", [.modifierLetter]),
            ("lo", "otherletter", [.otherLetter]),
            ("lc", "casedletter", [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter]),
            ("l", "letter", [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter]),
            ("mn", "nonspacingmark", [.nonspacingMark]),
            ("mc", "spacingmark", [.spacingMark]),
            ("me", "enclosingmark", [.enclosingMark]),
            ("m", "mark", [.nonspacingMark, .spacingMark, .enclosingMark]),
            ("nd", "decimalnumber", [.decimalNumber]),
            ("nl", "letternumber", [.letterNumber]),
            ("no", "othernumber", [.otherNumber]),
            ("n", "number", [.decimalNumber, .letterNumber, .otherNumber]),
            ("pc", "connectorpunctuation", [.connectorPunctuation]),
            ("pd", "dashpunctuation", [.dashPunctuation]),
            ("ps", "openpunctuation", [.openPunctuation]),
            ("pe", "closepunctuation", [.closePunctuation]),
            ("pi", "initialpunctuation", [.initialPunctuation]),
            ("pf", "finalpunctuation", [.finalPunctuation]),
            ("po", "otherpunctuation", [.otherPunctuation]),
            ("p", "punctuation", [
                .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                .initialPunctuation, .finalPunctuation, .otherPunctuation,
            ]),
            ("sm", "mathsymbol", [.mathSymbol]),
            ("sc", "currencysymbol", [.currencySymbol]),
            ("sk", "modifiersymbol", [.modifierSymbol]),
            ("so", "othersymbol", [.otherSymbol]),
            ("s", "symbol", [.mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol]),
            ("zs", "spaceseparator", [.spaceSeparator]),
            ("zl", "lineseparator", [.lineSeparator]),
            ("zp", "paragraphseparator", [.paragraphSeparator]),
            ("z", "separator", [.spaceSeparator, .lineSeparator, .paragraphSeparator]),
            ("cc", "control", [.control]),
            ("cf", "format", [.format]),
            ("co", "privateuse", [.privateUse]),
            ("cn", "unassigned", [.unassigned]),
            // As in RE2, `C` is Cc, Cf, Co and Cs; unassigned code points (Cn) are only in `\p{Cn}`.
            ("c", "other", [.control, .format, .privateUse, .surrogate]),
        ]
        // Loose lookup takes only the long names; the short ones are RE2's and must be spelled exactly.
        var names: [String: [Unicode.GeneralCategory]] = [:]
        for entry in table {
            names[entry.short] = entry.categories
            names[entry.long] = entry.categories
        }
        names["cntrl"] = [.control]
        names["punct"] = names["p"]
        return names
    }()
}

/// Scripts by their long names, spelled exactly (`Greek`, `Old_Italic`), as RE2 names them.
private let scriptSetsByName: [String: ScalarSet] = {
    var sets: [String: ScalarSet] = [:]
    for script in UnicodeScriptTables.scripts {
        sets[script.name] = parseScriptRanges(script.ranges)
    }
    return sets
}()

/// Scripts by loose long name and by loose four-letter alias (for `\p{sc=...}`).
private let scriptSets: [String: ScalarSet] = {
    var sets: [String: ScalarSet] = [:]
    for script in UnicodeScriptTables.scripts {
        let set = parseScriptRanges(script.ranges)
        sets[looseScriptName(script.name)] = set
        sets[looseScriptName(script.alias)] = set
    }
    return sets
}()

/// Script extensions by loose long name and by loose four-letter alias.
private let scriptExtensionSets: [String: ScalarSet] = {
    var aliases: [String: String] = [:]
    for script in UnicodeScriptTables.scripts {
        aliases[script.name] = script.alias
    }
    var sets: [String: ScalarSet] = [:]
    for script in UnicodeScriptTables.scriptExtensions {
        let set = parseScriptRanges(script.ranges)
        sets[looseScriptName(script.name)] = set
        if let alias = aliases[script.name] {
            sets[looseScriptName(alias)] = set
        }
    }
    return sets
}()

private func looseScriptName(_ name: String) -> String {
    String(name.lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" })
}

/// Reads the generated range notation: `LOW-HIGH` or `VALUE` in hexadecimal, separated by spaces.
private func parseScriptRanges(_ text: String) -> ScalarSet {
    var ranges: [ClosedRange<UInt32>] = []
    for item in text.split(separator: " ") {
        let bounds = item.split(separator: "-")
        guard let low = bounds.first.flatMap({ UInt32($0, radix: 16) }) else { continue }
        let high = bounds.count > 1 ? UInt32(bounds[1], radix: 16) ?? low : low
        if low <= high { ranges.append(low...high) }
    }
    return ScalarSet(ranges)
}

/// Scalar sets computed by one pass over all scalars.
private struct UnicodeTables: Sendable {
    var categories: [Unicode.GeneralCategory: ScalarSet]
    var decimalNumber: ScalarSet
    var alphabetic: ScalarSet
    var whiteSpace: ScalarSet
    var uppercase: ScalarSet
    var lowercase: ScalarSet
    var word: ScalarSet
}

/// Built on first use; global `let`s are initialised once, thread-safely.
private let unicodeTables: UnicodeTables = buildUnicodeTables()

/// Every scalar that has case equivalents other than itself, sorted.
private let casedScalars: [UInt32] = {
    var result: [UInt32] = []
    // Every cased scalar lies below U+20000.
    for value in UInt32(0)..<0x2_0000 {
        if let scalar = Unicode.Scalar(value), CaseFolding.hasEquivalents(scalar) {
            result.append(value)
        }
    }
    return result
}()

/// Appends `value` to a growing range list, extending the last range when adjacent.
private func appendValue(_ value: UInt32, to ranges: inout [ClosedRange<UInt32>]) {
    if let last = ranges.last, last.upperBound &+ 1 == value {
        ranges[ranges.count - 1] = last.lowerBound...value
    } else {
        ranges.append(value...value)
    }
}

private func buildUnicodeTables() -> UnicodeTables {
    var categoryRanges: [Unicode.GeneralCategory: [ClosedRange<UInt32>]] = [:]
    var alphabetic: [ClosedRange<UInt32>] = []
    var whiteSpace: [ClosedRange<UInt32>] = []
    var uppercase: [ClosedRange<UInt32>] = []
    var lowercase: [ClosedRange<UInt32>] = []
    var word: [ClosedRange<UInt32>] = []
    // Runs of equal category are long, so remember the current run instead of touching the dictionary per scalar.
    var runCategory: Unicode.GeneralCategory?
    var runStart: UInt32 = 0
    var runEnd: UInt32 = 0
    func flushRun() {
        if let category = runCategory {
            categoryRanges[category, default: []].append(runStart...runEnd)
        }
        runCategory = nil
    }
    // Planes 4 to 13 hold no assigned scalars, and planes 15 and 16 only private use ones (each
    // ending in two noncharacters), so only planes 0 to 3 and 14 are asked scalar by scalar.
    let scannedValues = [UInt32(0)..<0x4_0000, 0xE_0000..<0xF_0000].joined()
    for value in scannedValues {
        guard let scalar = Unicode.Scalar(value) else { continue }
        let properties = scalar.properties
        let category = properties.generalCategory
        if category == runCategory && runEnd &+ 1 == value {
            runEnd = value
        } else {
            flushRun()
            runCategory = category
            runStart = value
            runEnd = value
        }
        if category == .unassigned || category == .privateUse || category == .surrogate {
            continue
        }
        let isAlphabetic = properties.isAlphabetic
        if isAlphabetic { appendValue(value, to: &alphabetic) }
        if properties.isWhitespace { appendValue(value, to: &whiteSpace) }
        if properties.isUppercase { appendValue(value, to: &uppercase) }
        if properties.isLowercase { appendValue(value, to: &lowercase) }
        if UnicodeClasses.isWord(properties) { appendValue(value, to: &word) }
    }
    flushRun()
    categoryRanges[.unassigned, default: []].append(contentsOf: [
        0x4_0000...0xD_FFFF, 0xF_FFFE...0xF_FFFF, 0x10_FFFE...0x10_FFFF,
    ])
    categoryRanges[.privateUse, default: []].append(contentsOf: [0xF_0000...0xF_FFFD, 0x10_0000...0x10_FFFD])
    var categories: [Unicode.GeneralCategory: ScalarSet] = [:]
    for (category, ranges) in categoryRanges {
        categories[category] = ScalarSet(ranges)
    }
    return UnicodeTables(
        categories: categories,
        decimalNumber: categories[.decimalNumber] ?? ScalarSet(),
        alphabetic: ScalarSet(alphabetic),
        whiteSpace: ScalarSet(whiteSpace),
        uppercase: ScalarSet(uppercase),
        lowercase: ScalarSet(lowercase),
        word: ScalarSet(word))
}
