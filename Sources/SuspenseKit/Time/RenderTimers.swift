/// The timers of one render: a timeout per ``Suspense`` showing its fallback, a recheck per
/// Suspense whose resolution fallback timing holds back (the root's: the shell), and the
/// render's deadline. Each is a task sleeping on the render's clock that posts to the render's mailbox
/// when it fires; the render loop handles it like a query result, on the render's task.
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
    private var timeouts: [SuspenseIndex: (generation: Int, task: Task<Void, Never>)] = [:]
    private var nextGeneration = 0
    private var deadline: Task<Void, Never>?
    private var rechecks: [SuspenseIndex: (at: Duration, task: Task<Void, Never>)] = [:]

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
        timeouts.removeValue(forKey: suspense)?.task.cancel()
        guard !offset.neverArrives else { return }
        let task = start(at: offset, firing: .timeout(suspense, generation: nextGeneration))
        timeouts[suspense] = (nextGeneration, task)
    }

    /// Fires `.recheck(suspense)` at `offset`, unless one is armed for that time already. A hold
    /// that never ends (`Duration.longestWait` or more) is armed all the same and never fires:
    /// the fallback stays for as long as it was asked to.
    func armRecheck(for suspense: SuspenseIndex, at offset: Duration) {
        if let armed = rechecks[suspense] {
            if armed.at == offset { return }
            armed.task.cancel()
        }
        rechecks[suspense] = (offset, start(at: offset, firing: .recheck(suspense)))
    }

    /// Takes a fired recheck out of the armed ones.
    func takeRecheck(_ suspense: SuspenseIndex) {
        rechecks[suspense] = nil
    }

    /// Takes a fired timeout out of the armed ones; false when it was replaced or disarmed since.
    func takeFired(_ suspense: SuspenseIndex, generation: Int) -> Bool {
        guard timeouts[suspense]?.generation == generation else { return false }
        timeouts[suspense] = nil
        return true
    }

    /// Disarms the timeouts and rechecks of the Suspenses for which `isOver` holds (resolved or
    /// discarded; the root once the shell was sent).
    func disarm(where isOver: (SuspenseIndex) -> Bool) {
        for suspense in timeouts.keys where isOver(suspense) {
            timeouts.removeValue(forKey: suspense)?.task.cancel()
        }
        for suspense in rechecks.keys where isOver(suspense) {
            rechecks.removeValue(forKey: suspense)?.task.cancel()
        }
    }

    /// Cancels every timer and waits until their tasks have ended.
    func stop(isolation: isolated (any Actor)? = #isolation) async {
        var tasks = timeouts.values.map(\.task) + rechecks.values.map(\.task)
        timeouts = [:]
        rechecks = [:]
        if let deadline { tasks.append(deadline) }
        deadline = nil
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    private func start(at offset: Duration, firing fired: Fired) -> Task<Void, Never> {
        let (clock, mailbox) = (clock, mailbox)
        return Task.detached {
            do {
                try await clock.sleepUntil(offset)
            } catch {
                return
            }
            mailbox.postTimer(fired)
        }
    }
}
