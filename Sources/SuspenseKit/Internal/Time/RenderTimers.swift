/// The timers of one render: a timeout per ``Suspense`` showing its fallback, a recheck per
/// Suspense whose resolution fallback timing holds back (the root's: the shell), and the
/// render's deadline. Each is a task sleeping on the render's clock that posts to the render's mailbox
/// when it fires; the render loop handles it like a query result, on the render's task.
///
/// A timer's task only wakes the render: the loop then takes every timer that is due by then
/// (`takeDue`), in the order they are due (those due together in the order they were armed), so
/// that which timer's task happened to wake first never decides the order (a test clock advanced
/// past several timers wakes their tasks in an order no one controls).
///
/// Owned by the render loop; its tasks capture only the clock and the mailbox. When the render
/// ends, `stop` cancels every timer and waits for their tasks, so none outlives the render.
final class RenderTimers {
    /// What a timer reports when it fires.
    enum Fired: Sendable {
        /// The timeout of the Suspense at this index, armed as `generation`.
        case timeout(SuspenseIndex, generation: Int)
        /// The hold on this Suspense's resolution (the root: the shell) may be over.
        case recheck(SuspenseIndex)
        case deadline
    }

    private let clock: RenderClock
    private let mailbox: QueryMailbox
    /// An armed timer: when it is due, the order it was armed in, and its task.
    private struct Armed {
        let at: Duration
        let sequence: Int
        let task: Task<Void, Never>
    }

    private var timeouts: [SuspenseIndex: (generation: Int, armed: Armed)] = [:]
    private var nextGeneration = 0
    private var nextSequence = 0
    private var deadline: Armed?
    private var rechecks: [SuspenseIndex: Armed] = [:]

    init(clock: RenderClock, mailbox: QueryMailbox) {
        self.clock = clock
        self.mailbox = mailbox
    }

    /// Whether a timeout is armed.
    var hasTimeouts: Bool { !timeouts.isEmpty }

    /// Whether a resolution is held back for fallback timing.
    var hasRechecks: Bool { !rechecks.isEmpty }

    /// Fires `.deadline` at `offset` from the render's start; a deadline `Duration.longestWait`
    /// or more away is no deadline, and a negative one is the render's start.
    func armDeadline(at offset: Duration) {
        guard !offset.neverArrives else { return }
        deadline = start(at: offset, firing: .deadline)
    }

    /// Fires the timeout of `suspense` at `offset` from the render's start, replacing one armed
    /// before; a timeout that never arrives (`Duration.longestWait` or more) is not armed, so
    /// that it keeps no render going.
    func armTimeout(for suspense: SuspenseIndex, at offset: Duration) {
        nextGeneration += 1
        timeouts.removeValue(forKey: suspense)?.armed.task.cancel()
        guard !offset.neverArrives else { return }
        timeouts[suspense] = (nextGeneration, start(at: offset, firing: .timeout(suspense, generation: nextGeneration)))
    }

    /// Fires `.recheck(suspense)` at `offset`, unless one is armed for that time already. A hold
    /// that never ends (`Duration.longestWait` or more) is armed all the same and never fires:
    /// the fallback stays for as long as it was asked to.
    func armRecheck(for suspense: SuspenseIndex, at offset: Duration) {
        if let armed = rechecks[suspense] {
            if armed.at == offset { return }
            armed.task.cancel()
        }
        rechecks[suspense] = start(at: offset, firing: .recheck(suspense))
    }

    /// Takes every armed timer due at `now`, and every one among `woken` (timers whose task
    /// woke the render) still armed, in the order they are due, those due together in the order
    /// they were armed. A timer replaced or disarmed since its task woke is not among them.
    func takeDue(now: Duration, woken: [Fired]) -> [Fired] {
        var until = now
        for fired in woken {
            switch fired {
            case .timeout(let suspense, let generation):
                if let armed = timeouts[suspense], armed.generation == generation { until = max(until, armed.armed.at) }
            case .recheck(let suspense):
                if let armed = rechecks[suspense] { until = max(until, armed.at) }
            case .deadline:
                if let deadline { until = max(until, deadline.at) }
            }
        }
        var due: [(Armed, Fired)] = []
        for (suspense, timeout) in timeouts where timeout.armed.at <= until {
            due.append((timeout.armed, .timeout(suspense, generation: timeout.generation)))
            timeouts[suspense] = nil
        }
        for (suspense, armed) in rechecks where armed.at <= until {
            due.append((armed, .recheck(suspense)))
            rechecks[suspense] = nil
        }
        if let deadline, deadline.at <= until {
            due.append((deadline, .deadline))
            self.deadline = nil
        }
        due.sort { ($0.0.at, $0.0.sequence) < ($1.0.at, $1.0.sequence) }
        // Their tasks may still sleep (another one woke the render first): they have nothing
        // left to do.
        for (armed, _) in due { armed.task.cancel() }
        return due.map(\.1)
    }

    /// Disarms the timeouts and rechecks of the Suspenses for which `isOver` holds (resolved or
    /// discarded; the root once the shell was sent).
    func disarm(where isOver: (SuspenseIndex) -> Bool) {
        for suspense in timeouts.keys where isOver(suspense) {
            timeouts.removeValue(forKey: suspense)?.armed.task.cancel()
        }
        for suspense in rechecks.keys where isOver(suspense) {
            rechecks.removeValue(forKey: suspense)?.task.cancel()
        }
    }

    /// Cancels every timer and waits until their tasks have ended.
    func stop(isolation: isolated (any Actor)? = #isolation) async {
        var tasks = timeouts.values.map(\.armed.task) + rechecks.values.map(\.task)
        timeouts = [:]
        rechecks = [:]
        if let deadline { tasks.append(deadline.task) }
        deadline = nil
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    private func start(at offset: Duration, firing fired: Fired) -> Armed {
        let (clock, mailbox) = (clock, mailbox)
        nextSequence += 1
        let task = Task.detached {
            do {
                try await clock.sleepUntil(offset)
            } catch {
                return
            }
            mailbox.postTimer(fired)
        }
        return Armed(at: offset, sequence: nextSequence, task: task)
    }
}
