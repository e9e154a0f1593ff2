import Testing

@testable import SuspenseKit

/// The scan that finds where text needs a closer look, eight bytes at a time: every byte value
/// at every place of a word and of the tail, against the test of one byte.
struct SpecialByteScanTests {
    @Test(arguments: [false, true])
    func everyByteValueIsFoundAtEveryPlace(quotes: Bool) {
        for value in 0...255 {
            let byte = UInt8(value)
            let isSpecial =
                TerminalText.mayStartControl(byte)
                || (quotes && (byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")))
            for place in 0..<19 {
                var text = [UInt8](repeating: UInt8(ascii: "a"), count: 19)
                text[place] = byte
                let found = text.withUnsafeBufferPointer {
                    TerminalText.firstSpecialByte(in: $0, from: 0, quotes: quotes)
                }
                #expect(found == (isSpecial ? place : 19), "byte \(value) at \(place)")
            }
        }
    }

    @Test func theScanStartsWhereItIsTold() {
        let text = Array("a\u{1B}bcdefghijkl\"mn".utf8)
        text.withUnsafeBufferPointer { bytes in
            #expect(TerminalText.firstSpecialByte(in: bytes, from: 0, quotes: true) == 1)
            #expect(TerminalText.firstSpecialByte(in: bytes, from: 2, quotes: true) == 13)
            #expect(TerminalText.firstSpecialByte(in: bytes, from: 2, quotes: false) == bytes.count)
        }
    }
}
