import Testing
@testable import WorkspaceScan

/// .gitignore files as tables: file text, path, whether a directory, the decision (nil: no pattern matched).
@Suite struct IgnoreRulesTests {
    static let table: [(String, String, Bool, Bool?)] = [
        ("*.log", "a.log", false, true), ("*.log", "x/y/a.log", false, true), ("*.log", "a.txt", false, nil),
        ("# c\n\n*.log\n!keep.log", "keep.log", false, false), ("!keep.log\n*.log", "keep.log", false, true),
        ("build/", "build", true, true), ("build/", "build", false, nil), ("build/", "x/build", true, true),
        ("/TODO.txt", "TODO.txt", false, true), ("/TODO.txt", "x/TODO.txt", false, nil),
        ("doc/frotz", "doc/frotz", true, true), ("doc/frotz", "a/doc/frotz", true, nil),
        ("docs/**/*.pdf", "docs/a/b/c.pdf", false, true), ("**/foo", "a/foo", false, true), ("foo/**", "foo/a", false, true),
        ("\\#name", "#name", false, true), ("\\!name", "!name", false, true), ("a\\ ", "a ", false, true), ("a  ", "a", false, true),
        ("*.o\r\n*.a", "x.a", false, true),
        // A trailing `/**` is what is inside, never the directory itself (as git), so `!foo/keep` can bring a file back.
        ("foo/**", "foo", true, nil), ("foo/**/**", "foo", true, nil), ("foo/**/**", "foo/a/b", false, true),
        ("foo/**\n!foo/keep", "foo/keep", false, false), ("*/**", "top", false, nil), ("*/**", "top/x", false, true),
        ("**/foo/**", "a/foo", true, nil), ("**/foo/**", "a/foo/b", false, true), ("/**", "x", false, true),
        // Braces are themselves, as git reads them (an escaped one too); a class may hold one.
        ("{a,b}.txt", "a.txt", false, nil), ("{a,b}.txt", "{a,b}.txt", false, true), ("x/{y}", "x/{y}", false, true),
        ("\\{a,b}", "{a,b}", false, true), ("[{]*", "{q", false, true), ("*.{c,h}", "x.c", false, nil),
        // Wildcard patterns in one automaton, with the last match still deciding.
        ("*foo*.tmp\n!*foo1*\nbuild-*/", "a/xfoo2y.tmp", false, true), ("*foo*.tmp\n!*foo1*", "xfoo1.tmp", false, false),
        ("src/**/gen_*.c", "src/a/b/gen_x.c", false, true), ("src/**/gen_*.c", "lib/gen_x.c", false, nil),
        ("build-*/", "x/build-7", true, true), ("build-*/", "x/build-7", false, nil),
    ]

    @Test func patterns() {
        for (text, path, isDirectory, expected) in Self.table {
            let file = IgnoreFile(text: text, directory: "")
            #expect(file.decision(forPath: path, isDirectory: isDirectory) == expected, "\(text.debugDescription) on \(path)")
        }
    }

    @Test func nestedFilesAreRelativeToTheirDirectoryAndWin() {
        let root = IgnoreFile(text: "*.gen\n/top.txt", directory: "")
        let nested = IgnoreFile(text: "!keep.gen\n/top.txt", directory: "sub")
        let stack = IgnoreStack().pushing(root).pushing(nested)
        #expect(stack.isIgnored("a.gen", isDirectory: false))
        #expect(stack.isIgnored("sub/a.gen", isDirectory: false))
        #expect(!stack.isIgnored("sub/keep.gen", isDirectory: false))
        #expect(stack.isIgnored("top.txt", isDirectory: false))
        #expect(stack.isIgnored("sub/top.txt", isDirectory: false))
        #expect(!stack.isIgnored("other/top.txt", isDirectory: false))
    }
}
