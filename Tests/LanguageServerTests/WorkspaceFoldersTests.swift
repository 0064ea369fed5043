import HighlightConfig
import Seeded
import Testing

@testable import LanguageServer

/// The deepest workspace folder of a path, found by walking up the path, agrees with comparing the
/// path against every folder; and adding many folders costs a lookup each, not a pass over all.
@Suite struct WorkspaceFoldersTests {
    /// The reference: every folder compared with the path, the one with the shortest rest winning,
    /// the first of equals.
    static func deepestByComparingAll(_ path: String, _ folders: [WorkspaceFolder]) -> (folder: WorkspaceFolder, relativePath: String)? {
        var best: (folder: WorkspaceFolder, relativePath: String)?
        for folder in folders {
            let normalised = ConfigFile.absolutePath(folder.path, currentDirectory: "/")
            guard let relative = ConfigFile.relativePath(of: path, inFolder: normalised), !relative.isEmpty else { continue }
            if best.map({ relative.utf8.count < $0.relativePath.utf8.count }) ?? true { best = (folder, relative) }
        }
        return best
    }

    @Test(arguments: 1...20)
    func agreesWithComparingEveryFolder(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let names = ["a", "b", "ab", "é", "a b", ".", "..", ""]
        func randomPath(depth: Int) -> String {
            "/" + (0..<depth).map { _ in names[Int(random.next() % UInt64(names.count))] }.joined(separator: "/")
        }
        var folders: [WorkspaceFolder] = []
        for index in 0..<Int(random.next() % 12) {
            var path = randomPath(depth: Int(random.next() % 4))
            if random.next() % 4 == 0 { path += "/" }
            folders.append(WorkspaceFolder(uri: "file://\(index)", path: path))
        }
        let set = WorkspaceFolders(folders)
        for _ in 0..<200 {
            let path = ConfigFile.absolutePath(randomPath(depth: Int(random.next() % 5)), currentDirectory: "/")
            let expected = Self.deepestByComparingAll(path, folders)
            let found = set.place(ofPath: path)
            #expect(found?.folder == expected?.folder && found?.relativePath == expected?.relativePath,
                    "seed \(seed): \(path) in \(folders.map(\.path)): \(String(describing: found)) != \(String(describing: expected))")
        }
    }

    @Test func changesKeepTheOrderAndTheIndex() {
        var set = WorkspaceFolders([WorkspaceFolder(uri: "u1", path: "/w"), WorkspaceFolder(uri: "u2", path: "/w/in")])
        #expect(set.place(ofPath: "/w/in/a.txt")?.folder.uri == "u2")
        set.change(removing: ["u2"], adding: [WorkspaceFolder(uri: "u3", path: "/v")])
        #expect(set.list.map(\.uri) == ["u1", "u3"])
        #expect(set.place(ofPath: "/w/in/a.txt")?.folder.uri == "u1")
        #expect(set.place(ofPath: "/v/x")?.relativePath == "x")
        #expect(set.place(ofPath: "/elsewhere") == nil)
    }
}
