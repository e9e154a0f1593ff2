import Testing

@testable import SuspenseKit

/// The buffer `.plain`, `.tree` and pretty HTML write into: every kind of append, past its
/// capacity many times over, against an array given the same bytes.
struct ByteBufferTests {
    @Test func everyAppendGrowsPastTheCapacityAndKeepsTheBytesInOrder() {
        var buffer = ByteBuffer(capacity: 1)
        var expected: [UInt8] = []
        let word: [UInt8] = Array("héllo, wörld".utf8)
        for round in 0..<500 {
            buffer.append(UInt8(ascii: "a") + UInt8(round % 26))
            expected.append(UInt8(ascii: "a") + UInt8(round % 26))
            buffer.append(UInt8(ascii: "\\"), UInt8(ascii: "n"))
            expected += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            word.withUnsafeBufferPointer { buffer.append($0) }
            expected += word
            buffer.append("├─ ")
            expected += Array("├─ ".utf8)
            buffer.append("string \(round)")
            expected += Array("string \(round)".utf8)
            buffer.append(UInt8(ascii: " "), repeated: round % 7)
            expected += Array(repeating: UInt8(ascii: " "), count: round % 7)
            // Room for four bytes, two written.
            buffer.append(atMost: 4) { position in
                position.initialize(to: UInt8(ascii: "<"))
                (position + 1).initialize(to: UInt8(ascii: ">"))
                return position + 2
            }
            expected += [UInt8(ascii: "<"), UInt8(ascii: ">")]
        }
        let count = buffer.count
        #expect(count == expected.count)
        let string = buffer.string()
        #expect(Array(string.utf8) == expected)
        #expect(string.hasSuffix("<>"))
    }

    @Test func anEmptyBufferIsAnEmptyString() {
        let empty = ByteBuffer(capacity: 0)
        let isEmpty = empty.isEmpty
        #expect(isEmpty)
        #expect(empty.string() == "")
        var buffer = ByteBuffer(capacity: 0)
        buffer.append(UInt8(ascii: " "), repeated: 0)
        buffer.append(UnsafeBufferPointer<UInt8>(start: nil, count: 0))
        buffer.append("")
        let isStillEmpty = buffer.isEmpty
        #expect(isStillEmpty)
        #expect(buffer.string() == "")
    }

    @Test func escapesFarBeyondTheEstimateGrowThePlainAndTreeOutput() async throws {
        // Each ESC is written as six bytes (`\u{1B}`): the output is six times the text.
        let text = String(repeating: "\u{1B}", count: 5_000)
        let plain = try await render(Text(text), as: .plain)
        #expect(plain == String(repeating: "\\u{1B}", count: 5_000))
        let tree = try await render(Text(text), as: .tree)
        #expect(tree == "\"" + String(repeating: "\\u{1B}", count: 5_000) + "\"")
    }
}
