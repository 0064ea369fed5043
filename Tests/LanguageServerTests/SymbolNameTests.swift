import Testing

@testable import LanguageServer

/// Symbol names are trimmed of spaces and tabs as Foundation's `CharacterSet.whitespaces` would, scalar by scalar.
@Suite struct SymbolNameTests {
    @Test(arguments: [
        (" \t TODO: fix \u{00A0}\u{3000}", "TODO: fix"),
        ("   ", ""),
        ("", ""),
        ("\n x", "\n x"),
        (" \u{301}x ", "\u{301}x"),
        ("\u{2003}name\u{202F}", "name"),
    ])
    func trimsSpaceSeparatorsAndTabs(_ text: String, _ expected: String) {
        #expect(text.trimmingHorizontalSpace == expected)
        #expect(text.trimmingHorizontalSpace.unicodeScalars.elementsEqual(expected.unicodeScalars))
    }
}
