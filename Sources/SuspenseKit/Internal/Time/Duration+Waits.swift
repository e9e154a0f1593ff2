/// Waits that cannot trap. Every duration the API accepts (a timeout, the deadline, fallback
/// timing, a retry delay) is a wait: a negative one is zero, and one of ``longestWait`` or more is
/// a wait that never ends, so no clock is ever asked for its instant.
///
/// Why a limit below what `Duration` holds: `ContinuousClock` traps when asked to sleep past
/// `Int64.max` seconds since boot, and a clock counting nanoseconds in an `Int64` holds about 292
/// years. A hundred years is past any render and inside both.
extension Duration {
    /// A hundred years of 365 days: a wait this long or longer never ends.
    static let longestWait = Duration.seconds(100 * 365 * 86_400)

    /// The most `Duration.components` can express either way: `Int64.max` seconds.
    private static let upperLimit = Duration.seconds(Int64.max)
    private static let lowerLimit = Duration.seconds(-Int64.max)

    /// This duration as a wait: at least zero, at most ``longestWait``.
    var clampedWait: Duration {
        min(max(self, .zero), .longestWait)
    }

    /// Whether this wait, or this offset from a render's start, never comes.
    var neverArrives: Bool {
        self >= .longestWait
    }

    /// `self + other`, kept within `Int64.max` seconds either way instead of trapping.
    func saturatingAdding(_ other: Duration) -> Duration {
        let (lower, upper) = (Self.lowerLimit, Self.upperLimit)
        // Each operand within the limits: their sum is within twice them, which Duration holds.
        let sum = min(max(self, lower), upper) + min(max(other, lower), upper)
        return min(max(sum, lower), upper)
    }

    /// This wait (at least zero) times `factor`, at most `ceiling`: zero for a factor that is
    /// NaN or not positive, `ceiling` for one whose product `Duration` cannot hold.
    func scaled(by factor: Double, atMost ceiling: Duration) -> Duration {
        guard factor > 0, self > .zero, ceiling > .zero else { return .zero }
        // The product in seconds as a Double first: `Duration * Double` traps past Int128.
        if factor.isInfinite || self / .seconds(1) * factor >= ceiling / .seconds(1) { return ceiling }
        return min(self * factor, ceiling)
    }
}
