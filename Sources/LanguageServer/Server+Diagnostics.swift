import HighlightConfig
import JSONRPC
import JSONValue
import PatternEngine
import TextIndex

// Diagnostics: matches of rules with a `severity`, for problem lists and for editors that draw
// diagnostics but not semantic tokens (Helix). A client that can pull diagnostics
// (`textDocument.diagnostic`) asks with `textDocument/diagnostic`, and is never pushed to; any
// other client gets `textDocument/publishDiagnostics` from `flush()`, once per burst of changes,
// for the latest version only.

extension Server {
    /// The `diagnosticProvider` capability.
    func diagnosticOptions() -> JSON {
        ["identifier": "highlight-ls", "interFileDependencies": false, "workspaceDiagnostics": false]
    }

    /// Pushes the diagnostics of the documents that changed (and clears those of closed ones);
    /// `flush()` calls it with the documents changed since the last flush.
    func publishDiagnostics(ofChangedDocuments changed: Set<String>) {
        guard lifecycle == .running, !client.diagnosticPull else { return }
        for uri in documentsWithPublishedDiagnostics.sorted() where documents[uri] == nil {
            sendNotification("textDocument/publishDiagnostics", params: ["uri": .string(uri), "diagnostics": []])
            documentsWithPublishedDiagnostics.remove(uri)
        }
        for uri in changed.sorted() {
            guard let document = documents[uri] else { continue }
            let items = diagnostics(ofDocument: uri)
            // A document that never had diagnostics is not sent an empty list on every keystroke.
            if items.isEmpty, !documentsWithPublishedDiagnostics.contains(uri) { continue }
            var params: [String: JSON] = ["uri": .string(uri), "diagnostics": .array(items)]
            if client.diagnosticVersion { params["version"] = .integer(document.version) }
            sendNotification("textDocument/publishDiagnostics", params: .object(params))
            if items.isEmpty {
                documentsWithPublishedDiagnostics.remove(uri)
            } else {
                documentsWithPublishedDiagnostics.insert(uri)
            }
        }
    }

    /// `textDocument/diagnostic`: the full report, or `unchanged` when the client has the current one.
    func documentDiagnosticRequest(_ params: DocumentDiagnosticParams) throws(ResponseError) -> JSON {
        let uri = try openDocument(params.uri)
        let version = documents[uri]?.version ?? 0
        let resultID = "\(configuration.generation)-\(version)"
        if params.previousResultID == resultID {
            return ["kind": "unchanged", "resultId": .string(resultID)]
        }
        return ["kind": "full", "resultId": .string(resultID), "items": .array(diagnostics(ofDocument: uri))]
    }

    /// After a configuration change, asks a pulling client to pull again, when it supports that.
    func requestDiagnosticRefresh() {
        guard client.diagnosticPull, client.diagnosticRefresh else { return }
        sendRequest("workspace/diagnostic/refresh", params: nil)
    }

    /// The LSP diagnostics of a document: one per match of a rule with a severity, and per marker with a deadline.
    /// - Complexity: O(r) for r rules when none has a severity, plus O(d log m) for the d markers a group of fields
    ///   follows (O(m) once after the highlights are computed in full); otherwise O(m) for m matches,
    ///   plus finding the groups of matches whose message or link needs them.
    func diagnostics(ofDocument uri: String) -> [JSON] {
        // An open `.highlights.json` also carries its own problems.
        configurationFileDiagnostics(ofDocument: uri) + matchDiagnostics(ofDocument: uri)
    }

