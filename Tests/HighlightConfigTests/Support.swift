import Foundation
import PatternEngine
import Testing

@testable import HighlightConfig

/// Test helpers shared by the suites: parsing text as a file, and short descriptions of rules.
enum Support {
    /// The source name used for parsed test text, so that messages read like the real ones.
    static let source = ".highlights.json"

    /// Parses `text` as the contents of a `.highlights.json` file.
    static func parseFile(_ text: String) -> (layer: ConfigLayer?, diagnostics: [ConfigDiagnostic]) {
        ConfigLayer.parse(fileContents: Array(text.utf8), source: source)
    }

    /// Parses `text` and returns the layer, recording an issue when the file is unusable.
    static func layer(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> ConfigLayer {
        let (layer, diagnostics) = parseFile(text)
        guard let layer else {
            Issue.record("the file did not parse: \(diagnostics)", sourceLocation: sourceLocation)
            return ConfigLayer()
        }
        return layer
    }

    /// `name: words A,B` or `name: regex P`, plus the options that differ from the defaults.
    static func describe(_ definition: RuleDefinition) -> String {
        var text = definition.name + ": "
        switch definition.pattern {
        case .words(let words)?: text += "words " + words.joined(separator: ",")
        case .regex(let regex)?: text += "regex " + regex
        case nil: text += "no pattern"
        }
        if !definition.caseSensitive { text += " ignoring case" }
        if definition.wholeWord { text += " whole word" }
        if !definition.enabled { text += " disabled" }
        return text
    }

    /// `name: words A,B` or `name: regex P` for an engine rule.
    static func describe(_ rule: Rule) -> String {
        var definition = RuleDefinition(name: rule.name, pattern: rule.pattern)
        definition.caseSensitive = rule.caseSensitive
        definition.wholeWord = rule.wholeWord
        return describe(definition)
    }

    /// Checks that `diagnostics`, as `source:line:column: message` strings, are `expected`.
    ///
    /// An expected string ending in `*` only has to be a prefix, for messages whose tail comes from
    /// the regex engine.
    static func checkDiagnostics(
        _ diagnostics: [ConfigDiagnostic], _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let actual = diagnostics.map(\.description)
        guard actual.count == expected.count else {
            Issue.record("expected \(expected.count) diagnostics, got \(actual.count):\n\(actual.joined(separator: "\n"))", sourceLocation: sourceLocation)
            return
        }
        for (actualText, expectedText) in zip(actual, expected) {
            if expectedText.hasSuffix("*") {
                #expect(actualText.hasPrefix(String(expectedText.dropLast())), "\(actualText)", sourceLocation: sourceLocation)
            } else {
                #expect(actualText == expectedText, sourceLocation: sourceLocation)
            }
        }
    }

    /// The repository root, found from this file's path (`Tests/HighlightConfigTests/Support.swift`).
    static func repositoryFile(_ relativePath: String, filePath: String = #filePath) -> URL {
        URL(fileURLWithPath: filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(relativePath)
    }

    /// A fresh empty directory under the temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("HighlightConfigTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
