import HighlightConfig
import JSONRPC
import JSONValue
import PatternEngine
import TextIndex

// `textDocument/documentSymbol`: the outline of one open document, made of the matches of the
// rules marked `list`, the same matches `workspace/symbol` lists for the file. A client that
// supports hierarchical symbols gets one `DocumentSymbol` per rule, in the order the rules first
// occur in the text, holding that rule's matches in text order:
//
//     fixme (2)              range: first FIXME .. last FIXME
//       FIXME parse errors   range = selectionRange = the match
//       FIXME again
//     todo (1)
//       TODO later
//
// Other clients get flat `SymbolInformation`, one per match, with the rule as `containerName`.
// `"outline": false` in the configuration answers an empty list, leaving the outline to the
// file's other servers.
//
// The answer is made on the loop from the document's kept highlights when they can stand for
// the listed matches, which is when no rule outside the list won any of them: a rule that never
// wins changes nothing when it is left out (see `RuleFilter.matches`). Otherwise the text is
// searched again with only the listed rules, as `workspace/symbol` does, so that a rule outside
// the list never hides a listed match.

extension Server {
    /// `textDocument/documentSymbol`: the listed matches of an open document, grouped by rule when the client can show a tree.
    func documentSymbolRequest(_ params: DocumentParams) throws(ResponseError) -> JSON {
        let uri = try openDocument(params.uri)
        guard let (document, config, list) = matches(ofDocument: uri), config.outline,
              config.applicability.contains(where: \.list)
        else { return [] }
        let isListed = { (ruleIndex: Int) in config.applicability.indices.contains(ruleIndex) && config.applicability[ruleIndex].list }
        var listed: [Match]
        if list.matches.allSatisfy({ isListed($0.ruleIndex) }) {
            listed = list.matches
        } else {
            let filter = ruleFilter(forDocument: uri, languageId: document.languageId, config: config, selecting: .listed)
            var syntax = document.syntax
            listed = document.text.withUnsafeBytes { filter.matches(of: config.ruleSet, in: $0, syntax: &syntax).matches }
        }
        if listed.count > Self.maximumWorkspaceSymbols {
            log(.info, "textDocument/documentSymbol: \(listed.count) matches in \(uri); only the first \(Self.maximumWorkspaceSymbols) are returned")
            listed.removeLast(listed.count - Self.maximumWorkspaceSymbols)
        }
        let index = document.text.lineIndex
        let symbols: [OutlineSymbol] = document.text.withUnsafeBytes { text in
            listed.map { match in
                let rule = config.rules.indices.contains(match.ruleIndex) ? config.rules[match.ruleIndex].name : TokenLegend.fallbackType
                return OutlineSymbol(
                    rule: rule, name: Self.symbolName(lineFrom: match.utf8Range, in: text),
                    range: lspRange(of: match.utf8Range, in: index))
            }
        }
        return client.hierarchicalDocumentSymbols ? Self.hierarchicalSymbols(symbols) : Self.flatSymbols(symbols, uri: uri)
    }

    /// One listed match, ready for either form of the answer.
    struct OutlineSymbol {
        var rule: String
        var name: String
        var range: JSON
    }

    /// `DocumentSymbol`s: one per rule, in order of first occurrence, each spanning its matches and holding them.
    static func hierarchicalSymbols(_ symbols: [OutlineSymbol]) -> JSON {
        var order: [String] = []
        var byRule: [String: [OutlineSymbol]] = [:]
        for symbol in symbols {
            if byRule[symbol.rule] == nil { order.append(symbol.rule) }
            byRule[symbol.rule, default: []].append(symbol)
        }
        return .array(order.compactMap { rule -> JSON? in
            guard let members = byRule[rule], let first = members.first, let last = members.last else { return nil }
            let children: [JSON] = members.map { member in
                ["name": .string(member.name), "kind": 15, "range": member.range, "selectionRange": member.range]
            }
            let span: JSON = ["start": first.range["start"] ?? .null, "end": last.range["end"] ?? .null]
            return [
                "name": .string(rule), "detail": .string(members.count == 1 ? "1 match" : "\(members.count) matches"),
                // Namespace: a rule groups its matches the way a namespace groups declarations.
                "kind": 3, "range": span, "selectionRange": first.range, "children": .array(children),
            ]
        })
    }

    /// `SymbolInformation`s in text order, with the rule as the container.
    static func flatSymbols(_ symbols: [OutlineSymbol], uri: String) -> JSON {
        .array(symbols.map { symbol in
            [
                "name": .string(symbol.name), "kind": 15, "containerName": .string(symbol.rule),
                "location": ["uri": .string(uri), "range": symbol.range],
            ]
        })
    }

    /// A symbol's name made as `workspace/symbol` makes it: the line from the match on, trimmed, at
    /// most 120 characters (read from at most `maximumSymbolNameBytes` bytes, cut at a character).
    static func symbolName(lineFrom utf8Range: Range<Int>, in text: UnsafeBufferPointer<UInt8>) -> String {
        let start = min(max(0, utf8Range.lowerBound), text.count)
        let limit = min(text.count, start + maximumSymbolNameBytes)
        var end = start
        while end < limit, text[end] != 0x0A, text[end] != 0x0D { end += 1 }
        if end == limit, end < text.count {
            while end > start, text[end] & 0xC0 == 0x80 { end -= 1 }
        }
        var name = String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self).trimmingHorizontalSpace
        if name.isEmpty {
            let matchEnd = min(max(start, utf8Range.upperBound), text.count)
            name = String(decoding: UnsafeBufferPointer(rebasing: text[start..<matchEnd]), as: UTF8.self)
        }
        if name.count > 120 { name = String(name.prefix(119)) + "…" }
        return name
    }
}

extension String {
    /// Without leading and trailing spaces: tabs and Unicode's space separators (what Foundation's
    /// `CharacterSet.whitespaces` holds), scalar by scalar.
    var trimmingHorizontalSpace: String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
