/// What an out-of-order stream writes around a region's new content, for the chosen swap: the
/// template and the script that moves it (`.script`), the declarative `<template for>` with the
/// region's markers again (`.declarative`), or both (`.declarativeWithScript`). Each inline
/// function is written once per stream, with the first swap that needs it.
struct SwapMarkup {
    let swap: StreamOptions.Swap
    /// `<script>`, with the nonce if there is one.
    let scriptOpening: [UInt8]
    /// Whether the swap's inline function was written already.
    private var defined = false

    init(swap: StreamOptions.Swap, nonce: String?) {
        self.swap = swap
        var opening = Array("<script".utf8)
        if let nonce {
            opening += " nonce=\"".utf8
            HTMLEscaping.appendAttribute(nonce, to: &opening)
            opening += "\"".utf8
        }
        scriptOpening = opening + ">".utf8
    }

    /// What comes before and after the new content of the region named `key` in its chunk.
    mutating func parts(of key: String, markup: StreamMarkup) -> (opening: [UInt8], closing: [UInt8]) {
        switch swap {
        case .script:
            // The template right before its script, which takes it as its previous sibling.
            var closing = Array("</template>".utf8)
            closing += scriptOpening
            if !defined {
                defined = true
                closing += StreamChunker.swapFunction.utf8
            }
            closing += "$sk(\"\(key)\")</script>".utf8
            return (Array("<template>".utf8), closing)
        case .declarative:
            // The browser replaces the region, markers included: the new content carries them
            // again, for a later replacement.
            return (Array("<template for=\"\(key)\">".utf8) + markup.start(key), markup.end(key) + "</template>".utf8)
        case .declarativeWithScript:
            var closing = markup.end(key) + "</template>".utf8
            closing += scriptOpening
            if !defined {
                defined = true
                closing += StreamChunker.templateForFunction.utf8
            }
            closing += "$skt(\"\(key)\")</script>".utf8
            return (Array("<template for=\"\(key)\">".utf8) + markup.start(key), closing)
        }
    }
}
