// The resolver's state beside its records, in groups that each keep their own invariants: what a
// pass must settle, what changed since the shell, fallback timing, failures, and the last tag
// checked. Each is a value owned by the resolver.

/// The Suspenses a pass must settle (`settle`): those whose last pending slot went away, and
/// those that went back to pending and need their fallback. Empty when a pass ends.
struct SettleQueue {
    var touched: [SuspenseIndex] = []
    var reopened: [SuspenseIndex] = []

    var isEmpty: Bool { touched.isEmpty && reopened.isEmpty }
}

/// The changes to the visible tree, noted while a pass runs and reported after it. Nothing is
/// noted before the shell is sent: the shell shows the whole tree as it stands.
struct ChangeLog {
    private(set) var shellSent = false
    private(set) var changes: [BoundaryChange] = []
    /// Whether the changes noted reveal rows of a SuspenseList together.
    private(set) var together = false

    mutating func note(_ change: BoundaryChange) {
        if shellSent { changes.append(change) }
    }

    mutating func noteTogether() {
        if shellSent { together = true }
    }

    mutating func markShellSent() {
        shellSent = true
    }

    /// The changes noted since the last call, forgotten here.
    mutating func take() -> [BoundaryChange] {
        together = false
        defer { changes.removeAll(keepingCapacity: true) }
        return changes
    }
}

/// Fallback timing and time limits: whether delays and minimum durations apply, and what the
/// render loop must arm after a pass (timeouts begun, resolutions held back).
struct TimingState {
    /// Whether fallback delays and minimum durations hold resolutions back: the render's mode
    /// (streams and frames, never a whole render); switched off when the deadline passes.
    var isHonoured = false
    /// Whether any Suspense of the render has a fallback delay.
    var hasDelays = false
    /// When the shell was sent, on the render's clock, when fallback timing is honoured.
    var shellSentAt: Duration?
    /// Set when the render's deadline cut it short: queries it cancelled are not waited for.
    var deadlinePassed = false
    /// Suspenses with a timeout that began showing their fallback in this pass: the loop arms
    /// their timers.
    var timed: [SuspenseIndex] = []
    /// Suspenses whose resolution fallback timing held back in this pass (the root: the shell),
    /// and until when: the loop arms a recheck for each.
    var held: [(SuspenseIndex, Duration)] = []

    mutating func takeTimed() -> [SuspenseIndex] {
        defer { timed = [] }
        return timed
    }

    mutating func takeHeld() -> [(SuspenseIndex, Duration)] {
        defer { held = [] }
        return held
    }
}

/// Failures: where the evaluation now running began in the render's log of failures, those
/// reported to `onError` hooks (each once), and the error that reached the root.
struct FailureState {
    /// How many failures the render had met (`QueryMailbox.failureCount`) when the evaluation
    /// now running began: those met since were met beneath the boundary that catches next.
    var mark = 0
    /// The caught failures reported to `onError` handlers so far; see `reportCaught`.
    var reported: Set<ReportedFailure> = []
    /// Set when an error reached the root: the pass stops, and the render throws it.
    var uncaught: RenderError?
}

/// A tag whose name was checked: whether it is void, and its index in the arena's names.
struct TagCheck {
    var tag: String?
    var isVoid = false
    var name: Int32 = 0
}

/// The last three tags checked, the last first, so that a list of one tag, or of rows of two or
/// three (`<tr>` and `<td>`; `<li>`, `<a>` and `<span>`), checks each tag once.
struct RecentTags {
    private(set) var last = TagCheck()
    private var previous = TagCheck()
    private var older = TagCheck()

    /// Makes `tag` the last one, the others keeping their order; false when it is none of them.
    @inline(__always)
    mutating func moveToFront(_ tag: String) -> Bool {
        if tag == last.tag { return true }
        if tag == previous.tag {
            swap(&last, &previous)
        } else if tag == older.tag {
            swap(&last, &older)
            swap(&previous, &older)
        } else {
            return false
        }
        return true
    }

    /// Makes `check` the last one; the oldest is forgotten.
    mutating func add(_ check: TagCheck) {
        swap(&previous, &older)
        swap(&last, &previous)
        last = check
    }
}
