import Synchronization
import Testing

@testable import HighlightConfig

/// Which `.highlights.json` governs a file: a table of trees (the paths that exist) and answers.
@Suite struct ConfigPlaceTests {
    struct Case {
        var name: String
        var existing: Set<String>
        var file: String
        var currentDirectory = "/"
        var folder: String?
        /// Relative to `folder`; nil when no file governs.
        var relativePath: String?
    }

    static let cases: [Case] = [
        Case(name: "own folder", existing: ["/p/.highlights.json"], file: "/p/a.txt", folder: "/p", relativePath: "a.txt"),
        Case(name: "nearest above", existing: ["/p/.highlights.json", "/.highlights.json"], file: "/p/src/deep/a.txt", folder: "/p", relativePath: "src/deep/a.txt"),
        Case(name: "nested wins", existing: ["/p/.highlights.json", "/p/sub/.highlights.json"], file: "/p/sub/x/a.txt", folder: "/p/sub", relativePath: "x/a.txt"),
        Case(name: "stops at the repository root", existing: ["/.highlights.json", "/p/.git"], file: "/p/src/a.txt", folder: nil, relativePath: nil),
        Case(name: "the repository root's own file", existing: ["/p/.highlights.json", "/p/.git"], file: "/p/src/a.txt", folder: "/p", relativePath: "src/a.txt"),
        Case(name: "a nested repository stops too", existing: ["/p/.highlights.json", "/p/vendor/lib/.git"], file: "/p/vendor/lib/a.c", folder: nil, relativePath: nil),
        Case(name: "up to the filesystem root", existing: ["/.highlights.json"], file: "/a/b/c.txt", folder: "/", relativePath: "a/b/c.txt"),
        Case(name: "none at all", existing: [], file: "/a/b/c.txt", folder: nil, relativePath: nil),
        Case(name: "relative path", existing: ["/home/u/p/.highlights.json"], file: "p/src/a.txt", currentDirectory: "/home/u", folder: "/home/u/p", relativePath: "src/a.txt"),
        Case(name: "dots", existing: ["/home/u/p/.highlights.json"], file: "./../u/p/./src//a.txt", currentDirectory: "/home/u", folder: "/home/u/p", relativePath: "src/a.txt"),
        Case(name: "from a subfolder", existing: ["/p/.highlights.json"], file: "../docs/b.md", currentDirectory: "/p/src", folder: "/p", relativePath: "docs/b.md"),
    ]

    @Test(arguments: cases) func place(_ example: Case) {
        let existing = example.existing
        var placement = ConfigPlacement(fileExists: { existing.contains($0) })
        let found = placement.place(ofFile: example.file, currentDirectory: example.currentDirectory)
        #expect(found?.folder == example.folder, "\(example.name)")
        #expect(found?.relativePath == example.relativePath, "\(example.name)")
        // Asked again, from the answers kept, the same.
        #expect(placement.place(ofFile: example.file, currentDirectory: example.currentDirectory)?.folder == example.folder)
    }

    /// Each folder is looked at once, however many files and folders below it are asked about.
    @Test func eachFolderIsLookedAtOnce() {
        let looks = LookCounter()
        var placement = ConfigPlacement(fileExists: { path in looks.count(path); return path == "/p/.highlights.json" })
        for file in ["/p/a/b/one.txt", "/p/a/b/two.txt", "/p/a/three.txt", "/p/a/c/four.txt", "/p/five.txt"] {
            #expect(placement.place(ofFile: file)?.folder == "/p")
        }
        // /p/a/b, /p/a, /p/a/c: a `.highlights.json` and a `.git` each; /p: its `.highlights.json`.
        #expect(looks.total == 7)
        placement.forgetAll()
        #expect(placement.place(ofFile: "/p/a/b/one.txt")?.folder == "/p")
        #expect(looks.total == 12)
    }

    @Test func pathHelpers() {
        #expect(ConfigFile.absolutePath("a/../../b", currentDirectory: "/x") == "/b")
        #expect(ConfigFile.absolutePath("/", currentDirectory: "/x") == "/")
        let normalised: [(String, String)] = [
            ("/a/./b/../c//d/", "/a/c/d"), ("/a/b", "/a/b"), ("/a/b/.", "/a/b"), ("/a/b/..", "/a"), ("x/..", "/x"),
            ("/...", "/..."), ("/a..b/c.", "/a..b/c."), ("/.hidden/.x", "/.hidden/.x"), ("//", "/"), ("/./", "/"),
            ("../..", "/"), ("é/./ü", "/x/é/ü"), (".", "/x"), ("", "/x"),
        ]
        for (path, expected) in normalised {
            #expect(ConfigFile.absolutePath(path, currentDirectory: "/x") == expected, "\(path)")
        }
        #expect(ConfigFile.searchStep(atFolder: "/p", fileExists: { $0 == "/p/.highlights.json" }) == .governs)
        #expect(ConfigFile.searchStep(atFolder: "/p", fileExists: { $0 == "/p/.git" }) == .stops)
        #expect(ConfigFile.searchStep(atFolder: "/p", fileExists: { _ in false }) == .goesUp)
        #expect(ConfigFile.relativePath(of: "/ab/c", inFolder: "/a") == nil)
        #expect(ConfigFile.relativePath(of: "/a/c", inFolder: "/a") == "c")
        #expect(ConfigFile.relativePath(of: "/a", inFolder: "/a") == "")
        #expect(ConfigFile.relativePath(of: "/a/c", inFolder: "/") == "a/c")
        #expect(ConfigFile.parentFolder(of: "/a") == "/")
        #expect(ConfigFile.parentFolder(of: "/a/b") == "/a")
    }
}

/// Counts the paths a placement looks at.
final class LookCounter: Sendable {
    private let looks = Mutex(0)

    func count(_ path: String) {
        looks.withLock { $0 += 1 }
    }

    var total: Int { looks.withLock { $0 } }
}

extension ConfigPlaceTests.Case: CustomTestStringConvertible {
    var testDescription: String { name }
}
