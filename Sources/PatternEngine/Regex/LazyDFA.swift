/// Limits on a lazy DFA's cache.
struct DFALimits: Sendable {
    var maxStates: Int
    var maxClearsPerSearch: Int
    static let standard = DFALimits(maxStates: 4096, maxClearsPerSearch: 8)
}

/// Placeholder until the DFA lands.
struct LazyDFA: Sendable {}

extension RegexProgram {
    func search(_ text: UnsafeBufferPointer<UInt8>, from: Int, limits: DFALimits, scratch: inout SearchScratch) -> Range<Int>? {
        PikeVM.leftmostLongest(searchNFA, in: text, from: from, scratch: &scratch.pikeVM)
    }
}
