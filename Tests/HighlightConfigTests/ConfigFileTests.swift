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
}
