import HighlightConfig
import JSONRPC
import JSONValue
import PatternEngine
import TextIndex

// Colours: with `"colors": true`, the built-in `color` rule's matches are answered through
// `textDocument/documentColor` (so the editor shows swatches and a picker), and the picker's
// choice is written back through `textDocument/colorPresentation`, in hex, `rgb()` or `hsl()`,
// the notation of the literal being replaced first.

extension Server {
    /// `textDocument/documentColor`: every colour literal with its colour (channels 0...1).
    func documentColorRequest(_ params: DocumentParams) throws(ResponseError) -> JSON {
        let uri = try openDocument(params.uri)
        guard let colorRuleIndex = configuration(forDocumentURI: uri).colorRuleIndex,
            let (document, config, list) = matches(ofDocument: uri), config.colorRuleIndex == colorRuleIndex
        else { return [] }
        let index = document.text.lineIndex
        // Colour and highlight are different layers: a literal inside another rule's match (a
        // `#ff0000` that a user rule also matches) still gets its swatch, so the colour rule is
        // searched on its own here rather than read from the resolved matches.
        let colorRules = RuleSet(rules: [config.ruleSet.rules[colorRuleIndex]])
        _ = list
        return document.text.withUnsafeBytes { text in
            var colors: [JSON] = []
            for literal in colorRules.matches(in: text).matches {
                let match = Match(ruleIndex: colorRuleIndex, utf8Range: literal.utf8Range)
                guard let color = config.literalColor(of: match, in: text) else { continue }
                let exactAlpha = ColorLiteral.exactAlpha(ofLiteral: UnsafeBufferPointer(rebasing: text[match.utf8Range]))
                colors.append(["range": lspRange(of: match.utf8Range, in: index), "color": color.lspJSON(alpha: exactAlpha)])
            }
            return .array(colors)
        }
    }

    /// `textDocument/colorPresentation`: the ways to write the chosen colour over `range`.
    func colorPresentationRequest(_ params: ColorPresentationParams) throws(ResponseError) -> JSON {
        let uri = try openDocument(params.uri)
        let range = params.range
        let channels = params.color
        let color = RGBAColor(fractions: channels.red, channels.green, channels.blue, channels.alpha)
        guard let document = documents[uri] else { throw .requestFailed("document \(uri) is not open") }
        let index = document.text.lineIndex
        let start = index.utf8Offset(of: range.start, encoding: positionEncoding)
        let end = index.utf8Offset(of: range.end, encoding: positionEncoding)
        let utf8Range = min(start, end)..<max(start, end)
        let original = document.text.withUnsafeBytes { text in
            String(decoding: UnsafeBufferPointer(rebasing: text[utf8Range.clamped(to: 0..<text.count)]), as: UTF8.self)
        }
        let editRange = lspRange(of: utf8Range, in: index)
        return .array(ColorLiteral.presentations(of: color, exactAlpha: channels.alpha, replacing: original).map { label in
            ["label": .string(label), "textEdit": ["range": editRange, "newText": .string(label)]]
        })
    }
}

extension RGBAColor {
    /// The LSP `Color`: channels as numbers from 0 to 1; `alpha`, when given, is the literal's exact alpha.
    func lspJSON(alpha exactAlpha: Double? = nil) -> JSON {
        [
            "red": .double(Double(red) / 255), "green": .double(Double(green) / 255),
            "blue": .double(Double(blue) / 255), "alpha": .double(exactAlpha ?? Double(alpha) / 255),
        ]
    }
}
