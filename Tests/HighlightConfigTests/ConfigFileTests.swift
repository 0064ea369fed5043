import Foundation
import Testing

@testable import HighlightConfig

/// Reading `.highlights.json` from disk: present, missing, a directory, too large, broken.
@Suite struct ConfigFileTests {
    @Test func missingFileIsNotAnError() throws {
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        guard case .missing = ConfigFile.load(path: ConfigFile.path(inFolder: folder.path)) else {
            Issue.record("expected .missing")
            return
        }
    }

    @Test func loadsAFile() throws {
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = ConfigFile.path(inFolder: folder.path + "/")
        #expect(path == folder.path + "/.highlights.json")
        try Data(#"{ "rules": [ { "name": "a", "words": ["A"], "x": 1 }, { "name": "b", "words": ["B"] } ] }"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        guard case .loaded(let layer, let diagnostics) = ConfigFile.load(path: path) else {
            Issue.record("expected .loaded")
            return
        }
        #expect(layer.rules.map(\.name) == ["b"])
        Support.checkDiagnostics(diagnostics, ["\(path):1:45: rule \"a\": unknown key \"x\""])
    }

    @Test func directoryOfThatNameIsUnusable() throws {
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = ConfigFile.path(inFolder: folder.path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        guard case .unusable(let diagnostics) = ConfigFile.load(path: path) else {
            Issue.record("expected .unusable")
            return
        }
        Support.checkDiagnostics(diagnostics, ["\(path): .highlights.json is a directory, not a file; it is ignored"])
    }

    @Test func tooLargeFileIsUnusable() throws {
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = ConfigFile.path(inFolder: folder.path)
        try Data(repeating: UInt8(ascii: " "), count: ConfigFile.maximumSizeInBytes + 10).write(to: URL(fileURLWithPath: path))
        guard case .unusable(let diagnostics) = ConfigFile.load(path: path) else {
            Issue.record("expected .unusable")
            return
        }
        Support.checkDiagnostics(diagnostics, ["\(path): the file is larger than the limit of 4194304 bytes (4 MiB); it is ignored"])
    }

    @Test func syntaxErrorIsUnusableWithItsPosition() throws {
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = ConfigFile.path(inFolder: folder.path)
        try Data("{\n  \"rules\": [\n    { \"name\": \"a\" \"words\": [] }\n  ]\n}\n".utf8).write(to: URL(fileURLWithPath: path))
        guard case .unusable(let diagnostics) = ConfigFile.load(path: path) else {
            Issue.record("expected .unusable")
            return
        }
        Support.checkDiagnostics(diagnostics, ["\(path):3:19: invalid JSON: *"])
    }

    /// Whatever sits in the file's place, `load` returns at once: a FIFO is never opened for a
    /// blocking read, and links are resolved on purpose, with a message when they lead nowhere.
    static let entries: [(String, @Sendable (String) throws -> Void, String)] = [
        ("a FIFO", { path in try #require(mkfifo(path, 0o644) == 0) }, ".highlights.json is not a regular file (a FIFO); it is ignored"),
        ("a link loop", { path in try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: ".highlights.json") },
            ".highlights.json is a symbolic link to .highlights.json that loops (too many levels of symbolic links); it is ignored"),
        ("a two-link loop", { path in
            let other = (path as NSString).deletingLastPathComponent + "/other.json"
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "other.json")
            try FileManager.default.createSymbolicLink(atPath: other, withDestinationPath: ".highlights.json")
        }, ".highlights.json is a symbolic link to other.json that loops (too many levels of symbolic links); it is ignored"),
        ("a dangling link", { path in try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "nowhere.json") },
            ".highlights.json is a dangling symbolic link to nowhere.json: its target does not exist; it is ignored"),
        ("a link to a FIFO", { path in
            let fifo = (path as NSString).deletingLastPathComponent + "/fifo"
            try #require(mkfifo(fifo, 0o644) == 0)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "fifo")
        }, ".highlights.json is not a regular file (a FIFO); it is ignored"),
        ("a link to a directory", { path in
            let folder = (path as NSString).deletingLastPathComponent + "/folder"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "folder")
        }, ".highlights.json is a directory, not a file; it is ignored"),
        ("a device", { path in try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero") },
            ".highlights.json is not a regular file (a device); it is ignored"),
    ]

    @Test(arguments: entries)
    func anEntryThatIsNoFileIsUnusableWithAMessage(name: String, make: @Sendable (String) throws -> Void, expected: String) throws {
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = ConfigFile.path(inFolder: folder.path)
        try make(path)
        guard case .unusable(let diagnostics) = ConfigFile.load(path: path) else {
            Issue.record("\(name): expected .unusable")
            return
        }
        Support.checkDiagnostics(diagnostics, ["\(path): \(expected)"])
        // Such an entry governs its folder (so that it is reported), as a file would.
        var placement = ConfigPlacement()
        #expect(placement.governingFolder(ofFolder: folder.path) == folder.path, "\(name)")
    }

    /// A link to a regular file is read like the file (links are resolved deliberately, not refused).
    @Test func aLinkToARegularFileIsRead() throws {
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{ "rules": [ { "name": "shared", "words": ["S"] } ] }"#.utf8).write(to: folder.appendingPathComponent("shared.json"))
        let path = ConfigFile.path(inFolder: folder.path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "shared.json")
        guard case .loaded(let layer, let diagnostics) = ConfigFile.load(path: path) else {
            Issue.record("expected .loaded")
            return
        }
        #expect(layer.rules.map(\.name) == ["shared"])
        #expect(diagnostics.isEmpty)
    }

    /// The size limit is applied while reading from the open descriptor.
    @Test func readingStopsAtTheLimit() throws {
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.path + "/file"
        try Data(repeating: 0x20, count: 100).write(to: URL(fileURLWithPath: path))
        #expect(ConfigFile.readRegularFile(atPath: path, limit: 100) == .read([UInt8](repeating: 0x20, count: 100)))
        #expect(ConfigFile.readRegularFile(atPath: path, limit: 99) == .tooLarge)
        #expect(ConfigFile.readRegularFile(atPath: folder.path + "/missing", limit: 99) == .missing)
        #expect(ConfigFile.readRegularFile(atPath: path + "/below-a-file", limit: 99) == .missing)
    }
}
