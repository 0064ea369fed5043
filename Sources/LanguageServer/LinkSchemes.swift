import JSONValue

/// The URI schemes a link may have before the server hands it to the client.
///
/// A repository's `.highlights.json` is untrusted: a `link` template such as
/// `command:workbench.action.terminal.sendSequence?…` would run a command in VS Code when
/// clicked, and `javascript:` or `file:` links are no better. So only `http`, `https` and
/// `mailto` are allowed by default; the user can allow more through their own settings
/// (`linkSchemes` in client settings or initializationOptions), never through the
/// repository's file. The check applies to the link *after* the template is filled in, since
/// a template like `$1` takes its scheme from the document text.
struct LinkSchemes: Sendable, Equatable {
    /// The schemes allowed without any setting.
    static let defaultSchemes: Set<String> = ["http", "https", "mailto"]

    /// Lower-case schemes allowed, the defaults included.
    private(set) var allowed: Set<String> = LinkSchemes.defaultSchemes

    /// The defaults only.
    init() {}

    /// The defaults plus every scheme listed in the settings' `linkSchemes` arrays (nil sources are skipped).
    init(settings sources: [JSON?]) {
        for source in sources {
            guard var object = source?.objectValue else { continue }
            if let nested = object["highlight"]?.objectValue { object = nested }
            for name in object["linkSchemes"]?.arrayValue ?? [] {
                guard let scheme = name.stringValue, Self.isValidScheme(Substring(scheme)) else { continue }
                allowed.insert(scheme.lowercased())
            }
        }
    }

    /// Whether `link` has an allowed scheme; a link without a scheme (relative, or starting with a space) is refused.
    func allows(_ link: String) -> Bool {
        guard let scheme = Self.scheme(of: link) else { return false }
        return allowed.contains(scheme)
    }

    /// The link when its scheme is allowed, else nil.
    func filter(_ link: String?) -> String? {
        guard let link, allows(link) else { return nil }
        return link
    }

    /// The lower-cased scheme of `link` as RFC 3986 reads it (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`).
    static func scheme(of link: String) -> String? {
        guard let colon = link.firstIndex(of: ":") else { return nil }
        let scheme = link[..<colon]
        guard isValidScheme(scheme) else { return nil }
        return scheme.lowercased()
    }

    private static func isValidScheme(_ scheme: Substring) -> Bool {
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return scheme.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "+-.".unicodeScalars.contains(scalar))
        }
    }

    /// `link` made safe as a Markdown link destination: everything that could end it or start
    /// other Markdown (`(`, `)`, `<`, `>`, spaces, backslashes, controls, …) is percent-encoded.
    static func markdownDestination(_ link: String) -> String {
        var result = ""
        for byte in link.utf8 {
            let safe = byte > 0x20 && byte < 0x7F && !"()<>[]\\`\"'{}|^ ".utf8.contains(byte)
            if safe {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
