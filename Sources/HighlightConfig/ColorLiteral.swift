// Colour literals in documents: the built-in `color` rule's pattern, reading a matched literal
// into an `RGBAColor`, writing a colour back in each notation, and a readable text colour.
//
// The pattern finds CSS-style literals:
//
//     #rgb #rgba #rrggbb #rrggbbaa            not after a word character, not before one
//     rgb(255, 128, 0)   rgba(255 128 0 / 50%)   (comma or space syntax, numbers or percentages)
//     hsl(30, 100%, 50%) hsla(30deg 100% 50% / .5) (hue in deg, rad, grad or turn)
//
// The pattern is strict enough that every match reads as a colour; `RGBAColor(literal:)` is
// lenient (channels out of range are clamped) so that it never rejects what the rule matched.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Colour literals: the pattern that finds them, and reading and writing them.
public enum ColorLiteral {
    /// The name of the built-in rule that finds colour literals, which `"colors": true` turns on.
    static let ruleName = "color"

    /// The regex of the built-in `color` rule (matched case-insensitively); no match crosses a line.
    public static let pattern: String = {
        let number = #"(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)"#
        let channel = number + "%?"
        let hue = "[+-]?" + number + "(?:deg|grad|rad|turn)?"
        let space = "[ \\t]"
        let comma = "\(space)*,\(space)*"
        func function(_ names: String, _ first: String) -> [String] {
            [
                "\(names)\\(\(space)*\(first)\(comma)\(channel)\(comma)\(channel)(?:\(comma)\(channel))?\(space)*\\)",
                "\(names)\\(\(space)*\(first)\(space)+\(channel)\(space)+\(channel)(?:\(space)*/\(space)*\(channel))?\(space)*\\)",
            ]
        }
        let hex = #"\B#(?:[0-9a-f]{8}|[0-9a-f]{6}|[0-9a-f]{3,4})\b"#
        let functions = function("rgba?", channel) + function("hsla?", hue)
        // `(?u)`: "not after a word character" counts letters of every script, not only ASCII ones.
        return "(?u)" + hex + "|\\b(?:" + functions.joined(separator: "|") + ")"
    }()

    /// The text colour that reads best on `background`: black or white, by WCAG contrast ratio.
    ///
    /// Alpha is ignored: what is behind a translucent colour depends on the editor's theme.
    public static func readableTextColor(on background: RGBAColor) -> RGBAColor {
        let luminance = relativeLuminance(background)
        // Contrast with white is 1.05 / (L + 0.05) and with black (L + 0.05) / 0.05; black wins when larger.
        let black = RGBAColor(red: 0, green: 0, blue: 0)
        let white = RGBAColor(red: 0xff, green: 0xff, blue: 0xff)
        return (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) ? black : white
    }

