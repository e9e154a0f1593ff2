import Testing

@testable import SuspenseKit

/// The table-driven escaping of text and attribute values, against a plain reference: every byte
/// value at every place, with room for exactly the output and with room to spare (the two loops
/// of the writer).
struct HTMLEscapingTests {
    static func reference(_ bytes: [UInt8], quotes: Bool) -> [UInt8] {
        var output: [UInt8] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "&"): output += Array("&amp;".utf8)
            case UInt8(ascii: "<"): output += Array("&lt;".utf8)
            case UInt8(ascii: ">"): output += Array("&gt;".utf8)
            case UInt8(ascii: "\"") where quotes: output += Array("&quot;".utf8)
            case UInt8(ascii: "'") where quotes: output += Array("&#39;".utf8)
            case 0: output += [0xEF, 0xBF, 0xBD]
            default: output.append(byte)
            }
        }
        return output
    }

    /// Escapes `bytes` through `write` into storage of `room` bytes past what it needs.
    static func escaped(_ bytes: [UInt8], quotes: Bool, spare: Int) -> (output: [UInt8], extra: Int) {
        bytes.withUnsafeBufferPointer { input in
            let extra = HTMLEscaping.extraBytes(in: input, quotes: quotes)
            let room = input.count + extra + spare
            let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: max(room, 1))
            defer { storage.deallocate() }
            let end = HTMLEscaping.write(input, to: storage, end: storage + room, quotes: quotes)
            return (Array(UnsafeBufferPointer(start: storage, count: end - storage)), extra)
        }
    }

    @Test(arguments: [false, true])
    func everyByteValueAtEveryPlaceIsEscapedAsTheReferenceDoes(quotes: Bool) {
        for value in 0...255 {
            for place in 0..<12 {
                var text = Array("a<b&c\"d'e>fg".utf8)
                text[place] = UInt8(value)
                let expected = Self.reference(text, quotes: quotes)
                for spare in [0, 3, 64] {
                    let (output, extra) = Self.escaped(text, quotes: quotes, spare: spare)
                    #expect(output == expected, "byte \(value) at \(place), \(spare) spare")
                    #expect(extra == expected.count - text.count)
                }
            }
        }
    }

    @Test func emptyTextWritesNothing() {
        let (output, extra) = Self.escaped([], quotes: true, spare: 0)
        #expect(output.isEmpty && extra == 0)
    }

    @Test func longTextAppendedToEachKindOfBufferMatchesTheReference() {
        let text = Array(String(repeating: "x < y && \"z\" > 'w' \u{0} ", count: 300).utf8)
        var array: [UInt8] = [1, 2]
        text.withUnsafeBufferPointer { HTMLEscaping.append($0, to: &array, quotes: true) }
        #expect(array == [1, 2] + Self.reference(text, quotes: true))
        var buffer = ByteBuffer(capacity: 4)
        text.withUnsafeBufferPointer { HTMLEscaping.append($0, to: &buffer, quotes: false) }
        #expect(Array(buffer.string().utf8) == Self.reference(text, quotes: false))
    }
}
