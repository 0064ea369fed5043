@testable import TextIndex

/// Positions computed the slow, obvious way from Swift's own views of a string, to check the
/// index against.
struct ReferencePositions {
    /// For every UTF-8 offset 0...count, the expected position in each encoding.
    var positions: [[PositionEncoding: Position]] = []
    /// The UTF-8 offset of the start of each line.
    var lineStarts: [Int] = []
    /// The UTF-8 offset of the end of each line's content.
    var lineContentEnds: [Int] = []

    init(_ text: String) {
        // Split into lines by scalars, treating "\r\n" as one terminator.
        let scalars = Array(text.unicodeScalars)
        var lineTexts: [String.UnicodeScalarView] = [String.UnicodeScalarView()]
        var terminatorLengths: [Int] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" || scalar == "\r" {
                let isPair = scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n"
                terminatorLengths.append(isPair ? 2 : 1)
                lineTexts.append(String.UnicodeScalarView())
                index += isPair ? 2 : 1
            } else {
                lineTexts[lineTexts.count - 1].append(scalar)
                index += 1
            }
        }
        terminatorLengths.append(0)

        var lineStart = 0
        for (lineNumber, lineScalars) in lineTexts.enumerated() {
            lineStarts.append(lineStart)
            let line = String(lineScalars)
            lineContentEnds.append(lineStart + line.utf8.count)
            // Every offset inside the line's content, then those inside its terminator.
            var prefix = String.UnicodeScalarView()
            var scalarIterator = lineScalars.makeIterator()
            var offsetInLine = 0
            while offsetInLine <= line.utf8.count {
                let prefixString = String(prefix)
                let position: [PositionEncoding: Position] = [
                    .utf8: Position(line: lineNumber, character: prefixString.utf8.count),
                    .utf16: Position(line: lineNumber, character: prefixString.utf16.count),
                    .utf32: Position(line: lineNumber, character: prefixString.unicodeScalars.count),
                ]
                guard let next = scalarIterator.next() else {
                    // End of content: offsets in the terminator snap back to here.
                    for _ in 0..<max(terminatorLengths[lineNumber], 1) { positions.append(position) }
                    break
                }
                // Offsets inside a multi-byte scalar snap back to its start.
                let length = String(next).utf8.count
                for _ in 0..<length { positions.append(position) }
                prefix.append(next)
                offsetInLine += length
            }
            lineStart += line.utf8.count + terminatorLengths[lineNumber]
        }
        // The loop above adds one entry for the end of the last line, which is the end of the text.
        precondition(positions.count == text.utf8.count + 1)
    }
}
