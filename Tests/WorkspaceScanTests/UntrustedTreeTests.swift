import Foundation
import HighlightConfig
import PatternEngine
import Testing
@testable import WorkspaceScan

/// A tree nobody vetted: names that are not UTF-8, FIFOs where files or ignore files should be.
/// Nothing may be skipped silently, and nothing may hang the walk or the scan.
@Suite struct UntrustedTreeTests {
    /// `path` as a NUL-terminated C string, any bytes kept (nil only if the array had no storage).
    static func withCPath<Result>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result? {
        let terminated = path.map { CChar(bitPattern: $0) } + [0]
        return terminated.withUnsafeBufferPointer { buffer in buffer.baseAddress.map(body) }
    }

    /// Creates the file at the raw path `path` holding `contents`.
    static func createFile(_ path: [UInt8], contents: [UInt8]) throws {
        let descriptor = withCPath(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } ?? -1
        try #require(descriptor >= 0, "cannot create a file: \(String(cString: strerror(errno)))")
        defer { close(descriptor) }
        try #require(contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == contents.count)
    }

    /// (name bytes, how they are shown)
    static let displayed: [([UInt8], String)] = [
        (Array("plain.txt".utf8), "plain.txt"),
        (Array("back\\slash é.txt".utf8), "back\\slash é.txt"),  // valid: never changed
        ([0x61, 0xFF, 0x62], "a\\xFFb"),
        ([0xFE, 0x5C, 0xC3, 0xA9], "\\xFE\\\\é"),  // an escaped name doubles its backslashes, keeps valid UTF-8
        ([0xE2, 0x82], "\\xE2\\x82"),  // a truncated sequence
        ([0xC0, 0xAF], "\\xC0\\xAF"),  // an overlong `/`
        ([0xED, 0xA0, 0x80], "\\xED\\xA0\\x80"),  // a surrogate
        ([0xF4, 0x90, 0x80, 0x80], "\\xF4\\x90\\x80\\x80"),  // past U+10FFFF
        ([0x80, 0x41], "\\x80A"),
    ]

    @Test(arguments: displayed)
    func namesAreShownEscaped(bytes: [UInt8], shown: String) {
        #expect(FileSystemPath.displayed(bytes) == shown)
    }

    /// Reads a shown name back into bytes: `\\xNN` and `\\\\` undone, the rest as UTF-8 (for escaped names only).
    static func bytes(ofShown shown: String) -> [UInt8]? {
        var out: [UInt8] = []
        let scalars = Array(shown.unicodeScalars)
        var index = 0
        while index < scalars.count {
            if scalars[index] == "\\" {
                guard index + 1 < scalars.count else { return nil }
                if scalars[index + 1] == "\\" {
                    out.append(UInt8(ascii: "\\"))
                    index += 2
                    continue
                }
                guard scalars[index + 1] == "x", index + 3 < scalars.count,
                      let byte = UInt8(String(String.UnicodeScalarView(scalars[index + 2...index + 3])), radix: 16) else { return nil }
                out.append(byte)
                index += 4
            } else {
                out += Array(String(scalars[index]).utf8)
                index += 1
            }
        }
        return out
    }

