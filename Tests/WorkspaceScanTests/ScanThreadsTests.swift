#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HighlightConfig
import Synchronization
import Testing
@testable import WorkspaceScan

/// `ScanOptions.threads` (`--threads`): how many threads search, counted by the threads that run `finish`, and the
/// same results whatever the number.
@Suite struct ScanThreadsTests {
    /// A tree of `count` small files and one file large enough to be searched in chunks, each with a TODO.
    static func tree(count: Int) throws -> String {
        var files: [String: [UInt8]] = [:]
        for number in 0..<count { files["f\(number).txt"] = Array("x\nTODO \(number)\n".utf8) }
        files["large.txt"] = Array(String(repeating: "a line of text with a TODO in it\n", count: (5 << 20) / 33).utf8)
        return try WorkspaceScanTests.tree(files)
    }

    /// The threads that ran `finish`, the matches found, and how many files had been delivered as each was prepared,
    /// for a scan of `root` with `threads`.
    static func scan(_ root: String, threads: Int) -> (threads: Set<UInt>, matches: [String], deliveredBefore: [Int]) {
        var options = ScanOptions()
        options.threads = threads
        let seen = Mutex<Set<UInt>>([])
        var matches: [String] = []
        var delivered = 0
        var deliveredBefore: [Int] = []
        let shared = SharedConfiguration(.builtInOnly)
        WorkspaceScanner.scan(
            walking: [root], options: options,
            prepare: {
                deliveredBefore.append(delivered)
                return ScanItem(file: $0, shared: shared, maximumFileSize: Int.max)
            },
            finish: { scanned, _ in
                _ = seen.withLock { $0.insert(UInt(pthread_self())) }
                return scanned
            },
            deliver: { scanned in
                delivered += 1
                matches += scanned.matches.map { "\(scanned.file.relativePath):\($0.start.line)" }
            })
        return (seen.withLock { $0 }, matches, deliveredBefore)
    }

    @Test func oneThreadSearchesOnTheCallingThreadOnly() throws {
        let root = try Self.tree(count: 200)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let one = Self.scan(root, threads: 1)
        #expect(one.threads == [UInt(pthread_self())])
        let two = Self.scan(root, threads: 2)
        #expect(!two.threads.contains(UInt(pthread_self())))
        #expect(two.threads.count <= 2)
        #expect(one.matches == two.matches)
        #expect(one.matches.count == 200 + (5 << 20) / 33)
        // One thread delivers each file before the walk hands over the next: nothing waits in memory.
        #expect(one.deliveredBefore == Array(0..<201))
        // With workers, results wait for the walk's end.
        #expect(two.deliveredBefore.allSatisfy { $0 == 0 })
    }
}
