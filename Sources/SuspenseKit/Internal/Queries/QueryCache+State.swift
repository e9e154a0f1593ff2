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
        /// How long a stored value or failure is used; nil: until removed. With a stale window,
        /// the fresh time and the stale window together.
        let lifetime: Duration?
        /// The age from which a stored value is stale (served, and refreshed in the background),
        /// and a stored failure expired; nil when values never go stale.
        let staleAfter: Duration?
        /// When each key whose refresh failed may be refreshed again, on the cache's clock.
        /// Emptied of a key as soon as it is stored, removed or expires.
        var refreshBlockedUntil: [String: Duration] = [:]
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
        var backgroundRefreshes = 0
        var refreshFailures = 0
        /// About how many bytes the stored results take (see `Statistics.approximateBytes`),
        /// when `countsBytes`.
        var bytes = 0
        let countsBytes: Bool

        init(lifetime: Duration?, staleAfter: Duration?, capacity: Int?, countsBytes: Bool) {
            self.lifetime = lifetime
            self.staleAfter = staleAfter
            self.capacity = capacity
            self.countsBytes = countsBytes
            // The recency order is what eviction and the freeing of expired results walk.
            if capacity != nil || lifetime != nil { table.trackRecency() }
        }

        /// How many results are stored.
        var storedCount: Int { table.count - runningCount + storedWhileRunning.count }

        /// Looks `key` up: what is stored or running there at `now` (nil when the cache has no
        /// lifetime), forgetting a result that outlived the lifetime (or a failure past its fresh
        /// time, when values go stale), and whether a stored value is stale.
        mutating func lookUp(_ key: String, now: Duration?) -> (ResultTable<Cell>.Probe, Found?, isStale: Bool) {
            let probe = table.probe(key)
            guard let position = probe.position else { return (probe, nil, false) }
            // Only the entry is copied out, not the cell (a run's bookkeeping, for a running key).
            guard case .stored(let entry) = Self.found(in: &table[position: position]) else {
                return (probe, .running, false)
            }
            var isStale = false
            if let now, let lifetime, let stored = storedAt[key] {
                let age = now - stored
                if age >= lifetime || (staleAfter.map { age >= $0 } == true && entry.isFailure) {
                    subtractBytes(key, entry)
                    table.remove(at: probe)
                    forgetStamp(key)
                    expirations += 1
                    return (table.probe(key), nil, false)
                }
                if let staleAfter, age >= staleAfter { isStale = true }
            }
            table.markUsed(position)
            table.remember(probe)
            return (probe, .stored(entry), isStale)
        }

        /// What `lookUp` found under a key: a stored result, or a run in flight (changed in place
        /// through the table, never copied out).
        enum Found {
            case stored(Entry)
            case running
        }

        /// What `cell` holds: its entry, copied out, or `.running`. The cell is moved out and back,
        /// not copied: matching it where it is copied all of it first, a run's bookkeeping too.
        static func found(in cell: inout Cell) -> Found {
            switch consume cell {
            case .stored(let entry):
                cell = .stored(entry)
                return .stored(entry)
            case .running(let running):
                cell = .running(running)
                return .running
            }
        }

        /// What is stored under `key` at `now`: not a run in flight.
        mutating func entry(_ key: String, now: Duration?) -> Entry? {
            switch lookUp(key, now: now).1 {
            case .stored(let entry)?: return entry
            case .running?: return storedWhileRunning.isEmpty ? nil : storedWhileRunning(key, now: now)
            case nil: return nil
            }
        }

        /// The result stored under `key` while its query runs (by hand, or the stale value a
        /// refresh replaces), forgotten once it outlived the lifetime at `now`.
        mutating func storedWhileRunning(_ key: String, now: Duration?) -> Entry? {
            guard let entry = storedWhileRunning[key] else { return nil }
            if let now, let lifetime, let stored = storedAt[key], now - stored >= lifetime {
                _ = takeStoredWhileRunning(key)
                forgetStamp(key)
                expirations += 1
                return nil
            }
            return entry
        }

        /// Removes the result stored under `key` while its query runs.
        mutating func takeStoredWhileRunning(_ key: String) -> Entry? {
            guard let entry = storedWhileRunning.removeValue(forKey: key) else { return nil }
            subtractBytes(key, entry)
            return entry
        }

        /// Forgets when `key` was stored, and when it may be refreshed again.
        mutating func forgetStamp(_ key: String) {
            guard lifetime != nil else { return }
            storedAt[key] = nil
            if !refreshBlockedUntil.isEmpty { refreshBlockedUntil[key] = nil }
        }

        /// Whether the stale value of `key` may be refreshed at `now`: not before the back-off
        /// after a failed refresh has passed.
        func mayRefresh(_ key: String, now: Duration?) -> Bool {
            guard !refreshBlockedUntil.isEmpty, let now, let until = refreshBlockedUntil[key] else { return true }
            return now >= until
        }

        /// Starts a refresh of the stale value at `position` (found by `probe`): the value is
        /// served while the refresh runs, as a result stored by hand during a run is, and the
        /// key's cell becomes the run, owned by the cache. Returns the run's number.
        mutating func beginRefresh(_ key: String, at probe: ResultTable<Cell>.Probe) -> UInt64 {
            let position = probe.position!
            guard case .stored(let stale) = table[position: position] else { preconditionFailure("not stored") }
            nextRun += 1
            var running = InFlightQuery(startingRun: nextRun)
            running.starting = false
            running.isOwnedByCache = true
            running.isRefresh = true
            // Out of the recency order: a run in flight is never evicted.
            table.unlink(position)
            table[position: position] = .running(running)
            runningCount += 1
            storedWhileRunning[key] = stale
            backgroundRefreshes += 1
            return nextRun
        }

        /// About how many bytes `entry` takes under `key` (see `Statistics.approximateBytes`).
        static func bytes(_ key: String, _ entry: Entry) -> Int {
            func inlineSize<T>(_ value: T) -> Int { MemoryLayout<T>.size }
            let size: Int
            switch entry {
            case .value(let value):
                if let string = value as? String {
                    size = string.utf8.count
                } else if let bytes = value as? [UInt8] {
                    size = bytes.count
                } else {
                    size = inlineSize(value)
                }
            case .failure(let error): size = inlineSize(error)
            }
            return key.utf8.count + QueryCache.entryOverhead + size
        }

        @inline(__always)
        mutating func addBytes(_ key: String, _ entry: Entry) {
            if countsBytes { bytes += Self.bytes(key, entry) }
        }

        @inline(__always)
        mutating func subtractBytes(_ key: String, _ entry: Entry) {
            if countsBytes { bytes -= Self.bytes(key, entry) }
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
            guard let position = probe.position else { return nil }
            return updateRun(at: position, change)
        }

        /// Changes (or reads) the run at `position`, a position a probe found; nil when a result
        /// is stored there.
        mutating func updateRun<R>(at position: Int, _ change: (inout InFlightQuery) -> R) -> R? {
            Self.updateRun(in: &table[position: position], change)
        }

        /// Changes the run `cell` holds, moved out of the cell and back rather than copied (a
        /// copy retained its task and its renders); nil when the cell holds a result.
        private static func updateRun<R>(in cell: inout Cell, _ change: (inout InFlightQuery) -> R) -> R? {
            switch consume cell {
            case .stored(let entry):
                cell = .stored(entry)
                return nil
            case .running(var running):
                let result = change(&running)
                cell = .running(running)
                return result
            }
        }

        /// Starts a run of `key`, which `probe` found empty; returns where the run is.
        @discardableResult
        mutating func startRunning(
            _ key: String, _ run: InFlightQuery, at probe: ResultTable<Cell>.Probe
        ) -> ResultTable<Cell>.Place {
            table.insert(key, .running(run), at: probe)
            runningCount += 1
            return table.recentPlace
        }

        /// Ends the run of `key` in flight, storing nothing.
        mutating func stopRunning(_ key: String) {
            let probe = table.probe(key)
            guard let position = probe.position, case .running = table[position: position] else { return }
            table.remove(at: probe)
            runningCount -= 1
            _ = takeStoredWhileRunning(key)
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
                    if case .stored(let entry) = table[position: position] { subtractBytes(key, entry) }
                    table.removeValue(forKey: key)
                    forgetStamp(key)
                    expirations += 1
                }
            }
            guard let capacity else { return }
            while table.count - runningCount > capacity, table.oldest >= 0 {
                let key = table.key(at: table.oldest)
                if case .stored(let entry) = table[position: table.oldest] { subtractBytes(key, entry) }
                table.removeValue(forKey: key)
                forgetStamp(key)
                evictions += 1
            }
        }

        /// Stores a result at `now`. A run of the key in flight goes on, and replaces it when
        /// it finishes.
        mutating func store(_ entry: Entry, for key: String, now: Duration?) {
            let probe = table.probe(key)
            if let position = probe.position {
                switch table[position: position] {
                case .running:
                    _ = takeStoredWhileRunning(key)
                    storedWhileRunning[key] = entry
                case .stored(let old):
                    subtractBytes(key, old)
                    table[position: position] = .stored(entry)
                    table.markUsed(position)
                }
            } else {
                table.markUsed(table.insert(key, .stored(entry), at: probe))
            }
            addBytes(key, entry)
            if let now {
                storedAt[key] = now
                if !refreshBlockedUntil.isEmpty { refreshBlockedUntil[key] = nil }
            }
            makeRoom(now: now)
        }

        /// Forgets the result stored under `key`; a run in flight goes on, but its result is
        /// no longer stored (it began before the key was invalidated, so it may be stale).
        mutating func removeStored(_ key: String) {
            _ = takeStoredWhileRunning(key)
            forgetStamp(key)
            let probe = table.probe(key)
            guard let position = probe.position else { return }
            switch table[position: position] {
            case .stored(let entry):
                subtractBytes(key, entry)
                table.remove(at: probe)
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
            refreshBlockedUntil.removeAll()
            bytes = 0
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
