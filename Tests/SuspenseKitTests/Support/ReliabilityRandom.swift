#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#else
    import Darwin
#endif

/// SplitMix64: a tiny, fast, seedable generator, so that every generated case is reproducible from
/// its seed alone, with no dependency.
struct ReliabilityRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    /// `true` with the given probability.
    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    /// One of `options`, each with its weight.
    mutating func weighted<T>(_ options: [(Int, T)]) -> T {
        let total = options.reduce(0) { $0 + $1.0 }
        var roll = int(0...(total - 1))
        for (weight, option) in options {
            if roll < weight { return option }
            roll -= weight
        }
        return options[options.count - 1].1
    }
}

/// Reads a number from the environment, for knobs such as `SUSPENSEKIT_PROPERTY_CASES`.
func reliabilityEnvironmentNumber(_ name: String) -> UInt64? {
    guard let text = reliabilityEnvironment(name) else { return nil }
    if text.hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16) }
    return UInt64(text)
}

func reliabilityEnvironment(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    let text = String(cString: value)
    return text.isEmpty ? nil : text
}
