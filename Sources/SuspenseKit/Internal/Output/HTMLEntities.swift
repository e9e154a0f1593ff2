/// Decodes the character references of markup (`&amp;`, `&#x1B;`, `&eacute;`), as a browser
/// does, for the visible text of ``RawHTML`` in `.plain`.
///
/// Numeric references follow HTML: zero, surrogates and values past U+10FFFF become U+FFFD, and
/// U+0080–U+009F are read as Windows-1252 (`&#150;` is an en dash), as browsers do. Named
/// references are the 252 of HTML 4 (with HTML 5's values), `&apos;`, and `&AMP;`, `&COPY;`,
/// `&GT;`, `&LT;`, `&QUOT;`, `&REG;`; those of Latin-1 and of the markup characters are read
/// without their semicolon too, as browsers read text. Any other name is left as written. What a
/// reference decodes to is text like any other: a control it makes (`&#x1B;`) is written as an
/// escape.
enum HTMLEntities {
    /// Decodes the reference that starts with the `&` at `index`, appending its UTF-8 to `text`
    /// (or the `&` itself when none starts there); returns the index after it.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, into text: inout [UInt8]) -> Int {
        let count = bytes.count
        var position = index + 1
        if position < count, bytes[position] == UInt8(ascii: "#") {
            position += 1
            var radix: UInt32 = 10
            if position < count, bytes[position] | 0x20 == UInt8(ascii: "x") {
                radix = 16
                position += 1
            }
            let digitsStart = position
            var value: UInt32 = 0
            while position < count, let digit = digitValue(bytes[position], radix: radix) {
                // Past U+10FFFF every value becomes U+FFFD: stop growing there.
                value = min(value * radix + digit, 0x11_0000)
                position += 1
            }
            guard position > digitsStart else {
                text.append(UInt8(ascii: "&"))
                return index + 1
            }
            if position < count, bytes[position] == UInt8(ascii: ";") { position += 1 }
            append(numeric(value), to: &text)
            return position
        }
        while position < count, position - index <= 32, isASCIIAlphanumeric(bytes[position]) {
            position += 1
        }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[index + 1..<position]), as: UTF8.self)
        if position < count, bytes[position] == UInt8(ascii: ";"), let value = named[name] {
            append(value, to: &text)
            return position + 1
        }
        // Without its semicolon, the longest legacy name the characters start with, as browsers
        // read text: `&copy2024` is ©2024, `&ampx` is &x.
        var length = min(name.utf8.count, 6)
        while length >= 2 {
            let prefix = String(name.utf8.prefix(length))!
            if let value = named[prefix], isLegacy(prefix, value) {
                append(value, to: &text)
                return index + 1 + length
            }
            length -= 1
        }
        text.append(UInt8(ascii: "&"))
        return index + 1
    }

    /// Whether a name may stand without its semicolon: those of Latin-1 and of the markup
    /// characters (HTML's legacy names).
    private static func isLegacy(_ name: String, _ value: UInt32) -> Bool {
        (0xA0...0xFF).contains(value) || ["amp", "lt", "gt", "quot", "AMP", "LT", "GT", "QUOT"].contains(name)
    }

    /// The character a numeric reference stands for.
    static func numeric(_ value: UInt32) -> UInt32 {
        switch value {
        case 0, 0xD800...0xDFFF, 0x11_0000...: return 0xFFFD
        case 0x80...0x9F: return windows1252[Int(value - 0x80)]
        default: return value
        }
    }

    private static func append(_ value: UInt32, to text: inout [UInt8]) {
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        UTF8.encode(scalar) { text.append($0) }
    }

    private static func digitValue(_ byte: UInt8, radix: UInt32) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        HTMLNames.isASCIILetter(byte) || HTMLNames.isASCIIDigit(byte)
    }

    /// What browsers read U+0080–U+009F of a numeric reference as; those Windows-1252 leaves
    /// undefined stay as they are.
    private static let windows1252: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
        0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x9D, 0x017E, 0x0178,
    ]

    /// The named references, from a list of names and hexadecimal values: a dictionary literal
    /// of this size is slow to type-check.
    static let named: [String: UInt32] = {
        var named: [String: UInt32] = [:]
        let words = table.split(whereSeparator: { $0 == " " || $0 == "\n" })
        for pair in stride(from: 0, to: words.count - 1, by: 2) {
            named[String(words[pair])] = UInt32(words[pair + 1], radix: 16)
        }
        return named
    }()

    private static let table = """
        quot 22 amp 26 apos 27 lt 3C gt 3E nbsp A0 iexcl A1 cent A2 pound A3 curren A4 yen A5 brvbar A6
        sect A7 uml A8 copy A9 ordf AA laquo AB not AC shy AD reg AE macr AF deg B0 plusmn B1 sup2 B2
        sup3 B3 acute B4 micro B5 para B6 middot B7 cedil B8 sup1 B9 ordm BA raquo BB frac14 BC frac12 BD
        frac34 BE iquest BF Agrave C0 Aacute C1 Acirc C2 Atilde C3 Auml C4 Aring C5 AElig C6 Ccedil C7
        Egrave C8 Eacute C9 Ecirc CA Euml CB Igrave CC Iacute CD Icirc CE Iuml CF ETH D0 Ntilde D1 Ograve D2
        Oacute D3 Ocirc D4 Otilde D5 Ouml D6 times D7 Oslash D8 Ugrave D9 Uacute DA Ucirc DB Uuml DC
        Yacute DD THORN DE szlig DF agrave E0 aacute E1 acirc E2 atilde E3 auml E4 aring E5 aelig E6
        ccedil E7 egrave E8 eacute E9 ecirc EA euml EB igrave EC iacute ED icirc EE iuml EF eth F0 ntilde F1
        ograve F2 oacute F3 ocirc F4 otilde F5 ouml F6 divide F7 oslash F8 ugrave F9 uacute FA ucirc FB
        uuml FC yacute FD thorn FE yuml FF OElig 152 oelig 153 Scaron 160 scaron 161 Yuml 178 fnof 192
        circ 2C6 tilde 2DC Alpha 391 Beta 392 Gamma 393 Delta 394 Epsilon 395 Zeta 396 Eta 397 Theta 398
        Iota 399 Kappa 39A Lambda 39B Mu 39C Nu 39D Xi 39E Omicron 39F Pi 3A0 Rho 3A1 Sigma 3A3 Tau 3A4
        Upsilon 3A5 Phi 3A6 Chi 3A7 Psi 3A8 Omega 3A9 alpha 3B1 beta 3B2 gamma 3B3 delta 3B4 epsilon 3B5
        zeta 3B6 eta 3B7 theta 3B8 iota 3B9 kappa 3BA lambda 3BB mu 3BC nu 3BD xi 3BE omicron 3BF pi 3C0
        rho 3C1 sigmaf 3C2 sigma 3C3 tau 3C4 upsilon 3C5 phi 3C6 chi 3C7 psi 3C8 omega 3C9 thetasym 3D1
        upsih 3D2 piv 3D6 ensp 2002 emsp 2003 thinsp 2009 zwnj 200C zwj 200D lrm 200E rlm 200F ndash 2013
        mdash 2014 lsquo 2018 rsquo 2019 sbquo 201A ldquo 201C rdquo 201D bdquo 201E dagger 2020 Dagger 2021
        bull 2022 hellip 2026 permil 2030 prime 2032 Prime 2033 lsaquo 2039 rsaquo 203A oline 203E
        frasl 2044 euro 20AC image 2111 weierp 2118 real 211C trade 2122 alefsym 2135 larr 2190 uarr 2191
        rarr 2192 darr 2193 harr 2194 crarr 21B5 lArr 21D0 uArr 21D1 rArr 21D2 dArr 21D3 hArr 21D4
        forall 2200 part 2202 exist 2203 empty 2205 nabla 2207 isin 2208 notin 2209 ni 220B prod 220F
        sum 2211 minus 2212 lowast 2217 radic 221A prop 221D infin 221E ang 2220 and 2227 or 2228 cap 2229
        cup 222A int 222B there4 2234 sim 223C cong 2245 asymp 2248 ne 2260 equiv 2261 le 2264 ge 2265
        sub 2282 sup 2283 nsub 2284 sube 2286 supe 2287 oplus 2295 otimes 2297 perp 22A5 sdot 22C5
        lceil 2308 rceil 2309 lfloor 230A rfloor 230B lang 27E8 rang 27E9 loz 25CA spades 2660 clubs 2663
        hearts 2665 diams 2666 AMP 26 COPY A9 GT 3E LT 3C QUOT 22 REG AE
        """
}
