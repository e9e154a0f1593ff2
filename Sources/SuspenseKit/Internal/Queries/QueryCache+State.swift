/// The table behind a ``QueryCache``: its entries, the running queries, the order of use and
/// the tags, all under the cache's one lock.
extension QueryCache {
    /// What is stored, and what is running: one table and one lock, so that a read takes the
    /// lock once and looks its key up once, and a run finishing finds its place again at once.
    struct State {
        var table = ResultTable<Cell>()
        /// How many cells of the table are running queries.
        var runningCount = 0
        /// Results stored by hand (`store(_:for:)`) under a key whose query was running: found
        /// before the run, and replaced by its result. Rare.
        var storedWhileRunning: [String: Entry] = [:]
        var nextRun: UInt64 = 0
        /// Outcomes a test fixed in place of running the query, by key or keyless-promise label.
        var stubs: [String: QueryOutcome] = [:]
        /// While there are stubs: every key and label a render asked for, and each stubbed
        /// value that was not of the type its reader asked for.
        var asked: Set<String> = []
        var stubMismatches: [QueryTypeMismatch] = []
        /// How long a stored value or failure is used; nil: until removed.
        let lifetime: Duration?
        /// When each value or failure was stored, on the cache's clock, while there is a lifetime.
        var storedAt: [String: Duration] = [:]
        /// How many results are kept at most; nil: no bound.
        let capacity: Int?
        /// The keys read with each tag (`resolveValue(key:tags:query:)`), for `invalidate(tag:)`.
        /// A key evicted or removed since may linger here until its tag is invalidated or
        /// pruned (see `addTags`): invalidating it again is harmless.
        var tagged: [String: TaggedKeys] = [:]
        /// What `statistics` reports, counted under the lock.
        var hits = 0
        var misses = 0
        var coalesced = 0
        var evictions = 0
        var expirations = 0

        init(lifetime: Duration?, capacity: Int?) {
            self.lifetime = lifetime
            self.capacity = capacity
            // The recency order is what eviction and the freeing of expired results walk.
            if capacity != nil || lifetime != nil { table.trackRecency() }
        }

        /// How many results are stored.
        var storedCount: Int { table.count - runningCount + storedWhileRunning.count }

        /// Looks `key` up: what is stored or running there at `now` (nil when the cache has no
        /// lifetime), forgetting a result that outlived the lifetime.
        mutating func lookUp(_ key: String, now: Duration?) -> (ResultTable<Cell>.Probe, Cell?) {
            let probe = table.probe(key)
            guard let position = probe.position else { return (probe, nil) }
            let cell = table[position: position]
            if case .stored = cell {
                if let now, let lifetime, let stored = storedAt[key], now - stored >= lifetime {
                    table.remove(at: probe)
                    storedAt[key] = nil
                    expirations += 1
                    return (table.probe(key), nil)
                }
                table.markUsed(position)
            }
            return (probe, cell)
        }

        /// What is stored under `key` at `now`: not a run in flight.
        mutating func entry(_ key: String, now: Duration?) -> Entry? {
            switch lookUp(key, now: now).1 {
            case .stored(let entry)?: return entry
            case .running?: return storedWhileRunning.isEmpty ? nil : storedWhileRunning[key]
            case nil: return nil
            }
        }

        /// The run of `key` in flight.
        func running(_ key: String) -> InFlightQuery? {
            let probe = table.probe(key)
            guard let position = probe.position, case .running(let run) = table[position: position] else { return nil }
            return run
        }

        /// Changes the run of `key` in flight, if there is one.
        mutating func updateRunning<R>(
            _ key: String, hash: Int? = nil, _ change: (inout InFlightQuery) -> R
        ) -> R? {
            let probe = hash.map { table.probe(key, hash: $0) } ?? table.probe(key)
            guard let position = probe.position, case .running(var run) = table[position: position] else { return nil }
            let result = change(&run)
            table[position: position] = .running(run)
            return result
        }

