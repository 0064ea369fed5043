// The background frequency of bytes in source code.
//
// Prefilters pick the bytes a match must contain that are rarest in the text
// being searched. The text is not known when rules are compiled, so rarity is
// judged by this table: each byte's share of real source trees, in parts per
// million. It was made by `scripts/byte-frequency.py` (no arguments) over the
// Python 3.11.7 standard library (162,713,332 bytes of .py files) and
// /usr/include (107,978,318 bytes of headers) of a Debian machine, each tree
// weighted equally; a byte never seen counts as 1. Re-run the script to
// remake it; the exact figures matter little, their order does.

/// The share of each byte in typical source code, used to pick the rare bytes a prefilter scans for.
enum ByteFrequency {
    /// The estimated share of `byte` in typical text, in percent.
    @inline(__always)
    static func estimatedPercentage(of byte: UInt8) -> Double {
        Double(partsPerMillion[Int(byte)]) / 10_000
    }

    /// Parts per million of each byte value, by `scripts/byte-frequency.py`.
    static let partsPerMillion: [UInt32] = [
             1,      1,      1,      1,      1,      1,      1,      1,  // 0x00
             1,   2014,  26163,      1,      1,     73,      1,      1,  // 0x08
             1,      1,      1,      1,      1,      1,      1,      1,  // 0x10
             1,      1,      1,      1,      1,      1,      1,      1,  // 0x18
        207094,    170,   6121,   3955,     61,    191,    437,   5959,  // 0x20
         12908,  12912,   9112,    803,  14764,   5778,   9113,   5188,  // 0x28
          6473,   5347,   3870,   2377,   1840,   2547,   1642,   1158,  // 0x30
          1515,   2067,   5963,   2593,    931,   5121,   1687,    100,  // 0x38
           404,   6661,   2287,   6698,   3581,   9740,   3085,   2734,  // 0x40
          1331,   6955,    298,   1471,   6535,   3440,   7122,   6536,  // 0x48
          5832,    358,   6593,  11879,   8190,   2368,   1677,    851,  // 0x50
          2365,   1014,    298,   1815,   1196,   1809,     68,  32825,  // 0x58
          1022,  31694,   6404,  20361,  19025,  61609,  15791,   8252,  // 0x60
         10769,  33258,    721,   6116,  21799,  12242,  34324,  29305,  // 0x68
         16039,   1162,  32344,  37623,  43877,  13853,   5169,   3652,  // 0x70
          5640,   7602,   1135,   1026,    394,   1021,     78,      1,  // 0x78
            27,      9,     11,      6,      5,      6,      4,      7,  // 0x80
             8,      4,      3,      4,      4,      3,     14,      8,  // 0x88
             5,      6,      3,      4,     29,      7,     11,      3,  // 0x90
             4,      7,      4,      4,      6,      9,      4,     21,  // 0x98
             5,      4,      4,      4,      5,      5,      4,      4,  // 0xA0
             4,      6,      3,      3,      3,      3,      3,      3,  // 0xA8
             4,      5,      4,      4,      4,      4,      4,      4,  // 0xB0
            16,      7,      3,      4,      6,      4,      4,      3,  // 0xB8
             1,      1,      6,     12,      2,      2,      1,      1,  // 0xC0
             1,      1,      1,      1,      1,      1,     13,      5,  // 0xC8
            26,     10,      1,      1,      1,      1,      2,      7,  // 0xD0
             6,      5,      1,      1,      1,      1,      1,      1,  // 0xD8
            16,      4,     68,      5,      1,      3,      3,      2,  // 0xE0
             2,      1,      1,      1,      1,      1,      1,      2,  // 0xE8
            24,      1,      1,      1,      1,      1,      1,      1,  // 0xF0
             1,      1,      1,      1,      1,      1,      1,      1,  // 0xF8
    ]
}
