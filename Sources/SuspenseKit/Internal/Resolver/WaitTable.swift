/// The queries that slots of one render wait on: for each, the slots in the order they
/// suspended and how many of them still wait; and the queries discovered in the current pass,
/// to start when it ends.
struct WaitTable {
    struct Waiters {
        var slots = WaitingSlots()
        /// Slots still waiting; when it drops to zero the query is no longer wanted.
        var live = 0
        /// Whether the query was handed to the runner already.
        var isStarted = false
    }

    /// A query discovered in a pass, to start once the pass is over, with the outcome a test
    /// stubbed for it, if any, looked up once when it was discovered.
    struct NewQuery {
        let id: QueryID
        let label: String
        let promise: ThrownPromise
        let stub: QueryOutcome?
    }

    private var table: [QueryID: Waiters] = [:]
    private var discovered: [NewQuery] = []
    /// How many distinct queries slots waited on: a capacity hint for the next render.
    private(set) var queriesWaitedOn = 0
    /// Started keyless queries that no slot waits on any more, to cancel.
    private var abandoned: [QueryID] = []
    /// Pending slots waiting on a query in flight; the render goes on while this is > 0.
    private(set) var activeWaiters = 0
    private var nextAnonymous = 0
    /// What each keyless query is called in events and frames: its promise's type.
    private var anonymousLabels: [Int: String] = [:]
    /// The keyless queries that wait out an `ErrorBoundary(retry:)`'s backoff, and its id.
    private var backoffs: [Int: BoundaryID] = [:]

    /// A keyless query; the backoff of the retry of the ErrorBoundary `retrying`, if given.
    mutating func makeAnonymous(label: String, retrying boundary: BoundaryID? = nil) -> QueryID {
        nextAnonymous += 1
        anonymousLabels[nextAnonymous] = label
        if let boundary { backoffs[nextAnonymous] = boundary }
        return .anonymous(nextAnonymous)
    }

    /// The cause of the pass that applies `query`'s result: the result, or a retry when the
    /// query was a backoff.
    func cause(applying query: QueryID) -> PassCause {
        if case .anonymous(let number) = query, !backoffs.isEmpty, let boundary = backoffs[number] {
            return .retry(of: boundary)
        }
        return .result(of: label(of: query))
    }

    func label(of query: QueryID) -> String {
        switch query {
        case .key(let key): return key
        case .anonymous(let number): return anonymousLabels[number] ?? "keyless query"
        }
    }

    mutating func add(_ slot: SlotIndex, on query: QueryID, promise: ThrownPromise, stub: QueryOutcome?) {
        activeWaiters += 1
        // Changed in place, through the dictionary's accessor: a copy taken out and stored back
        // copied the slot list on every append (quadratic in the readers of one key).
        if Self.append(slot, to: &table[query, default: Waiters()]) {
            discovered.append(NewQuery(id: query, label: label(of: query), promise: promise, stub: stub))
            queriesWaitedOn += 1
        }
    }

    /// How many queries the table holds before it grows.
    var capacity: Int { table.capacity }

    /// Makes room for `count` queries, so that the table does not rehash its keys as it grows.
    mutating func reserve(_ count: Int) {
        guard count > 0 else { return }
        table.reserveCapacity(count)
        discovered.reserveCapacity(count)
    }

    /// Adds a waiting slot; returns whether it is the query's first and the query is not started.
    private static func append(_ slot: SlotIndex, to waiters: inout Waiters) -> Bool {
        waiters.slots.append(slot)
        waiters.live += 1
        return waiters.slots.count == 1 && !waiters.isStarted
    }

    /// A slot stopped waiting on `query` (it was discarded).
    mutating func remove(_ slot: SlotIndex, from query: QueryID) {
        activeWaiters -= 1
        guard var waiters = table[query] else { return }
        waiters.live -= 1
        if waiters.live == 0 {
            table[query] = nil
            // A keyless query is this slot's alone: nobody can want it any more. A keyed one
            // goes on until the render ends, since another component of the render may still
            // ask for its key, and a key runs at most once per render.
            if waiters.isStarted, case .anonymous = query { abandoned.append(query) }
        } else {
            table[query] = waiters
        }
    }

    /// A slot stops waiting on `query` though it stays pending (its boundary gave up on it);
    /// returns whether no slot of the render waits on the query any more.
    mutating func stopWaiting(_ slot: SlotIndex, on query: QueryID) -> Bool {
        activeWaiters -= 1
        guard var waiters = table[query] else { return true }
        waiters.live -= 1
        if waiters.live == 0 {
            table[query] = nil
            return true
        }
        table[query] = waiters
        return false
    }

    /// The slots waiting on `query`, whose result arrived; the query is forgotten.
    mutating func take(_ query: QueryID) -> WaitingSlots {
        guard let waiters = table.removeValue(forKey: query) else { return WaitingSlots() }
        activeWaiters -= waiters.live
        return waiters.slots
    }

    /// The queries to start now: those discovered since the last call that a slot still waits
    /// on. A query whose waiters were all discarded in the same pass is never started.
    mutating func takeDiscovered() -> [NewQuery] {
        var taken: [NewQuery] = []
        swap(&taken, &discovered)
        // One lookup per query, changed in place; the list is filtered where it is, not copied
        // (a copy retained and released each query's promise and label).
        taken.removeAll { new in
            guard let index = table.index(forKey: new.id), !table.values[index].isStarted else { return true }
            table.values[index].isStarted = true
            return false
        }
        return taken
    }

    /// Whether queries were discovered since the last `takeDiscovered()`.
    var hasDiscovered: Bool { !discovered.isEmpty }

    /// Started queries no slot waits on any more.
    mutating func takeAbandoned() -> [QueryID] {
        defer { abandoned = [] }
        return abandoned
    }
}

/// Slots in the order they were added: nearly always one per query, kept inline (an array per
/// query was an allocation for every component that suspended).
struct WaitingSlots: Sequence {
    private var first: SlotIndex = -1
    private var others: [SlotIndex] = []

    var count: Int { first < 0 ? 0 : 1 + others.count }

    mutating func append(_ slot: SlotIndex) {
        if first < 0 {
            first = slot
        } else {
            others.append(slot)
        }
    }

    func makeIterator() -> Iterator {
        Iterator(slots: self)
    }

    struct Iterator: IteratorProtocol {
        let slots: WaitingSlots
        var offset = 0

        mutating func next() -> SlotIndex? {
            defer { offset += 1 }
            if offset == 0 { return slots.first < 0 ? nil : slots.first }
            return offset - 1 < slots.others.count ? slots.others[offset - 1] : nil
        }
    }
}
