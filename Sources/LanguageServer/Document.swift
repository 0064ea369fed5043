import PatternEngine
import TextIndex

/// An open document: its text (kept exactly once), version and the highlights of that text.
struct Document {
    let uri: String
    var languageId: String
    var version: Int
    var text: TextBuffer
    /// The matches of `text` under the configuration identified by `configurationGeneration`;
    /// `nil` until first needed after a change.
    var matches: MatchList?
    var configurationGeneration: Int = -1

    init(uri: String, languageId: String, version: Int, text: [UInt8]) {
        self.uri = uri
        self.languageId = languageId
        self.version = version
        self.text = TextBuffer(utf8: text)
    }
}

/// One highlighted piece of a single line, as the client sees it.
struct LineSegment: Equatable {
    var line: Int
    var startCharacter: Int
    var endCharacter: Int
    var ruleIndex: Int
}

extension TextBuffer {
    /// Splits matches at line ends into non-empty single-line segments, in the client's units.
    ///
    /// A match that spans lines yields one segment per line it covers; line terminators are
    /// never part of a segment. Matches must be sorted and non-overlapping.
    /// - Complexity: O(m log L) for m matches and L lines, plus the non-ASCII characters
    ///   of the lines the matches touch.
    func lineSegments(of matches: [Match], encoding: PositionEncoding, utf8Window: Range<Int>? = nil) -> [LineSegment] {
        let index = lineIndex
        var segments: [LineSegment] = []
        segments.reserveCapacity(matches.count)
        for match in matches {
            if let window = utf8Window, match.utf8Range.upperBound <= window.lowerBound || match.utf8Range.lowerBound >= window.upperBound {
                continue
            }
            var line = index.line(containingUTF8Offset: match.utf8Range.lowerBound)
            var start = match.utf8Range.lowerBound
            while start < match.utf8Range.upperBound && line < index.lineCount {
                let contentEnd = index.utf8Offset(ofLineContentEnd: line)
                let end = min(match.utf8Range.upperBound, contentEnd)
                if end > start {
                    let startPosition = index.position(ofUTF8Offset: start, encoding: encoding)
                    let endPosition = index.position(ofUTF8Offset: end, encoding: encoding)
                    if endPosition.character > startPosition.character {
                        segments.append(LineSegment(line: line, startCharacter: startPosition.character,
                                                    endCharacter: endPosition.character, ruleIndex: match.ruleIndex))
                    }
                }
                line += 1
                guard line < index.lineCount else { break }
                start = max(start, index.utf8Offset(ofLineStart: line))
            }
        }
        return segments
    }
}
