// The ids of a `ForEach(_:id:)`'s elements, as positions (see PositionStack).

/// What numbers the elements of a `ForEach(_:id:)`: the id of the element being evaluated,
/// read only when a position link is made for it (a boundary, a suspended or deferred child
/// inside it), so that a list costs nothing per element for ids it never shows.
@usableFromInline
protocol ElementKeySource: AnyObject {
    /// The encoded id of the element at `offset`, the one being evaluated; nil when another
    /// element of the same loop took that id first (it keeps its offset then).
    func key(forOffset offset: Int32) -> String?
}

/// The ids of one `ForEach(_:id:)` loop while it is evaluated. Made once per loop, not per
/// element: the loop sets `index` before evaluating each element.
@usableFromInline
final class ElementKeys<Data: Collection>: ElementKeySource {
    @usableFromInline let data: Data
    @usableFromInline let path: AnyKeyPath
    /// The index of the element being evaluated.
    @usableFromInline var index: Data.Index
    /// Each id a link was made for, and the offset of its element: two elements with one id
    /// (a mistake in the data) must not share a boundary id, so the second keeps its offset.
    private var taken: [String: Int32] = [:]

    @usableFromInline
    init(data: Data, path: AnyKeyPath) {
        self.data = data
        self.path = path
        self.index = data.startIndex
    }

    @usableFromInline
    func key(forOffset offset: Int32) -> String? {
        let id = data[index][keyPath: path].map { String(describing: $0) } ?? ""
        let key = Self.encode(id)
        if let owner = taken[key] { return owner == offset ? key : nil }
        taken[key] = offset
        return key
    }

    /// `id` as a level of a ``BoundaryID``'s description: between brackets, so it never reads
    /// as an index, with every byte outside `A-Z a-z 0-9 _ -` written as `%XX` (UTF-8), and a
    /// `-` after a `-` too. So the description stays unambiguous (no `.`, `[` or `]` inside)
    /// and safe wherever streamed markup carries it: in a comment (no `--`, no `>`), in a
    /// quoted attribute and in a script's string (no quote, `&`, `<` or backslash).
    static func encode(_ id: String) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(id.utf8.count + 2)
        var afterDash = false
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                bytes.append(byte)
                afterDash = false
            case UInt8(ascii: "-") where !afterDash:
                bytes.append(byte)
                afterDash = true
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
                afterDash = false
            }
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
