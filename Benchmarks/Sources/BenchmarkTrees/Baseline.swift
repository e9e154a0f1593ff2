/// The hand-written baselines: a loop that escapes into a `[UInt8]` buffer, then one
/// `String(decoding:)`. Each produces output identical to SuspenseKit's for the same tree; the
/// runners check that once before measuring.
public enum Baseline {
    /// `<ul><li>…</li>…</ul>`, text escaped as HTML text content.
    public static func html(count: Int, text: (Int) -> String = itemText) -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(16 + count * 64)
        appendASCII("<ul>", to: &buffer)
        for index in 0..<count {
            appendASCII("<li>", to: &buffer)
            var string = text(index)
            string.withUTF8 { bytes in
                var runStart = 0
                for position in 0..<bytes.count {
                    let replacement: StaticString
                    switch bytes[position] {
                    case UInt8(ascii: "&"): replacement = "&amp;"
                    case UInt8(ascii: "<"): replacement = "&lt;"
                    case UInt8(ascii: ">"): replacement = "&gt;"
                    default: continue
                    }
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                    replacement.withUTF8Buffer { buffer.append(contentsOf: $0) }
                    runStart = position + 1
                }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            }
            appendASCII("</li>", to: &buffer)
        }
        appendASCII("</ul>", to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// The `.tree` format of the same tree, under its `StaticList` component: box-drawing prefixes,
    /// text in quotes with `"` and `\` escaped.
    public static func tree(count: Int, text: (Int) -> String = itemText) -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(16 + count * 80)
        appendASCII("StaticList\n└─ <ul>", to: &buffer)
        for index in 0..<count {
            let isLast = index == count - 1
            buffer.append(UInt8(ascii: "\n"))
            append(isLast ? "   └─ <li>\n" : "   ├─ <li>\n", to: &buffer)
            append(isLast ? "      └─ \"" : "   │  └─ \"", to: &buffer)
            for byte in text(index).utf8 {
                switch byte {
                case UInt8(ascii: "\""): appendASCII("\\\"", to: &buffer)
                case UInt8(ascii: "\\"): appendASCII("\\\\", to: &buffer)
                default: buffer.append(byte)
                }
            }
            buffer.append(UInt8(ascii: "\""))
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// The `.plain` format of the same tree: each item's text on its own line, marked `- `.
    public static func plain(count: Int, text: (Int) -> String = itemText) -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(count * 48)
        for index in 0..<count {
            if index > 0 { buffer.append(UInt8(ascii: "\n")) }
            appendASCII("- ", to: &buffer)
            buffer.append(contentsOf: text(index).utf8)
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Benchmark 9's page: `<table><tbody>` with a `<tr>` of two `<td>` per entry, escaped as
    /// HTML text content.
    public static func table(_ entries: [TableEntry]) -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(32 + entries.count * 110)
        appendASCII("<table><tbody>", to: &buffer)
        for entry in entries {
            appendASCII("<tr><td>", to: &buffer)
            appendEscaped(entry.id, to: &buffer)
            appendASCII("</td><td>", to: &buffer)
            appendEscaped(entry.name, to: &buffer)
            appendASCII("</td></tr>", to: &buffer)
        }
        appendASCII("</tbody></table>", to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    @inline(__always)
    static func appendEscaped(_ string: String, to buffer: inout [UInt8]) {
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "&"): appendASCII("&amp;", to: &buffer)
            case UInt8(ascii: "<"): appendASCII("&lt;", to: &buffer)
            case UInt8(ascii: ">"): appendASCII("&gt;", to: &buffer)
            default: buffer.append(byte)
            }
        }
    }

    @inline(__always)
    static func appendASCII(_ string: StaticString, to buffer: inout [UInt8]) {
        string.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    @inline(__always)
    static func append(_ string: StaticString, to buffer: inout [UInt8]) {
        string.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }
}