    /// Every name of one and two bytes, and three-byte names over the bytes where UTF-8 is subtle:
    /// a valid name is shown unchanged; any other is shown as text that reads back to exactly its
    /// bytes, so two different names are never shown alike.
    @Test func escapingIsExactAndReversible() {
        let subtle: [UInt8] = [0x00, 0x2F, 0x41, 0x5C, 0x78, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
                               0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]
        var names: [[UInt8]] = (0...255).map { [UInt8($0)] }
        for first in 0...255 { for second in 0...255 { names.append([UInt8(first), UInt8(second)]) } }
        for a in subtle { for b in subtle { for c in subtle { names.append([a, b, c]) } } }
        var failures: [String] = []
        for name in names {
            let shown = FileSystemPath.displayed(name)
            if let valid = String(validating: name, as: UTF8.self) {
                if shown != valid { failures.append("\(name): a valid name was changed to \(shown)") }
            } else if Self.bytes(ofShown: shown) != name {
                failures.append("\(name): shown as \(shown), which reads back as \(Self.bytes(ofShown: shown) ?? [])")
            }
            if failures.count > 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// A file whose name is not UTF-8 is walked, shown escaped, read by its real bytes and searched;
    /// so is every file below a folder whose name is not UTF-8 (and that folder's ignore file is obeyed).
    @Test func namesThatAreNotUTF8AreSearched() throws {
        let root = try WorkspaceScanTests.tree(["plain.txt": WorkspaceScanTests.text("fine\n")])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let base = Array(root.utf8) + [UInt8(ascii: "/")]
        try Self.createFile(base + Array("bad".utf8) + [0xFF] + Array(".txt".utf8), contents: WorkspaceScanTests.text("// TODO here\n"))
        let folder = base + [UInt8(ascii: "d"), 0xE9]  // "d" and a Latin-1 é
        try #require(Self.withCPath(folder) { mkdir($0, 0o755) } == 0)
        try Self.createFile(folder + Array("/inner.txt".utf8), contents: WorkspaceScanTests.text("FIXME inside\n"))
        try Self.createFile(folder + Array("/skip.log".utf8), contents: WorkspaceScanTests.text("FIXME ignored\n"))
        try Self.createFile(folder + Array("/.gitignore".utf8), contents: WorkspaceScanTests.text("*.log\n"))

        var problems: [WalkProblem] = []
        var files: [WalkedFile] = []
        WorkspaceWalker.walk(under: root, problem: { problems.append($0) }) { files.append($0) }
        #expect(problems.isEmpty)
        #expect(files.map(\.relativePath) == ["bad\\xFF.txt", "d\\xE9/inner.txt", "plain.txt"])
        #expect(files.map(\.path) == files.map { root + "/" + $0.relativePath })
        #expect(files.map { $0.undecodedPath != nil } == [true, true, false])

        let scanned = WorkspaceScanner.scan(files, configuration: .builtInOnly)
        #expect(scanned.allSatisfy { if case .searched = $0.outcome { true } else { false } })
        #expect(scanned.map { $0.matches.map(\.text) } == [["TODO"], ["FIXME"], []])
        // The streaming scan (the command line's) finds the same.
        let streamed = WorkspaceScanner.scan(walking: [root], configuration: .builtInOnly)
        #expect(streamed.map { $0.matches.map(\.text) } == [["TODO"], ["FIXME"], []])
    }

    /// A FIFO named `.gitignore` is not read (reading it would wait for a writer forever): it is
    /// reported, and the walk goes on without it.
    @Test func aFIFOIgnoreFileIsReportedNotRead() throws {
        let root = try WorkspaceScanTests.tree(["a.log": WorkspaceScanTests.text("TODO\n"), "sub/b.txt": []])
        defer { try? FileManager.default.removeItem(atPath: root) }
        try #require(mkfifo(root + "/.gitignore", 0o644) == 0)
        try #require(mkfifo(root + "/sub/.ignore", 0o644) == 0)
        var problems: [WalkProblem] = []
        var files: [String] = []
        WorkspaceWalker.walk(under: root, problem: { problems.append($0) }) { files.append($0.relativePath) }
        #expect(files == ["a.log", "sub/b.txt"])
        #expect(problems == [
            WalkProblem(path: root + "/.gitignore", reason: "not a regular file", kind: .ignoreFile),
            WalkProblem(path: root + "/sub/.ignore", reason: "not a regular file", kind: .ignoreFile),
        ])
    }

    /// A regular file replaced by a FIFO between the walk and the read is refused with a reason, not waited on.
    @Test func aFileReplacedByAFIFOIsUnreadableNotWaitedOn() throws {
        let root = try WorkspaceScanTests.tree(["swapped.txt": WorkspaceScanTests.text("TODO\n")])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = WorkspaceWalker.files(under: root)
        try FileManager.default.removeItem(atPath: root + "/swapped.txt")
        try #require(mkfifo(root + "/swapped.txt", 0o644) == 0)
        let scanned = WorkspaceScanner.scan(files, configuration: .builtInOnly)
        #expect(scanned.first.map { if case .skipped(.unreadable) = $0.outcome { true } else { false } } == true)
        #expect(scanned.first?.outcome == .skipped(.unreadable(reason: "not a regular file")))
    }

    /// A file that vanished after the walk is unreadable with the system's reason.
    @Test func aVanishedFileIsUnreadableWithItsReason() throws {
        let root = try WorkspaceScanTests.tree(["gone.txt": WorkspaceScanTests.text("TODO\n")])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = WorkspaceWalker.files(under: root)
        try FileManager.default.removeItem(atPath: root + "/gone.txt")
        let scanned = WorkspaceScanner.scan(files, configuration: .builtInOnly)
        #expect(scanned.first.map { if case .skipped(.unreadable) = $0.outcome { true } else { false } } == true)
        #expect(scanned.first?.outcome == .skipped(.unreadable(reason: "no such file or directory")))
    }

    /// A root that does not exist is a problem, not an empty walk.
    @Test func aMissingRootIsAProblem() {
        var problems: [WalkProblem] = []
        WorkspaceWalker.walk(under: "/nonexistent-\(UUID().uuidString)", problem: { problems.append($0) }) { _ in }
        #expect(problems.map(\.reason) == ["no such file or directory"])
    }
}
