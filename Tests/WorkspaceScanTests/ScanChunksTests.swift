import HighlightConfig
import PatternEngine
import Testing
import TextIndex
@testable import WorkspaceScan

/// The chunks a large file is searched in, gathered (`ChunkMatches`), and the queue that hands results back.
@Suite struct ScanChunksTests {
    /// A text cut after line feeds and gathered chunk by chunk, whether each chunk is located straight into the
    /// gathered array (streaming) or on its own and shifted (chunks on all cores), gives what locating the whole
    /// text gives; a limit keeps the first matches, over chunk boundaries, and says it cut them.
    @Test func gatheredChunksEqualTheWholeText() {
        let text = Array("ab é\r\nx ab\n\nab 🔥 ab\r\nlast ab".utf8)
        var matches: [Match] = []
        var start = 0
        while let found = text[start...].firstRange(of: Array("ab".utf8)) {
            matches.append(Match(ruleIndex: 0, utf8Range: found))
            start = found.upperBound
        }
        let whole = text.withUnsafeBufferPointer { LocatedMatch.locate(matches, in: $0) }
        #expect(whole.count == 5)
        // Chunks end after each line feed.
        var cuts = [0]
        for (index, byte) in text.enumerated() where byte == 0x0A { cuts.append(index + 1) }
        cuts.append(text.count)
        let chunks = zip(cuts, cuts.dropFirst()).map { $0..<$1 }
        for limit in [nil, 5, 4, 2, 1, 0] as [Int?] {
            var streamed = ChunkMatches(limit: limit, expectedBytes: text.count)
            var shifted = ChunkMatches(limit: limit)
            text.withUnsafeBufferPointer { buffer in
                for range in chunks {
                    let local = matches.filter { range.contains($0.utf8Range.lowerBound) }.map {
                        Match(ruleIndex: 0, utf8Range: ($0.utf8Range.lowerBound - range.lowerBound)..<($0.utf8Range.upperBound - range.lowerBound))
                    }
                    let chunk = UnsafeBufferPointer(rebasing: buffer[range])
                    var own: [LocatedMatch] = []
                    let end = LocatedMatch.locate(local, inChunk: chunk, at: .start, appendingTo: &own)
                    let streaming = streamed.locate(local, truncated: false, in: chunk, maximumExcerptBytes: 0)
                    let gathering = shifted.append(ChunkMatches.Chunk(matches: own, truncated: false, end: end))
                    #expect(streaming == gathering, "limit \(String(describing: limit))")
                    if !streaming { break }
                }
            }
            let kept = min(limit ?? Int.max, whole.count)
            #expect(streamed.matches == Array(whole.prefix(kept)), "limit \(String(describing: limit))")
            #expect(shifted.matches == streamed.matches, "limit \(String(describing: limit))")
            #expect(streamed.truncated == (kept < whole.count) && shifted.truncated == streamed.truncated)
        }
    }

    /// A result with many matches is handed back as soon as it and those before it are stored, before the rest of
    /// its batch; `keepsBusy` holds while a batch waits or every worker has one.
    @Test func largeResultsAreHandedBackBeforeTheirBatchEnds() {
        func item(_ name: String) -> ScanItem {
            ScanItem(
                file: WalkedFile(path: name, relativePath: name, size: 0, modificationTime: 0), configuration: .builtInOnly,
                maximumFileSize: 1 << 20)
        }
        func result(_ name: String, matches: Int) -> ScannedFile {
            let text: [UInt8] = [0x61]
            let located = text.withUnsafeBufferPointer { LocatedMatch.locate([Match(ruleIndex: 0, utf8Range: 0..<1)], in: $0) }
            let match = located[0]
            var scanned = ScannedFile(searched: item(name).file, languageID: nil)
            scanned.matches = Array(repeating: match, count: matches)
            return scanned
        }
        let queue = ScanQueue<ScannedFile>()
        queue.add([item("a"), item("b"), item("c")])
        queue.add([item("d")])
        #expect(queue.keepsBusy(workers: 2), "a batch waits")
        guard let (first, batch) = queue.take() else {
            Issue.record("no batch")
            return
        }
        #expect(first == 0 && batch.count == 3)
        #expect(queue.keepsBusy(workers: 2), "the second batch waits")
        _ = queue.take()
        #expect(queue.keepsBusy(workers: 2), "both workers have a batch")
        queue.store([result("d", matches: 1)], at: 1, last: true)
        #expect(!queue.keepsBusy(workers: 2), "one worker is idle and nothing waits")
        // The first file of the first batch, large: handed back while the batch goes on.
        queue.store([result("a", matches: matchesHandedBackAlone)], at: 0, last: false, wakes: true)
        #expect(queue.doneResults().map(\.file.path) == ["a"])
        #expect(queue.doneResults().isEmpty, "each result is handed back once")
        queue.store([result("b", matches: 1), result("c", matches: 1)], at: 0, last: true)
        #expect(queue.nextResults()?.map(\.file.path) == ["b", "c", "d"])
        queue.finish(workers: 2)
        #expect(queue.nextResults() == nil)
    }
}