    /// The WCAG relative luminance of a colour, 0 (black) ... 1 (white).
    static func relativeLuminance(_ color: RGBAColor) -> Double {
        func linear(_ channel: UInt8) -> Double {
            let value = Double(channel) / 255
            return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(color.red) + 0.7152 * linear(color.green) + 0.0722 * linear(color.blue)
    }

    /// The notations a colour picker offers for `color`: hex, `rgb()` and `hsl()` (with alpha
    /// when the colour is translucent), the notation of `original` (the literal being replaced) first.
    ///
    /// `exactAlpha` (0...1, as the picker sends it) is written as given, to three decimals, rather than
    /// rounded to 8 bits (`0.5`, not `0.502`). The original's syntax is kept: space syntax stays space
    /// syntax (`rgb(255 136 0 / 50%)`), a percentage alpha stays a percentage, upper-case hex stays upper case.
    public static func presentations(of color: RGBAColor, exactAlpha: Double? = nil, replacing original: String = "") -> [String] {
        let alphaFraction = min(max(exactAlpha ?? Double(color.alpha) / 255, 0), 1)
        let opaque = exactAlpha.map { $0 >= 1 } ?? (color.alpha == 255)
        var hex = opaque ? color.hexStringWithoutAlpha : color.hexString
        if original.hasPrefix("#"), original.uppercased() == original { hex = hex.uppercased() }
        let spaceSyntax = original.contains("(") && !original.contains(",")
        let percentAlpha = original.contains("/") && original.reversed().first(where: { !") \t".contains($0) }) == "%"
        let alpha = percentAlpha ? formatted(alphaFraction * 100, decimals: 1) + "%" : formatted(alphaFraction, decimals: 3)
        let (hue, saturation, lightness) = hsl(of: color)
        let rgb: String
        let hslText: String
        if spaceSyntax {
            let slash = opaque ? "" : " / \(alpha)"
            rgb = "rgb(\(color.red) \(color.green) \(color.blue)\(slash))"
            hslText = "hsl(\(hue) \(saturation)% \(lightness)%\(slash))"
        } else {
            rgb = opaque
                ? "rgb(\(color.red), \(color.green), \(color.blue))"
                : "rgba(\(color.red), \(color.green), \(color.blue), \(alpha))"
            hslText = opaque
                ? "hsl(\(hue), \(saturation)%, \(lightness)%)"
                : "hsla(\(hue), \(saturation)%, \(lightness)%, \(alpha))"
        }
        let lowered = original.lowercased()
        if lowered.hasPrefix("rgb") { return [rgb, hex, hslText] }
        if lowered.hasPrefix("hsl") { return [hslText, hex, rgb] }
        return [hex, rgb, hslText]
    }

    /// Hue in degrees, saturation and lightness in percent, each rounded to an integer.
    static func hsl(of color: RGBAColor) -> (hue: Int, saturation: Int, lightness: Int) {
        let red = Double(color.red) / 255, green = Double(color.green) / 255, blue = Double(color.blue) / 255
        let highest = max(red, green, blue), lowest = min(red, green, blue)
        let lightness = (highest + lowest) / 2
        let chroma = highest - lowest
        guard chroma > 0 else { return (0, 0, Int((lightness * 100).rounded())) }
        let saturation = chroma / (1 - abs(2 * lightness - 1))
        var hue: Double
        if highest == red {
            hue = ((green - blue) / chroma).truncatingRemainder(dividingBy: 6)
        } else if highest == green {
            hue = (blue - red) / chroma + 2
        } else {
            hue = (red - green) / chroma + 4
        }
        hue *= 60
        if hue < 0 { hue += 360 }
        let roundedHue = Int(hue.rounded()) % 360
        return (roundedHue, Int((min(saturation, 1) * 100).rounded()), Int((lightness * 100).rounded()))
    }

    /// The alpha of a functional literal (`rgba(255 136 0 / 50%)` gives 0.5) as written, not rounded to
    /// 8 bits; nil for hex literals (whose alpha is a byte already) and for anything that is not a literal.
    public static func exactAlpha(ofLiteral literal: some Collection<UInt8>) -> Double? {
        let bytes = Array(literal)
        guard bytes.first != UInt8(ascii: "#"), let open = bytes.firstIndex(of: UInt8(ascii: "(")),
              bytes.last == UInt8(ascii: ")"),
              let arguments = ColorArgument.parseList(bytes[(open + 1)..<(bytes.count - 1)]) else { return nil }
        guard arguments.count == 4 else { return 1 }
        return min(max(arguments[3].fraction(percentScale: 100, numberScale: 1), 0), 1)
    }

    /// `value` with at most `decimals` decimals and no trailing zeros (`0.5`, `1`, `0.333`).
    static func formatted(_ value: Double, decimals: Int) -> String {
        // printf's rounding, in the C locale (a program's locale until it calls setlocale).
        var digits = [CChar](repeating: 0, count: 64)
        let count = withVaList([value]) { vsnprintf(&digits, digits.count, "%.\(decimals)f", $0) }
        guard count > 0, count < digits.count else { return String(value) }
        var text = String(decoding: digits[..<Int(count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

extension RGBAColor {
    /// Reads a colour literal as the built-in `color` rule matches it: `#rgb`, `#rgba`, `#rrggbb`,
    /// `#rrggbbaa`, `rgb()`, `rgba()`, `hsl()` or `hsla()`; `nil` for anything else.
    ///
    /// Channels outside their range are clamped, as CSS does.
    public init?(literal: some Collection<UInt8>) {
        let bytes = Array(literal)
        if bytes.first == UInt8(ascii: "#") {
            self.init(hexUTF8: bytes[...])
            return
        }
        guard let open = bytes.firstIndex(of: UInt8(ascii: "(")), bytes.last == UInt8(ascii: ")") else { return nil }
        let name = String(decoding: bytes[..<open].map(ColorArgument.lowercased), as: UTF8.self)
        guard let arguments = ColorArgument.parseList(bytes[(open + 1)..<(bytes.count - 1)]), (3...4).contains(arguments.count)
        else { return nil }
        let alpha = arguments.count == 4 ? arguments[3].fraction(percentScale: 100, numberScale: 1) : 1
        switch name {
        case "rgb", "rgba":
            let channels = arguments.prefix(3).map { $0.fraction(percentScale: 100, numberScale: 255) }
            self.init(fractions: channels[0], channels[1], channels[2], alpha)
        case "hsl", "hsla":
            guard let hue = arguments[0].degrees else { return nil }
            let saturation = arguments[1].fraction(percentScale: 100, numberScale: 100)
            let lightness = arguments[2].fraction(percentScale: 100, numberScale: 100)
            let (red, green, blue) = Self.rgb(hueDegrees: hue, saturation: saturation, lightness: lightness)
            self.init(fractions: red, green, blue, alpha)
        default:
            return nil
        }
    }

    /// A colour from channels in 0...1, clamped and rounded to 8 bits.
    public init(fractions red: Double, _ green: Double, _ blue: Double, _ alpha: Double = 1) {
        func byte(_ value: Double) -> UInt8 {
            guard value.isFinite else { return 0 }
            return UInt8((min(max(value, 0), 1) * 255).rounded())
        }
        self.init(red: byte(red), green: byte(green), blue: byte(blue), alpha: byte(alpha))
    }

    static func rgb(hueDegrees: Double, saturation: Double, lightness: Double) -> (Double, Double, Double) {
        let saturation = min(max(saturation, 0), 1), lightness = min(max(lightness, 0), 1)
        var hue = hueDegrees.truncatingRemainder(dividingBy: 360)
        if hue < 0 { hue += 360 }
        let chroma = (1 - abs(2 * lightness - 1)) * saturation
        let sector = hue / 60
        let second = chroma * (1 - abs(sector.truncatingRemainder(dividingBy: 2) - 1))
        let (red, green, blue): (Double, Double, Double)
        switch sector {
        case ..<1: (red, green, blue) = (chroma, second, 0)
        case ..<2: (red, green, blue) = (second, chroma, 0)
        case ..<3: (red, green, blue) = (0, chroma, second)
        case ..<4: (red, green, blue) = (0, second, chroma)
        case ..<5: (red, green, blue) = (second, 0, chroma)
        default: (red, green, blue) = (chroma, 0, second)
        }
        let lift = lightness - chroma / 2
        return (red + lift, green + lift, blue + lift)
    }
}

/// One argument of a colour function: a number and its unit (`%`, `deg`, ... or none).
struct ColorArgument {
    /// The units an argument may have.
    enum Unit: String {
        case none = "", percent = "%", deg, rad, grad, turn
    }

    var value: Double
    var unit: Unit

    /// The arguments between the parentheses, separated by commas, spaces or one `/`.
    static func parseList(_ bytes: ArraySlice<UInt8>) -> [ColorArgument]? {
        var arguments: [ColorArgument] = []
        arguments.reserveCapacity(4)
        var tokenStart = bytes.startIndex
        for index in bytes.indices where isSeparator(bytes[index]) {
            if index > tokenStart {
                guard let argument = ColorArgument(bytes[tokenStart..<index]) else { return nil }
                arguments.append(argument)
            }
            tokenStart = index + 1
        }
        if bytes.endIndex > tokenStart {
            guard let argument = ColorArgument(bytes[tokenStart..<bytes.endIndex]) else { return nil }
            arguments.append(argument)
        }
        return arguments
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// An ASCII letter in lower case; other bytes as they are.
    static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    /// Reads `[+-]digits[.digits]unit` (or `.digits`), without going through `String`.
    init?(_ token: ArraySlice<UInt8>) {
        var index = token.startIndex
        var negative = false
        if index < token.endIndex, token[index] == UInt8(ascii: "+") || token[index] == UInt8(ascii: "-") {
            negative = token[index] == UInt8(ascii: "-")
            index += 1
        }
        var value = 0.0
        var digits = 0
        while index < token.endIndex, let digit = Self.digitValue(token[index]) {
            value = value * 10 + digit
            digits += 1
            index += 1
        }
        if index < token.endIndex, token[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            while index < token.endIndex, let digit = Self.digitValue(token[index]) {
                value += digit * scale
                scale /= 10
                digits += 1
                index += 1
            }
        }
        let unitText = String(decoding: token[index...].map(Self.lowercased), as: UTF8.self)
        guard digits > 0, digits <= 40, let unit = Unit(rawValue: unitText) else { return nil }
        self.value = negative ? -value : value
        self.unit = unit
    }

    private static func digitValue(_ byte: UInt8) -> Double? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Double(byte - UInt8(ascii: "0")) : nil
    }

    /// The argument as a fraction: a percentage over `percentScale`, a plain number over `numberScale`.
    func fraction(percentScale: Double, numberScale: Double) -> Double {
        unit == .percent ? value / percentScale : value / numberScale
    }

    /// A hue in degrees; `nil` for a percentage.
    var degrees: Double? {
        switch unit {
        case .none, .deg: return value
        case .rad: return value * 180 / Double.pi
        case .grad: return value * 0.9
        case .turn: return value * 360
        case .percent: return nil
        }
    }
}
