/// An sRGB colour with 8-bit channels and alpha, as written in `.highlights.json`.
///
/// The file accepts the four CSS hex forms `#rgb`, `#rgba`, `#rrggbb` and `#rrggbbaa`
/// (hex digits in either case); `hexString` always writes the long, lower-case form, and
/// `hexStringOmittingOpaqueAlpha` leaves out an opaque alpha.
public struct RGBAColor: Hashable, Sendable {
    /// The red channel, 0...255.
    public var red: UInt8
    /// The green channel, 0...255.
    public var green: UInt8
    /// The blue channel, 0...255.
    public var blue: UInt8
    /// The alpha channel, 0 (transparent) ... 255 (opaque).
    public var alpha: UInt8

    /// A colour from its channels; opaque unless `alpha` says otherwise.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`, or returns `nil` for anything else.
    ///
    /// Short forms repeat each digit (`#f80` is `#ff8800ff`); a missing alpha is opaque.
    init?(hex: String) {
        self.init(hexUTF8: Array(hex.utf8)[...])
    }

    /// Parses the UTF-8 bytes of `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`, or returns `nil` for anything else.
    init?(hexUTF8 utf8: ArraySlice<UInt8>) {
        guard utf8.first == UInt8(ascii: "#") else { return nil }
        var nibbles: [UInt8] = []
        nibbles.reserveCapacity(8)
        for byte in utf8.dropFirst() {
            guard let nibble = Self.hexDigitValue(byte) else { return nil }
            nibbles.append(nibble)
        }
        let channels: [UInt8]
        switch nibbles.count {
        case 3, 4:
            channels = nibbles.map { $0 << 4 | $0 }
        case 6, 8:
            channels = stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
        default:
            return nil
        }
        guard channels.count >= 3 else { return nil }
        self.init(red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : 255)
    }

    /// The colour as `#rrggbbaa` in lower case, e.g. `#ffcc00ff`.
    public var hexString: String {
        var text = "#"
        for channel in [red, green, blue, alpha] {
            text.append(Self.hexDigits[Int(channel >> 4)])
            text.append(Self.hexDigits[Int(channel & 0x0f)])
        }
        return text
    }

    /// The colour as `#rrggbb` in lower case, its alpha left out, e.g. `#ffcc00`.
    public var hexStringWithoutAlpha: String {
        String(hexString.dropLast(2))
    }

    /// The colour as `#rrggbb` when it is opaque and `#rrggbbaa` otherwise, in lower case: the form a rule
    /// written for people uses (not the `#rgb` short form, which only some colours have).
    public var hexStringOmittingOpaqueAlpha: String {
        alpha == 0xFF ? hexStringWithoutAlpha : hexString
    }

    private static let hexDigits: [Character] = Array("0123456789abcdef")

    private static func hexDigitValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension RGBAColor: CustomStringConvertible {
    /// The colour as `#rrggbbaa`.
    public var description: String { hexString }
}