        /// Starts a run of `key`, which `probe` found empty.
        mutating func startRunning(_ key: String, _ run: InFlightQuery, at probe: ResultTable<Cell>.Probe) {
            table.insert(key, .running(run), at: probe)
            runningCount += 1
        }

        /// Ends the run of `key` in flight, storing nothing.
        mutating func stopRunning(_ key: String) {
            let probe = table.probe(key)
            guard let position = probe.position, case .running = table[position: position] else { return }
            table.remove(at: probe)
            runningCount -= 1
            storedWhileRunning[key] = nil
        }

        /// Makes room after a result was stored at `now`: frees at most two expired results
        /// from the least recently used end (a small step per store, never a sweep: an expired
        /// result nobody reads again reaches that end as newer ones are stored), then evicts the
        /// least recently used results beyond the capacity. Runs in flight are outside the
        /// order, so never evicted.
        mutating func makeRoom(now: Duration?) {
            guard table.tracksRecency else { return }
            if let now, let lifetime {
                for _ in 0..<2 {
                    let position = table.oldest
                    guard position >= 0 else { break }
                    let key = table.key(at: position)
                    guard let stored = storedAt[key], now - stored >= lifetime else { break }
                    table.removeValue(forKey: key)
                    storedAt[key] = nil
                    expirations += 1
                }
            }
            guard let capacity else { return }
            while table.count - runningCount > capacity, table.oldest >= 0 {
                let key = table.key(at: table.oldest)
                table.removeValue(forKey: key)
                if lifetime != nil { storedAt[key] = nil }
                evictions += 1
            }
        }

        /// Stores a result at `now`. A run of the key in flight goes on, and replaces it when
        /// it finishes.
        mutating func store(_ entry: Entry, for key: String, now: Duration?) {
            let probe = table.probe(key)
            if let position = probe.position {
                if case .running = table[position: position] {
                    storedWhileRunning[key] = entry
                } else {
                    table[position: position] = .stored(entry)
                    table.markUsed(position)
                }
            } else {
                table.markUsed(table.insert(key, .stored(entry), at: probe))
            }
            if let now { storedAt[key] = now }
            makeRoom(now: now)
        }

        /// Forgets the result stored under `key`; a run in flight goes on, but its result is
        /// no longer stored (it began before the key was invalidated, so it may be stale).
        mutating func removeStored(_ key: String) {
            storedWhileRunning[key] = nil
            storedAt[key] = nil
            let probe = table.probe(key)
            guard let position = probe.position else { return }
            switch table[position: position] {
            case .stored: table.remove(at: probe)
            case .running(var run):
                run.isInvalidated = true
                table[position: position] = .running(run)
            }
        }

        /// Notes that `key` was read with `tags`. A tag's set is pruned of keys the table no
        /// longer holds each time it doubles, so it stays in proportion to the table.
        mutating func addTags(_ tags: [String], to key: String) {
            for tag in tags {
                var keys = tagged.removeValue(forKey: tag) ?? TaggedKeys()
                if keys.keys.insert(key).inserted, keys.keys.count >= keys.pruneAt {
                    keys.keys = keys.keys.filter { table.probe($0).position != nil }
                    keys.pruneAt = max(64, keys.keys.count * 2)
                }
                tagged[tag] = keys
            }
        }

        /// Forgets every stored result; runs in flight go on, their results no longer stored.
        mutating func removeAllStored() {
            storedWhileRunning.removeAll()
            storedAt.removeAll()
            if runningCount == 0 {
                table.removeAll()
            } else {
                table.removeAll { if case .stored = $0 { true } else { false } }
                table.updateAll { cell in
                    guard case .running(var run) = cell else { return }
                    run.isInvalidated = true
                    cell = .running(run)
                }
            }
        }
    }

    /// The keys read with one tag.
    struct TaggedKeys {
        var keys: Set<String> = []
        /// The size at which the set is next pruned of keys the table no longer holds.
        var pruneAt = 64
    }
}
