// A keyed query's run in its cache's table, and the renders waiting on it.

/// One run of a keyed query, shared by the renders waiting on it. Guarded by its cache's lock.
struct InFlightQuery {
    let run: UInt64
    var task: Task<Void, Never>?
    /// The renders its result is delivered to. Not the render starting it on the immediate path
    /// while the start has not returned: that one takes the result itself (see `starting`).
    var mailboxes: Subscribers
    /// Set while a render starts the run on its own thread (`QueryCache.read`), until the start
    /// returns: a result that arrives before then is not delivered to it; the starter uses it at
    /// once if the query finished on the starter's own thread without suspending (see
    /// `ImmediateStart`), and reads it from the cache otherwise.
    var starting: Bool
    /// Set when the key was removed from the cache while the run was in flight: its result
    /// goes to the renders waiting on it, and is not stored (it may predate the change).
    var isInvalidated = false
    /// Set for a run started by `QueryCache.prefetch`: owned by the cache, not by a render, so
    /// renders that join it and leave do not cancel it.
    var isOwnedByCache = false
    /// Set for a background refresh of a stale value (owned by the cache too): a failure is not
    /// stored, and the stale value stays (`QueryCache.complete`).
    var isRefresh = false

    /// A run started by the runner for the render behind `mailbox`.
    init(run: UInt64, mailbox: QueryMailbox) {
        self.run = run
        self.mailboxes = Subscribers(mailbox)
        self.starting = false
    }

    /// A run being started at once by a render (the immediate path): no table of mailboxes yet.
    init(startingRun run: UInt64) {
        self.run = run
        self.mailboxes = Subscribers()
        self.starting = true
    }
}

/// The renders a run's result goes to: nearly always one, kept inline (a table of one cost an
/// allocation per query); more in a table.
struct Subscribers {
    private var first: QueryMailbox?
    private var others: [ObjectIdentifier: QueryMailbox] = [:]

    /// No render.
    init() {}

    /// One render.
    init(_ mailbox: QueryMailbox) {
        first = mailbox
    }

    var isEmpty: Bool { first == nil && others.isEmpty }
    var count: Int { (first == nil ? 0 : 1) + others.count }

    func contains(_ mailbox: QueryMailbox) -> Bool {
        first === mailbox || (!others.isEmpty && others[ObjectIdentifier(mailbox)] != nil)
    }

    mutating func insert(_ mailbox: QueryMailbox) {
        if contains(mailbox) { return }
        if first == nil {
            first = mailbox
        } else {
            others[ObjectIdentifier(mailbox)] = mailbox
        }
    }

    mutating func remove(_ mailbox: QueryMailbox) {
        if first === mailbox {
            first = others.popFirst()?.value
        } else if !others.isEmpty {
            others[ObjectIdentifier(mailbox)] = nil
        }
    }

    func forEach(_ body: (QueryMailbox) -> Void) {
        if let first { body(first) }
        for mailbox in others.values { body(mailbox) }
    }
}
