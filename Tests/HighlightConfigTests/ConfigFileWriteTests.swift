import Foundation
import Testing

@testable import HighlightConfig

/// `ConfigFile.writeAtomically`: inside the folder only, never waiting on a special file, all or nothing.
@Suite struct ConfigFileWriteTests {
    /// (what stands at the name, how it is replaced, what the write does, what the folder then holds)
    static let cases: [(String, ConfigFile.Replacing, String, [String])] = [
        ("nothing", .nothing, "written", ["f"]),
        ("nothing", .regularFile, "written", ["f"]),
        ("a file", .nothing, "exists", ["f"]),
        ("a file", .regularFile, "written", ["f"]),
        ("a link", .regularFile, "refused: f is a symbolic link to ../outside", ["f"]),
        ("a link", .nothing, "refused: f is a symbolic link to ../outside", ["f"]),
        ("a dangling link", .regularFile, "refused: f is a symbolic link to ../nowhere", ["f"]),
        ("a FIFO", .regularFile, "refused: f is not a regular file (a FIFO); it is left as it is", ["f"]),
        ("a directory", .regularFile, "refused: f is a directory, not a file; it is left as it is", ["f"]),
    ]

    @Test(arguments: cases)
    func writes(standing: String, replacing: ConfigFile.Replacing, outcome: String, holds: [String]) throws {
        let base = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        let folder = base.appendingPathComponent("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let outside = base.appendingPathComponent("outside")
        try Data("outside\n".utf8).write(to: outside)
        let path = folder.path + "/f"
        switch standing {
        case "a file": try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
        case "a link": try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "../outside")
        case "a dangling link": try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "../nowhere")
        case "a FIFO": try #require(mkfifo(path, 0o644) == 0)
        case "a directory": try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        default: break
        }
        let result = ConfigFile.writeAtomically(Array("new\n".utf8), named: "f", inFolder: folder.path, replacing: replacing)
        switch result {
        case .written: #expect(outcome == "written")
        case .exists: #expect(outcome == "exists")
        case .refused(let reason): #expect(outcome.hasPrefix("refused: ") && reason.hasPrefix(outcome.dropFirst(9)), "\(reason)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == holds)
        #expect(try String(contentsOf: outside, encoding: .utf8) == "outside\n")
        #expect(!FileManager.default.fileExists(atPath: base.path + "/nowhere"))
        if outcome == "written" { #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n") }
        if standing == "a file", outcome == "exists" { #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n") }
    }
}
