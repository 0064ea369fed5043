import Testing
@testable import PatternEngine

/// Tests of the simple-case-folding classes shared by the automaton and the regex engine.
@Suite struct CaseFoldingTests {
    /// One expected class: the scalars `equivalents(of:)` must return for each member.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var members: [UInt32]
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "ascii letter", members: [0x41, 0x61]),
        Case(name: "kelvin sign", members: [0x4B, 0x6B, 0x212A]),
        Case(name: "long s", members: [0x53, 0x73, 0x17F]),
        Case(name: "final sigma", members: [0x3A3, 0x3C2, 0x3C3]),
        Case(name: "angstrom sign", members: [0xC5, 0xE5, 0x212B]),
        Case(name: "e acute", members: [0xC9, 0xE9]),
        Case(name: "dz digraph with titlecase", members: [0x1C4, 0x1C5, 0x1C6]),
        Case(name: "capital sharp s", members: [0xDF, 0x1E9E]),
        Case(name: "dotless i stays alone", members: [0x131]),
        Case(name: "dotted capital I stays alone", members: [0x130]),
        Case(name: "plain i ignores Turkic letters", members: [0x49, 0x69]),
        Case(name: "digit", members: [0x31]),
        Case(name: "CJK", members: [0x4E2D]),
        Case(name: "deseret", members: [0x10400, 0x10428]),
    ]

    @Test(arguments: cases)
    func equivalenceClasses(_ testCase: Case) {
        let expected = testCase.members.compactMap(Unicode.Scalar.init)
        for scalar in expected {
            #expect(CaseFolding.equivalents(of: scalar) == expected, "\(testCase.name): U+\(String(scalar.value, radix: 16))")
            #expect(CaseFolding.representative(of: scalar) == expected.first)
            #expect(CaseFolding.hasEquivalents(scalar) == (expected.count > 1))
        }
    }
}
