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
    /// (with its version) or into the file's bytes on disk as they are now, or, when there is no
    /// file, `CreateFile` and the whole new text. Nil, with the reason logged, outside every folder,
    /// when the file is not a JSON object, is too large, is no regular file, is a link that dangles
    /// or leads out of the folder, or when the client cannot create a file that is needed.
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
        } else if let outside = Self.linkLeavingFolder(configPath, folder: configFolder) {
            log(.info, "\(configPath) is a symbolic link to \(outside), outside \(configFolder); no rule is written into it")
            return nil
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
        // A file on disk may start with a byte order mark, which some clients keep as a character
        // of the first line and others strip. Positions are counted without it; an insertion on
        // the first line replaces that whole line, up to a character past its end that both kinds
        // of client clamp to the line's end, so that neither can land it one character off.
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let stripsMark = source.version == nil && source.utf8.starts(with: byteOrderMark)
        let text = stripsMark ? Array(source.utf8.dropFirst(byteOrderMark.count)) : source.utf8
        guard let insertion = MarkRuleInsertion.insertion(ofRule: rule, into: text) else { return nil }
        let index = LineIndex(utf8: text)
        let position = index.position(ofUTF8Offset: insertion.utf8Offset, encoding: positionEncoding)
        let edit: JSON
        if stripsMark && position.line == 0 {
            let lineEnd = index.utf8Offset(ofLineContentEnd: 0)
            let line = String(decoding: text[0..<insertion.utf8Offset], as: UTF8.self) + insertion.text
                + String(decoding: text[insertion.utf8Offset..<lineEnd], as: UTF8.self)
            let end = Position(line: 0, character: index.characterCount(ofLine: 0, encoding: positionEncoding) + 1)
            edit = ["range": ["start": Position(line: 0, character: 0).json, "end": end.json], "newText": .string(line)]
        } else {
            edit = ["range": ["start": position.json, "end": position.json], "newText": .string(insertion.text)]
        }
        guard client.workspaceEditDocumentChanges else { return ["changes": [configURI: [edit]]] }
        return ["documentChanges": [
            ["textDocument": ["uri": .string(configURI), "version": source.version.map { .integer($0) } ?? .null], "edits": [edit]],
        ]]
    }

    /// Where the symbolic link at `path` leads when that is outside `folder` (the client would write
    /// through it); nil for a file that is no link, or a link that stays inside.
    static func linkLeavingFolder(_ path: String, folder: String) -> String? {
        var entry = stat()
        guard lstat(path, &entry) == 0, entry.st_mode & S_IFMT == S_IFLNK else { return nil }
        func resolved(_ path: String) -> String? {
            guard let pointer = realpath(path, nil) else { return nil }
            defer { free(pointer) }
            return String(cString: pointer)
        }
        // A link that does not resolve is refused by the read that follows, with its own reason.
        guard let target = resolved(path) else { return nil }
        let root = resolved(folder) ?? folder
        return target.hasPrefix(root == "/" ? "/" : root + "/") ? nil : target
    }

    /// The open document that is the file at `path`, if the client has it open.
    func openConfigurationDocument(path: String) -> (uri: String, document: Document)? {
        for (uri, document) in documents where uri.hasSuffix("/" + ConfigFile.name) && filePath(fromURI: uri) == path {
            return (uri, document)
        }
        return nil
    }
}
