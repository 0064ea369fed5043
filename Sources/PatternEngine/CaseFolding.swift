// Unicode simple case folding, as equivalence classes of scalars.
//
// Case-insensitive matching asks one question: "which scalars fold to the same
// thing as this one?". We answer it with classes: two scalars are equivalent
// when their simple case foldings are equal. For example
//
//     k  ~  K  ~  U+212A KELVIN SIGN
//     s  ~  S  ~  U+017F LATIN SMALL LETTER LONG S
//     σ  ~  Σ  ~  ς (final sigma)
//     å  ~  Å  ~  U+212B ANGSTROM SIGN
//
// The standard library exposes case *mappings* (lower, upper, title) but not
// case *folding*, so the classes are built by joining every scalar with its
// single-scalar mappings (a union-find over all scalars that change when case
// mapped). Multi-scalar mappings (`ß` -> `SS`) are full, not simple, mappings
// and are ignored, as simple folding does. Two scalars need care:
//
// - U+0131 LATIN SMALL LETTER DOTLESS I uppercases to `I`, but simple folding
//   leaves it alone (only the Turkic tailoring folds `I` to `ı`), so it is kept
//   out of the `i` class.
// - U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE has no simple folding (its
//   full folding is `i` + U+0307), so it is likewise kept alone.
//
// A few equivalences that come from folding data but not from the mappings
// (U+1FD3 ~ U+0390, U+1FE3 ~ U+03B0, U+FB05 ~ U+FB06) are added explicitly.
//
// The table is built once, lazily and thread-safely, as a global `let`.

/// Unicode simple case folding as equivalence classes of scalars; shared by the literal automaton and the regex engine.
enum CaseFolding {
    /// All scalars whose simple case folding equals that of `scalar`, including `scalar` itself, sorted by value.
    ///
    /// - Complexity: O(1) amortised after the table is built once (the first call pays for building it).
    static func equivalents(of scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        if scalar.value < 0x80 {
            return asciiEquivalents(of: scalar)
        }
        return caseFoldingClasses[scalar.value] ?? [scalar]
    }

    /// A canonical representative of the class of `scalar` (its smallest member): two scalars match case-insensitively exactly when their representatives are equal.
    static func representative(of scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.value < 0x80 {
            let value = scalar.value
            // The class of an ASCII letter also holds K/S look-alikes above ASCII, but its smallest member is the uppercase ASCII letter.
            if value >= 0x61 && value <= 0x7A {
                return Unicode.Scalar(UInt8(truncatingIfNeeded: value - 0x20))
            }
            return scalar
        }
        return caseFoldingClasses[scalar.value]?.first ?? scalar
    }

    /// Whether `scalar` has case equivalents other than itself.
    static func hasEquivalents(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 {
            let lowered = scalar.value | 0x20
            return lowered >= 0x61 && lowered <= 0x7A
        }
        return caseFoldingClasses[scalar.value] != nil
    }

    private static func asciiEquivalents(of scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        let lowered = scalar.value | 0x20
        guard lowered >= 0x61 && lowered <= 0x7A else { return [scalar] }
        // Non-ASCII members (KELVIN SIGN for k, LONG S for s) live in the table.
        return caseFoldingClasses[scalar.value] ?? [
            Unicode.Scalar(UInt8(truncatingIfNeeded: lowered - 0x20)), Unicode.Scalar(UInt8(truncatingIfNeeded: lowered)),
        ]
    }
}

/// Equivalence classes of size > 1, keyed by every member's scalar value; built once on first use.
private let caseFoldingClasses: [UInt32: [Unicode.Scalar]] = buildCaseFoldingClasses()

/// Builds the class table by a union-find over scalars joined with their single-scalar case mappings.
private func buildCaseFoldingClasses() -> [UInt32: [Unicode.Scalar]] {
    var parent: [UInt32: UInt32] = [:]

    func find(_ value: UInt32) -> UInt32 {
        var root = value
        while let next = parent[root], next != root {
            root = next
        }
        // Path compression keeps later finds short.
        var current = value
        while let next = parent[current], next != root {
            parent[current] = root
            current = next
        }
        return root
    }

    func union(_ a: UInt32, _ b: UInt32) {
        if parent[a] == nil { parent[a] = a }
        if parent[b] == nil { parent[b] = b }
        let rootA = find(a)
        let rootB = find(b)
        if rootA != rootB {
            parent[max(rootA, rootB)] = min(rootA, rootB)
        }
    }

    func singleScalar(_ mapping: String) -> UInt32? {
        var iterator = mapping.unicodeScalars.makeIterator()
        guard let first = iterator.next(), iterator.next() == nil else { return nil }
        return first.value
    }

    // Scalars whose simple folding is themselves although a mapping suggests otherwise.
    let excluded: Set<UInt32> = [0x0130, 0x0131]

    // Every cased scalar lies below U+20000; the planes above hold none.
    for value in UInt32(0)..<0x2_0000 {
        guard let scalar = Unicode.Scalar(value), !excluded.contains(value) else { continue }
        let properties = scalar.properties
        guard properties.changesWhenCaseMapped else { continue }
        for mapping in [properties.lowercaseMapping, properties.uppercaseMapping, properties.titlecaseMapping] {
            if let mapped = singleScalar(mapping), mapped != value, !excluded.contains(mapped) {
                union(value, mapped)
            }
        }
    }

    // Equivalences present in the folding data but not derivable from the mappings.
    let extras: [(UInt32, UInt32)] = [(0x1FD3, 0x0390), (0x1FE3, 0x03B0), (0xFB05, 0xFB06)]
    for (a, b) in extras {
        union(a, b)
    }

    var members: [UInt32: [UInt32]] = [:]
    for value in parent.keys {
        members[find(value), default: []].append(value)
    }
    var classes: [UInt32: [Unicode.Scalar]] = [:]
    for (_, values) in members where values.count > 1 {
        let scalars = values.sorted().compactMap(Unicode.Scalar.init)
        for value in values {
            classes[value] = scalars
        }
    }
    return classes
}
