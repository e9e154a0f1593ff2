/// The `Server-Timing` value for the shell's time: `shell;dur=` in milliseconds, to a tenth.
enum ServerTiming {
    static func shell(_ duration: Duration) -> String {
        let (seconds, attoseconds) = max(duration, .zero).components
        // Tenths of a millisecond, rounded: 10^14 attoseconds each.
        let tenths = seconds * 10_000 + (attoseconds + 50_000_000_000_000) / 100_000_000_000_000
        let whole = tenths / 10
        let fraction = tenths % 10
        return fraction == 0 ? "shell;dur=\(whole)" : "shell;dur=\(whole).\(fraction)"
    }
}
