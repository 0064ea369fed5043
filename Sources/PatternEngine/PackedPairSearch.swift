// One literal: the packed-pair search.
//
// A single fingerprint (FingerprintSearch.swift) — the two bytes of the word
// that are rarest in source code, at their offsets — is held in four vector
// registers. Each step tests thirty-two candidate starts: two blocks of
// sixteen, each one unaligned load per side, an OR (0x20 folds ASCII case, 0
// leaves the byte alone), a comparison, and an AND of the two sides. Only a
// start where both bytes are right is checked against the word.
//
//     word "todo", case-insensitive: the table picks o~@1 and d~@2 (t and o
//     are common in code, d less so; ~ is both cases)
//     starts  p ... p+31
//     load p+1 | 0x20 == "o"   AND   load p+2 | 0x20 == "d"   ─▶ starts to check
//
// Where the CPU has AVX2, the same test runs on thirty-two starts in one
// register (VectorKernels' AVX2), or sixty-four where it has AVX-512
// (VectorKernels512), and the loop here takes the last bytes.

import VectorKernels
import VectorKernels512
import CPUFeatures

extension FingerprintSearch {
    /// The one-fingerprint search, thirty-two starts per step.
    @inline(__always)
    func packedPairSearch(_ raw: UnsafeRawPointer, checker: StartChecker, from: Int, limit: Int) -> Match? {
        guard let fingerprint = fingerprints.first else { return nil }
        let firstOffset = fingerprint.first.offset
        let secondOffset = fingerprint.second.offset
        let firstMask = SIMD16<UInt8>(repeating: fingerprint.first.foldMask)
        let firstByte = SIMD16<UInt8>(repeating: fingerprint.first.byte)
        let secondMask = SIMD16<UInt8>(repeating: fingerprint.second.foldMask)
        let secondByte = SIMD16<UInt8>(repeating: fingerprint.second.byte)
        let zero = SIMD16<UInt8>(repeating: 0)

        @inline(__always)
        func block(_ position: Int) -> SIMD16<UInt8> {
            let first = raw.loadUnaligned(fromByteOffset: position &+ firstOffset, as: SIMD16<UInt8>.self)
            let second = raw.loadUnaligned(fromByteOffset: position &+ secondOffset, as: SIMD16<UInt8>.self)
            let hits = ((first | firstMask) .== firstByte) .& ((second | secondMask) .== secondByte)
            return zero.replacing(with: 0xFF, where: hits)
        }

        var position = from
        if usesAVX2 {
            // Thirty-two starts a step in one register; the loads stay inside the text up to `lastWideBlock`.
            let lastWideBlock = min(checker.text.count &- maximumSideOffset &- 32, limit &- 1)
            let first = (fingerprint.first.offset, fingerprint.first.foldMask, fingerprint.first.byte)
            let second = (fingerprint.second.offset, fingerprint.second.foldMask, fingerprint.second.byte)
            let wide = VectorUnit.hasAVX512
            switch checker.firstMatch(inBlocksFrom: position, through: lastWideBlock, limit: limit, { position in
                wide ? AVX512.firstPairBlock(text: raw, from: position, lastBlock: lastWideBlock, first: first, second: second)
                    : AVX2.firstPairBlock(text: raw, from: position, lastBlock: lastWideBlock, first: first, second: second)
            }) {
            case .found(let match): return match
            case .searchedUpTo(let next): position = next
            }
        }
        // Every load of a block starting at `position` stays inside the text while `position <= lastBlock`.
        let lastBlock = checker.text.count &- maximumSideOffset &- 16
        while position < limit, position &+ 16 <= lastBlock {
            let low = block(position)
            let high = block(position &+ 16)
            let either = SIMDLanes.words(low | high)
            if either.low | either.high != 0 {
                if let found = checker.firstMatch(inLanes: low, blockStart: position, limit: limit) {
                    return found.match
                }
                if let found = checker.firstMatch(inLanes: high, blockStart: position &+ 16, limit: limit) {
                    return found.match
                }
            }
            position &+= 32
        }
        while position < limit, position <= lastBlock {
            if let found = checker.firstMatch(inLanes: block(position), blockStart: position, limit: limit) {
                return found.match
            }
            position &+= 16
        }
        return checker.firstMatch(from: position, limit: limit)
    }
}
