#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import HighlightConfig
import JSONRPC
import JSONValue
import TextIndex

extension Server {
    /// The `WorkspaceEdit` that writes a rule for `target` into the `.highlights.json` that
    /// governs the document (else that of its workspace folder): an insertion into the open buffer
    /// or the file on disk, or, when there is no file, `CreateFile` and the whole new text. Nil
    /// outside every folder, when the file is not a JSON object, or when the client cannot create
    /// a file that is needed.
    func markRuleFileEdit(forDocument uri: String, target: MarkTarget) -> JSON? {
        guard let folder = workspaceFolder(ofDocument: uri) else { return nil }
        let governing = configurationPlace(ofDocument: uri)?.folder.flatMap { $0 == folder.path ? nil : $0 }
        let configFolder = governing ?? folder.path
        let configPath = ConfigFile.path(inFolder: configFolder)
        // The folder's own file is named in the client's spelling of the folder's URI.
        let configURI = governing.map { _ in openConfigurationDocument(path: configPath)?.uri ?? URL(fileURLWithPath: configPath).absoluteString }
            ?? (folder.uri.hasSuffix("/") ? folder.uri : folder.uri + "/") + ConfigFile.name

        // The editor's view of the file wins over the disk, so that an unsaved edit is built on.
        // The disk is read as every configuration file is (a FIFO or a device in its place is
        // refused, never waited on); a file that cannot be read is not edited.
        let source: (utf8: [UInt8], version: Int?)?
        if let (_, document) = openConfigurationDocument(path: configPath) {
            source = (document.text.utf8, document.version)
        } else {
            switch ConfigFile.readRegularFile(atPath: configPath, limit: ConfigFile.maximumSizeInBytes) {
            case .read(let bytes): source = (bytes, nil)
            case .missing: source = nil
            case .tooLarge:
                log(.info, "\(configPath) is larger than \(ConfigFile.maximumSizeInBytes) bytes; no rule is written into it")
                return nil
            case .refused(let reason):
                log(.info, "\(configPath): \(reason); no rule is written into it")
                return nil
            }
        }

        var taken = Set(configuration(forDocumentURI: uri).rules.map(\.name)).union(SessionMarks.tokenTypes)
        if let source {
            guard let names = MarkRuleInsertion.ruleNames(in: source.utf8) else { return nil }
            taken.formUnion(names)
        }
        let name = MarkRuleInsertion.ruleName(for: target.text, taken: taken)
        let style = SessionMarks.palette[(configuration.fileLayers[configFolder]?.rules.count ?? 0) % SessionMarks.palette.count]
        let rule = MarkRuleInsertion.ruleText(name: name, text: target.text, wholeWord: target.wholeWord, style: style)

        guard let source else {
            guard client.workspaceEditDocumentChanges, client.workspaceEditCreatesFiles else { return nil }
            let start: JSON = ["line": 0, "character": 0]
            return ["documentChanges": [
                ["kind": "create", "uri": .string(configURI), "options": ["ignoreIfExists": true]],
                ["textDocument": ["uri": .string(configURI), "version": .null], "edits": [
                    ["range": ["start": start, "end": start], "newText": .string(MarkRuleInsertion.newFileText(rule: rule))],
                ]],
            ]]
        }
        guard let insertion = MarkRuleInsertion.insertion(ofRule: rule, into: source.utf8) else { return nil }
        let position = LineIndex(utf8: source.utf8).position(ofUTF8Offset: insertion.utf8Offset, encoding: positionEncoding)
        let point: JSON = ["line": .integer(position.line), "character": .integer(position.character)]
        let edit: JSON = ["range": ["start": point, "end": point], "newText": .string(insertion.text)]
        guard client.workspaceEditDocumentChanges else { return ["changes": [configURI: [edit]]] }
        return ["documentChanges": [
            ["textDocument": ["uri": .string(configURI), "version": source.version.map { .integer($0) } ?? .null], "edits": [edit]],
        ]]
    }

    /// The open document that is the file at `path`, if the client has it open.
    func openConfigurationDocument(path: String) -> (uri: String, document: Document)? {
        for (uri, document) in documents where uri.hasSuffix("/" + ConfigFile.name) && filePath(fromURI: uri) == path {
            return (uri, document)
        }
        return nil
    }
}
