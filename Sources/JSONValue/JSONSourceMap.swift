import TextIndex

/// One step of a path into a JSON value: an object member or an array element.
public enum JSONPathComponent: Hashable, Sendable, CustomStringConvertible {
    /// The member with this key of an object.
    case key(String)
    /// The element at this zero-based index of an array.
    case index(Int)

    /// `.name` for a key, `[3]` for an index, as in `rules[3].pattern`.
    public var description: String {
        switch self {
        case .key(let key): return ".\(key)"
        case .index(let index): return "[\(index)]"
        }
    }
}

/// Where each value (and each object key) of a parsed JSON text starts, so that a later check,
/// such as a config schema, can point at the offending spot.
///
/// Made by `JSONParser.parseWithLocations(_:options:)`. When an object repeats a key, the map
/// describes the member that won (the last one), like the parsed value.
public struct JSONSourceMap: Sendable {
    /// The location record of one value.
    struct Node: Sendable {
        /// The offset of the value's first byte.
        var valueUTF8Offset: Int
        /// The offset of the opening quote of the key that names the value in its object.
        var keyUTF8Offset: Int?
        /// For an object, the node of each member.
        var members: [String: Int] = [:]
        /// For an array, the node of each element.
        var elements: [Int] = []
    }

    /// All nodes; the root value is node 0.
    let nodes: [Node]
    /// The parsed text.
    public let utf8: [UInt8]
    /// The parsed text's lines, to turn offsets into lines and columns.
    private let lines: LineIndex

    init(nodes: [Node], utf8: [UInt8]) {
        self.nodes = nodes
        self.utf8 = utf8
        self.lines = LineIndex(utf8: utf8)
    }

    /// The UTF-8 offset of the first byte of the value at `path`, or `nil` if there is no such value.
    ///
    /// - Complexity: O(*p*) where *p* is the length of `path`.
    public func utf8Offset(ofValueAt path: [JSONPathComponent]) -> Int? {
        node(at: path).map { nodes[$0].valueUTF8Offset }
    }

    /// The UTF-8 offset of the opening quote of the key of the member at `path`, or `nil` if
    /// `path` is empty, ends in an array index, or names no value.
    ///
    /// - Complexity: O(*p*) where *p* is the length of `path`.
    public func utf8Offset(ofKeyAt path: [JSONPathComponent]) -> Int? {
        node(at: path).flatMap { nodes[$0].keyUTF8Offset }
    }

    /// The one-based line and column of `utf8Offset` in the parsed text.
    ///
    /// - Complexity: O(log *n*) in the length of the text.
    public func textLocation(ofUTF8Offset utf8Offset: Int) -> TextLocation {
        lines.textLocation(ofUTF8Offset: utf8Offset)
    }

    /// The one-based line and column of the value at `path`, or `nil` if there is no such value.
    func textLocation(ofValueAt path: [JSONPathComponent]) -> TextLocation? {
        utf8Offset(ofValueAt: path).map { textLocation(ofUTF8Offset: $0) }
    }

    /// The one-based line and column of the key of the member at `path`, falling back to the
    /// value's location for array elements and the root; `nil` if there is no such value.
    func textLocation(ofKeyAt path: [JSONPathComponent]) -> TextLocation? {
        (utf8Offset(ofKeyAt: path) ?? utf8Offset(ofValueAt: path)).map { textLocation(ofUTF8Offset: $0) }
    }

    /// The node index of the value at `path`.
    private func node(at path: [JSONPathComponent]) -> Int? {
        guard !nodes.isEmpty else { return nil }
        var current = 0
        for component in path {
            let node = nodes[current]
            switch component {
            case .key(let key):
                guard let next = node.members[key] else { return nil }
                current = next
            case .index(let index):
                guard node.elements.indices.contains(index) else { return nil }
                current = node.elements[index]
            }
            guard nodes.indices.contains(current) else { return nil }
        }
        return current
    }
}
