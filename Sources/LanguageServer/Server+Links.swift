import HighlightConfig
import JSONRPC
import JSONValue
import PatternEngine
import TextIndex

// Links and hover: `textDocument/documentLink` answers the matches of rules with a `link`, and
// `textDocument/hover` over any match shows its rule, severity, message and link (and, over a
// colour literal, the colour).

extension Server {
    /// `textDocument/documentLink`: a link per match of a rule with a `link` template.
    func documentLinkRequest(_ params: DocumentParams) throws(ResponseError) -> JSON {
        let uri = try openDocument(params.uri)
        guard configuration(forDocumentURI: uri).details.contains(where: { $0.link != nil }),
            let (document, config, list) = matches(ofDocument: uri)
        else { return [] }
        let index = document.text.lineIndex
        let schemes = configuration.linkSchemes
        return document.text.withUnsafeBytes { text in
            var links: [JSON] = []
            for match in list.matches {
                guard config.details.indices.contains(match.ruleIndex), let template = config.details[match.ruleIndex].link else { continue }
                let filled = MatchText(match: match, config: config, text: text)
                // A link whose scheme is not allowed is left out, not sent without a target.
                guard let target = schemes.filter(filled.link(template)) else { continue }
                var link: [String: JSON] = ["range": lspRange(of: match.utf8Range, in: index), "target": .string(target)]
                if client.documentLinkTooltip, let message = config.details[match.ruleIndex].message {
                    link["tooltip"] = .string(filled.message(message, ruleName: config.rules[match.ruleIndex].name))
                }
                links.append(.object(link))
            }
            return .array(links)
        }
    }

    /// `textDocument/hover`: the rule of the match under the position, with its severity,
    /// message and link; `null` when there is no match there.
    func hoverRequest(id: RequestID, _ params: DocumentPositionParams) throws(ResponseError) -> Reply {
        let uri = try openDocument(params.uri)
        let position = params.position
        guard let (document, config, list) = matches(ofDocument: uri) else { return .now(.null) }
        let index = document.text.lineIndex
        let offset = index.utf8Offset(of: position, encoding: positionEncoding)
        let found = list.matches.partitionPoint { $0.utf8Range.upperBound > offset }
        guard list.matches.indices.contains(found), list.matches[found].utf8Range.lowerBound <= offset else { return .now(.null) }
        let match = list.matches[found]
        guard config.rules.indices.contains(match.ruleIndex), config.details.indices.contains(match.ruleIndex) else { return .now(.null) }
        let details = config.details[match.ruleIndex]
        let ruleName = config.rules[match.ruleIndex].name
        let markdown = client.hoverMarkdown
        let schemes = configuration.linkSchemes
        let lines: [String] = document.text.withUnsafeBytes { text in
            let filled = MatchText(match: match, config: config, text: text)
            var heading = markdown ? "**\(Self.markdownEscaped(ruleName))**" : ruleName
            if let severity = details.severity { heading += " (\(severity.rawValue))" }
            var lines = [heading]
            if let deadline = Self.deadline(of: match, config: config, text: text, today: configuration.today) {
                lines.append("\(deadline.state.phrase.prefix(1).uppercased())\(deadline.state.phrase.dropFirst()) (\(deadline.due))")
            }
            if details.message != nil {
                let message = filled.message(details.message, ruleName: ruleName)
                lines.append(markdown ? Self.markdownEscaped(message) : message)
            }
            if let link = filled.link(details.link) {
                if !schemes.allows(link) {
                    // Shown as text, never as something to click.
                    lines.append(markdown ? "link not shown: scheme not allowed (\(Self.markdownEscaped(link)))" : "link not shown: scheme not allowed (\(link))")
                } else if markdown {
                    lines.append("[\(Self.markdownEscaped(link))](\(LinkSchemes.markdownDestination(link)))")
                } else {
                    lines.append(link)
                }
            }
            if details.findsColorLiterals, let color = config.literalColor(of: match, in: text) {
                let notations = ColorLiteral.presentations(of: color)
                lines.append(markdown ? notations.map { "`\($0)`" }.joined(separator: " · ") : notations.joined(separator: ", "))
            }
            return lines
        }
        let hover = PendingHover(
            uri: uri, version: document.version, line: index.line(containingUTF8Offset: match.utf8Range.lowerBound), lines: lines,
            markdown: markdown, range: lspRange(of: match.utf8Range, in: index), now: configuration.now)
        // Over a marker, who wrote its line, asked of git beside the loop.
        guard hoverBlames(ruleIndex: match.ruleIndex, in: config) else { return .now(Self.hoverJSON(hover)) }
        return answerHover(hover, document: document, id: id)
    }

    /// `text` with Markdown's punctuation escaped, so that it shows as written.
    static func markdownEscaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\`*_{}[]()<>#+-.!|~&".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
