// Updating the index after an edit without rescanning the whole text.
//
// An edit replaces old bytes `a..<b`. Only lines that overlap the edit change; lines before
// it stay as they are and lines after it only move by the change in length. Two borders need
// care because `\r\n` is one terminator:
//
//   - Inserting `\n` right after a lone `\r` (or deleting the text between `\r` and `\n`)
//     joins them, so the rescan starts at the line that holds byte `a - 1`, not `a`.
//   - Deleting the `\r` of a `\r\n`, or inserting between them, splits or changes the
//     terminator of the line that holds byte `b`; the rescan runs through the end of that
//     line, whose last byte lies after the edit and is unchanged.
//
//     old:  ... line L0 ... [a ....... b) ... rest of line L1 + terminator | line L1+1 ...
//     new:  ... line L0 ... [a .. inserted) ... rest of line L1 + terminator | (moved) ...
//                 ^ rescan from the start of L0                   rescan to ^

extension LineIndex {
    /// Updates the index after `utf8Range` of the old text was replaced by `insertedUTF8Count`
    /// bytes; `newText` is the whole text after the edit.
    ///
    /// The range is clamped to the old text. When `newText` does not have the length the edit
    /// implies, the index is rebuilt from `newText`, so the result always describes `newText`.
    ///
    /// - Complexity: O(*e* + *d*) where *e* is the length of the lines the edit touches (in the
    ///   new text) and *d* the number of lines and wide characters between this edit and the one
    ///   before (see `ShiftingOffsets`), plus moving the records after the edit in memory when
    ///   their count changes.
    public mutating func replace(
        utf8Range: Range<Int>, withUTF8Count insertedUTF8Count: Int, in newText: UnsafeBufferPointer<UInt8>
    ) {
        let oldCount = utf8Count
        let removedStart = min(max(utf8Range.lowerBound, 0), oldCount)
        let removedEnd = min(max(utf8Range.upperBound, removedStart), oldCount)
        let removedCount = removedEnd - removedStart
        guard insertedUTF8Count >= 0, oldCount - removedCount + insertedUTF8Count == newText.count else {
            self = LineIndex(utf8: newText)
            return
        }
        let delta = insertedUTF8Count - removedCount

        let firstLine = line(containingUTF8Offset: max(removedStart - 1, 0))
        let lastLine = line(containingUTF8Offset: removedEnd)
        let oldRegionEnd = lastLine + 1 < shapes.count ? starts[lastLine + 1] : oldCount
        let newRegionStart = starts[firstLine]
        let newRegionEnd = oldRegionEnd + delta
        let isDocumentEnd = lastLine + 1 >= shapes.count

        // A region that is not at the end of the text ends after a terminator whose last byte
        // was not edited. Should that be a `\r` now followed by `\n`, the pair would have been
        // one terminator before the edit too, which the old index rules out; rebuild if the
        // texts disagree with that anyway.
        if !isDocumentEnd, newRegionEnd > 0, newRegionEnd < newText.count,
            newText[newRegionEnd - 1] == 0x0D, newText[newRegionEnd] == 0x0A
        {
            self = LineIndex(utf8: newText)
            return
        }

        var scanned = ScannedLines()
        let restStart = scanned.scan(newText, utf8Range: newRegionStart..<newRegionEnd, isDocumentEnd: isDocumentEnd)
        guard restStart == newRegionEnd, !scanned.shapes.isEmpty else {
            self = LineIndex(utf8: newText)
            return
        }

        loneCarriageReturnCount +=
            scanned.loneCarriageReturnCount - shapes[firstLine...lastLine].count(where: { $0.terminator == .loneCarriageReturn })
        shapes.replaceSubrange(firstLine...lastLine, with: scanned.shapes)
        // The starts of the following lines and wide characters move by `delta`, lazily: the
        // part of a keystroke that would otherwise grow with the file.
        starts.replaceSubrange(firstLine..<(lastLine + 1), with: scanned.starts, shiftingFollowingBy: delta)
        let replacedWide = wideStarts.replaceOffsets(
            in: newRegionStart..<oldRegionEnd, with: scanned.wideStarts, shiftingFollowingBy: delta)
        wideCharacters.replaceSubrange(replacedWide, with: scanned.wideCharacters)
        utf8Count = newText.count
    }
}
