import Testing

@testable import HighlightConfig

/// Colour parsing: the four hex forms, case, and everything that must be refused.
@Suite struct RGBAColorTests {
    static let valid: [(text: String, hex: String)] = [
        ("#000", "#000000ff"),
        ("#fff", "#ffffffff"),
        ("#F80", "#ff8800ff"),
        ("#f808", "#ff880088"),
        ("#3b82f6", "#3b82f6ff"),
        ("#3B82F6", "#3b82f6ff"),
        ("#3b82f680", "#3b82f680"),
        ("#00000000", "#00000000"),
        ("#AbCdEf12", "#abcdef12"),
    ]

    static let invalid: [String] = [
        "", "#", "#f", "#ff", "#fffff", "#fffffff", "#fffffffff", "fff", "ffffff", "#ggg", "#12345g",
        " #fff", "#fff ", "red", "#-12", "#＋12", "#ｆｆｆ", "rgb(0,0,0)", "##fff",
    ]

    @Test(arguments: valid)
    func parsesValidColours(_ entry: (text: String, hex: String)) {
        #expect(RGBAColor(hex: entry.text)?.hexString == entry.hex)
    }

    @Test(arguments: invalid)
    func refusesInvalidColours(_ text: String) {
        #expect(RGBAColor(hex: text) == nil)
    }

    @Test func channelsAndRoundTrip() {
        let color = RGBAColor(hex: "#0a141e28")
        #expect(color == RGBAColor(red: 10, green: 20, blue: 30, alpha: 40))
        #expect(RGBAColor(red: 1, green: 2, blue: 3).alpha == 255)
        for entry in Self.valid {
            guard let color = RGBAColor(hex: entry.text) else { continue }
            #expect(RGBAColor(hex: color.hexString) == color)
        }
    }
}