    /// One diagnostic per match of a rule with a severity, and per marker with a deadline: a hint, a warning when
    /// it is due within `dueSoon` days, an error once it is overdue.
    private func matchDiagnostics(ofDocument uri: String) -> [JSON] {
        guard documents[uri] != nil else { return [] }
        let governing = configuration(forDocumentURI: uri)
        let hasSeverities = governing.details.contains { $0.severity != nil }
        guard hasSeverities || governing.readsFields, let (document, config, list) = matches(ofDocument: uri) else { return [] }
        // Without a rule that has a severity, only a marker with a deadline has a diagnostic: one of the few matches a
        // group of fields follows, which edits keep (`DocumentHighlights.fieldGroupMatchStarts`).
        let candidates: [Match]
        if hasSeverities {
            candidates = list.matches
        } else {
            let starts = documents[uri]?.highlights?.fieldGroupStarts(in: document.text) ?? []
            candidates = starts.compactMap { start in
                let index = list.matches.partitionPoint { $0.utf8Range.lowerBound >= start }
                return index < list.matches.count && list.matches[index].utf8Range.lowerBound == start ? list.matches[index] : nil
            }
        }
        work.diagnosticCandidates += candidates.count
        let today = configuration.today
        let index = document.text.lineIndex
        let schemes = configuration.linkSchemes
        return document.text.withUnsafeBytes { text in
            var items: [JSON] = []
            for match in candidates {
                guard config.details.indices.contains(match.ruleIndex), config.rules.indices.contains(match.ruleIndex) else { continue }
                let deadline = Self.deadline(of: match, config: config, text: text, today: today)
                guard let severity = deadline?.severity ?? config.details[match.ruleIndex].severity else { continue }
                let details = config.details[match.ruleIndex]
                let ruleName = config.rules[match.ruleIndex].name
                let filled = MatchText(match: match, config: config, text: text)
                var message = filled.message(details.message, ruleName: ruleName)
                if let deadline { message += " (\(deadline.state.phrase), due \(deadline.due))" }
                var item: [String: JSON] = [
                    "range": lspRange(of: match.utf8Range, in: index),
                    "severity": .integer(severity.lspValue),
                    "source": "highlight-ls",
                    "code": .string(ruleName),
                    "message": .string(message),
                ]
                if client.diagnosticCodeDescription, let link = schemes.filter(filled.link(details.link)) {
                    item["codeDescription"] = ["href": .string(link)]
                }
                items.append(.object(item))
            }
            return items
        }
    }

    /// The deadline written after `match`, when its rule reads fields and one is written, with where it stands on
    /// `today` and the severity that gives its diagnostic.
    static func deadline(
        of match: Match, config: HighlightConfiguration, text: UnsafeBufferPointer<UInt8>, today: CalendarDay
    ) -> (due: CalendarDay, state: DeadlineState, severity: RuleDefinition.Severity)? {
        guard config.applicability.indices.contains(match.ruleIndex), config.applicability[match.ruleIndex].readsFields,
            case .fields(let fields) = MarkerFields.read(text, after: match.utf8Range.upperBound), let due = fields.due
        else { return nil }
        let state = DeadlineState(due: due, today: today, dueSoonDays: config.dueSoonDays)
        let severity: RuleDefinition.Severity = switch state {
        case .later: .hint
        case .dueSoon: .warning
        case .overdue: .error
        }
        return (due, state, severity)
    }

    /// A UTF-8 range as an LSP range in the negotiated encoding.
    func lspRange(of utf8Range: Range<Int>, in index: LineIndex) -> JSON {
        [
            "start": index.position(ofUTF8Offset: utf8Range.lowerBound, encoding: positionEncoding).json,
            "end": index.position(ofUTF8Offset: utf8Range.upperBound, encoding: positionEncoding).json,
        ]
    }
}

extension RuleDefinition.Severity {
    /// The LSP `DiagnosticSeverity` number.
    var lspValue: Int {
        switch self {
        case .error: return 1
        case .warning: return 2
        case .information: return 3
        case .hint: return 4
        }
    }
}

/// A match's templates filled in from its text, finding its groups only when a template needs them.
struct MatchText {
    let match: Match
    let config: HighlightConfiguration
    let text: UnsafeBufferPointer<UInt8>

    /// The longest matched text put into a default message, in bytes.
    static let defaultMessageLimit = 200

    init(match: Match, config: HighlightConfiguration, text: UnsafeBufferPointer<UInt8>) {
        self.match = match
        self.config = config
        self.text = text
    }

    /// The matched text, or the text of a group; `nil` for a group that did not take part.
    func groupText(_ group: Int, captures: [Range<Int>?]) -> String? {
        guard captures.indices.contains(group), let range = captures[group],
            range.lowerBound >= 0, range.upperBound <= text.count
        else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)
    }

    private func filled(_ template: MatchTemplate, encode: (String) -> String = { $0 }) -> String {
        let captures = template.highestGroup > 0 ? config.captures(of: match, in: text) : [match.utf8Range]
        return template.filled(groupText: { groupText($0, captures: captures) }, encode: encode)
    }

    /// The rule's message filled in, or `rule: matched text` without one.
    func message(_ template: MatchTemplate?, ruleName: String) -> String {
        if let template { return filled(template) }
        var matched = groupText(0, captures: [match.utf8Range]) ?? ""
        if matched.utf8.count > Self.defaultMessageLimit {
            matched = String(matched.prefix(Self.defaultMessageLimit)) + "…"
        }
        return "\(ruleName): \(matched)"
    }

    /// The rule's link filled in, with substituted text percent-encoded; `nil` without one.
    func link(_ template: MatchTemplate?) -> String? {
        template.map { filled($0, encode: MatchTemplate.percentEncoded) }
    }
}
