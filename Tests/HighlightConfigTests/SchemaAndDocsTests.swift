import Foundation
import JSONValue
import Testing

@testable import HighlightConfig

/// Keeps `schema/highlights.schema.json` and the configuration reference (`docs/CONFIGURATION.md`) honest about what the loader reads.
@Suite struct SchemaAndDocsTests {
    /// `docs/CONFIGURATION.md`, where the configuration reference lives.
    static func configurationReference() throws -> String {
        try String(contentsOf: Support.repositoryFile("docs/CONFIGURATION.md"), encoding: .utf8)
    }

    static func schema(sourceLocation: SourceLocation = #_sourceLocation) throws -> JSON {
        let data = try Data(contentsOf: Support.repositoryFile("schema/highlights.schema.json"))
        return try JSONParser.parse([UInt8](data), options: .strict)
    }

    static func propertyNames(_ value: JSON?) -> Set<String> {
        Set(value?["properties"]?.objectValue?.keys.map { $0 } ?? [])
    }

    @Test func schemaDescribesExactlyTheLoadersKeys() throws {
        let schema = try Self.schema()
        #expect(schema["$schema"]?.stringValue == "http://json-schema.org/draft-07/schema#")
        #expect(Self.propertyNames(schema) == Set(ConfigKeys.topLevel))
        #expect(Self.propertyNames(schema["definitions"]?["rule"]) == Set(ConfigKeys.rule))
        #expect(Self.propertyNames(schema["definitions"]?["style"]) == Set(ConfigKeys.style))
        for object in [schema, schema["definitions"]?["rule"], schema["definitions"]?["style"]] {
            #expect(object?["additionalProperties"] == .bool(false))
        }
        #expect(schema["definitions"]?["rule"]?["properties"]?["name"]?["pattern"]?.stringValue == RuleName.schemaPattern)
        #expect(schema["definitions"]?["rule"]?["required"] == ["name"])
    }

    @Test func docsMentionEveryKeyAndBuiltInName() throws {
        let docs = try Self.configurationReference()
        for key in ConfigKeys.topLevel + ConfigKeys.rule + ConfigKeys.style {
            #expect(docs.contains("| `\(key)`"), "docs/CONFIGURATION.md has no table row for \(key)")
        }
        for name in ConfigLayer.builtIn.rules.map(\.name) + ConfigLayer.builtIn.styles.keys.sorted() {
            #expect(docs.contains("`\(name)`"), "docs/CONFIGURATION.md does not mention \(name)")
        }
    }

    /// Every ```jsonc block of the configuration reference is a configuration that loads without a single diagnostic.
    @Test func docsExamplesParse() throws {
        let docs = try Self.configurationReference()
        var examples: [String] = []
        var current: [Substring]?
        for line in docs.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```jsonc" {
                current = []
            } else if let lines = current, line == "```" {
                examples.append(lines.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        #expect(examples.count >= 4)
        for example in examples {
            let (layer, diagnostics) = Support.parseFile(example)
            #expect(layer != nil && diagnostics.isEmpty, "\(example)\n\(diagnostics)")
            if let layer {
                let configuration = HighlightConfiguration(layers: [layer])
                #expect(configuration.diagnostics.isEmpty, "\(configuration.diagnostics)")
            }
        }
    }
}
