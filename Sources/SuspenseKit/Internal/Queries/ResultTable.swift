/// The results of a ``QueryCache`` by key: keys and results in two arrays, in the order they
/// were stored, and a small open-addressing index of one word per slot over them.
///
/// Why not a `[String: Entry]`: a dictionary keeps keys and values at their key's random bucket,
/// in a table sized for its load (a result is 40 bytes, a key 16), so each of the thousands of
/// results a render stores wrote cold memory far apart, and the table was allocated and
/// faulted in anew for every render: a fifth of a render whose components each read a key of
/// their own. Here storing appends to warm memory, and the only random access is to an index of
/// eight bytes a slot: a 32-bit fingerprint of the key's hash and the key's position.
struct ResultTable<Value> {
    /// 0: empty; `Self.tombstone`: a removed key; else `fingerprint << 32 | (position + 1)`.
    private var slots: [UInt64] = []
    /// The keys and results by position; a removed position keeps an empty key and a nil result.
    private var keys: [String] = []
    private var results: [Value?] = []
    /// How many keys are stored, and how many slots and positions removals left behind.
    private(set) var count = 0
    private var tombstones = 0
    private var holes = 0
    /// The recency order of positions, kept only once `trackRecency()` was called (a cache
    /// with a capacity or a lifetime): a doubly linked list through `newer` and `older` (-1 ends
    /// it), from `oldest` to `newest`. A position outside the list has `older == -2`, so that
    /// a value can stay out of it (a run in flight, which is never evicted).
    private(set) var tracksRecency = false
    private var newer: [Int] = []
    private var older: [Int] = []
    private(set) var oldest = -1
    private var newest = -1

    private static var tombstone: UInt64 { .max }

    /// The key last stored or found by a reader (`remember`): its position, its slot in the
    /// index and its hash. A probe of the same key again (many components reading one key, a
    /// run completing the key it has just started) neither hashes it nor walks the index; the
    /// slot, the position and the key there are checked, so a removal or a rebuild since only
    /// makes it miss.
    private var recent = (position: -1, slot: 0, hash: 0)

    var isEmpty: Bool { count == 0 }

    /// How many keys the table holds before its index grows.
    var capacity: Int { slots.count / 4 * 3 }

    /// Makes room for `count` keys in all.
    mutating func reserveCapacity(_ count: Int) {
        guard count > capacity else { return }
        keys.reserveCapacity(count)
        results.reserveCapacity(count)
        rebuild(slotCount: Self.slotCount(for: count))
    }

    /// Keeps the recency order from now on (the table must be empty).
    mutating func trackRecency() {
        precondition(isEmpty)
        tracksRecency = true
    }

    /// Makes the value at `position` the most recently used, linking it into the order if it
    /// was outside it.
    @inline(__always)
    mutating func markUsed(_ position: Int) {
        guard tracksRecency, newest != position else { return }
        unlink(position)
        older[position] = newest
        newer[position] = -1
        if newest >= 0 { newer[newest] = position } else { oldest = position }
        newest = position
    }

    /// Takes the value at `position` out of the recency order (it is not evicted meanwhile).
    mutating func unlink(_ position: Int) {
        guard tracksRecency, older[position] != -2 else { return }
        let (before, after) = (older[position], newer[position])
        if before >= 0 { newer[before] = after } else { oldest = after }
        if after >= 0 { older[after] = before } else { newest = before }
        older[position] = -2
        newer[position] = -2
    }

    /// The keys in the recency order, least recently used first (for tests).
    func keysByRecency() -> [String] {
        var keys: [String] = []
        var position = oldest
        while position >= 0 {
            keys.append(self.keys[position])
            position = newer[position]
        }
        return keys
    }

    /// The stored keys for which `isIncluded` is true, in no particular order (a sweep: for
    /// invalidations, never for reads).
    func keys(where isIncluded: (String) -> Bool) -> [String] {
        var found: [String] = []
        for position in keys.indices where results[position] != nil && isIncluded(keys[position]) {
            found.append(keys[position])
        }
        return found
    }

    /// The key at a stored position.
    func key(at position: Int) -> String { keys[position] }

    /// Where a key is, or would go: valid until the table is next changed.
    struct Probe {
        let hash: Int
        fileprivate let slot: Int
        /// The key's position, when it is stored.
        let position: Int?
    }

    /// Looks `key` up once, for reading or changing what is there without a second lookup.
    func probe(_ key: String) -> Probe {
        if let known = recentProbe(of: key) { return known }
        return probe(key, hash: key.hashValue)
    }

    /// `probe(_:)` with the key's hash computed already.
    func probe(_ key: String, hash: Int) -> Probe {
        if let known = recentProbe(of: key) { return known }
        let found = find(key, hash: hash)
        return Probe(hash: hash, slot: found.slot, position: found.position)
    }

    /// Where a key is: its position and its slot in the index, as a probe found or an insert
    /// left it. A later probe told to look there first checks that the key is still there.
    struct Place: Sendable {
        let position: Int
        let slot: Int
    }

    /// Where the key found or stored last is.
    var recentPlace: Place {
        Place(position: recent.position, slot: recent.slot)
    }

    /// `probe(_:hash:)`, looking first at `place`, where the key was: one comparison of the key
    /// instead of a walk of the index, while nothing moved it (a rebuild, a removal).
    func probe(_ key: String, hash: Int, near place: Place) -> Probe {
        if let known = probe(of: key, at: place.position, slot: place.slot, hash: hash) { return known }
        return probe(key, hash: hash)
    }

    /// Makes the key `probe` found the one the next probe checks first.
    mutating func remember(_ probe: Probe) {
        guard let position = probe.position else { return }
        recent = (position, probe.slot, probe.hash)
    }

    /// The probe of `key` when it is the key remembered last and still stored where it was.
    @inline(__always)
    private func recentProbe(of key: String) -> Probe? {
        let (position, slot, hash) = recent
        return probe(of: key, at: position, slot: slot, hash: hash)
    }

    /// The probe of `key` when it is stored at `position`, indexed at `slot`.
    @inline(__always)
    private func probe(of key: String, at position: Int, slot: Int, hash: Int) -> Probe? {
        guard position >= 0, position < keys.count, slot >= 0, slot < slots.count,
            slots[slot] & 0xFFFF_FFFF == UInt64(position + 1),
            keys[position] == key
        else { return nil }
        return Probe(hash: hash, slot: slot, position: position)
    }

    /// The value at a position a probe found.
    subscript(position position: Int) -> Value {
        // Read and changed in place: a value is an enum holding a run's bookkeeping, which a
        // copy would retain piece by piece.
        _read { yield results[position]! }
        _modify { yield &results[position]! }
    }

    /// Stores `value` under `key`, which `probe` found missing; returns its position.
    @discardableResult
    mutating func insert(_ key: String, _ value: Value, at probe: Probe) -> Int {
        insert(key, value, hash: probe.hash, at: probe.slot)
    }

    /// Removes the key `probe` found.
    mutating func remove(at probe: Probe) {
        guard let position = probe.position else { return }
        unlink(position)
        slots[probe.slot] = Self.tombstone
        keys[position] = ""
        results[position] = nil
        count -= 1
        tombstones += 1
        holes += 1
        if holes > 64 && holes > count { rebuild(slotCount: slots.count) }
    }

    /// Removes every value for which `shouldRemove` is true.
    mutating func removeAll(where shouldRemove: (Value) -> Bool) {
        // The keys first: removing may compact the arrays, which renumbers positions.
        var doomed: [String] = []
        for position in results.indices {
            if let value = results[position], shouldRemove(value) { doomed.append(keys[position]) }
        }
        for key in doomed { removeValue(forKey: key) }
    }

    subscript(key: String) -> Value? {
        get {
            guard let position = find(key, hash: key.hashValue).position else { return nil }
            return results[position]
        }
        set {
            guard let newValue else {
                removeValue(forKey: key)
                return
            }
            let hash = key.hashValue
            let found = find(key, hash: hash)
            if let position = found.position {
                results[position] = newValue
                return
            }
            insert(key, newValue, hash: hash, at: found.slot)
        }
    }

    mutating func removeValue(forKey key: String) {
        remove(at: probe(key))
    }

    mutating func removeAll() {
        let tracksRecency = tracksRecency
        self = ResultTable()
        self.tracksRecency = tracksRecency
    }

    /// Changes every value in place.
    mutating func updateAll(_ change: (inout Value) -> Void) {
        for position in results.indices where results[position] != nil {
            change(&results[position]!)
        }
    }

    // MARK: Index

    /// The position of `key`, if stored, and the slot where it is or would go (the first
    /// tombstone met, else the empty slot that ended the probe).
    private func find(_ key: String, hash: Int) -> (slot: Int, position: Int?) {
        guard !slots.isEmpty else { return (0, nil) }
        let mask = slots.count - 1
        let fingerprint = UInt64(truncatingIfNeeded: UInt(bitPattern: hash) >> 32)
        var index = hash & mask
        var firstTombstone = -1
        while true {
            let slot = slots[index]
            if slot == 0 { return (firstTombstone >= 0 ? firstTombstone : index, nil) }
            if slot == Self.tombstone {
                if firstTombstone < 0 { firstTombstone = index }
            } else if slot >> 32 == fingerprint {
                let position = Int(slot & 0xFFFF_FFFF) - 1
                if keys[position] == key { return (index, position) }
            }
            index = (index + 1) & mask
        }
    }

    @discardableResult
    private mutating func insert(_ key: String, _ entry: Value, hash: Int, at slot: Int) -> Int {
        // Keep the load at three quarters at most, tombstones counted: probes stay short.
        if slots.isEmpty || (count + tombstones + 1) * 4 > slots.count * 3 {
            rebuild(slotCount: Self.slotCount(for: (count + 1) * 2))
            return insert(key, entry, hash: hash, at: find(key, hash: hash).slot)
        }
        let position = keys.count
        precondition(position < Int(UInt32.max) - 1, "a QueryCache cannot hold more than 2^32 - 2 results")
        keys.append(key)
        results.append(entry)
        if tracksRecency {
            newer.append(-2)
            older.append(-2)
        }
        if slots[slot] == Self.tombstone { tombstones -= 1 }
        slots[slot] = Self.word(hash: hash, position: position)
        count += 1
        recent = (position, slot, hash)
        return position
    }

    /// Makes an index of `slotCount` slots (a power of two), dropping removed positions.
    private mutating func rebuild(slotCount: Int) {
        if holes > 0 {
            var keptKeys: [String] = []
            var keptResults: [Value?] = []
            keptKeys.reserveCapacity(max(count, keys.capacity))
            keptResults.reserveCapacity(max(count, results.capacity))
            // Where each kept position goes, for the recency order to follow it.
            var moved = tracksRecency ? [Int](repeating: -1, count: keys.count) : []
            for position in keys.indices where results[position] != nil {
                if tracksRecency { moved[position] = keptKeys.count }
                keptKeys.append(keys[position])
                keptResults.append(results[position])
            }
            if tracksRecency {
                var keptNewer = [Int](repeating: -2, count: keptKeys.count)
                var keptOlder = [Int](repeating: -2, count: keptKeys.count)
                for position in keys.indices where moved[position] >= 0 && older[position] != -2 {
                    keptNewer[moved[position]] = newer[position] >= 0 ? moved[newer[position]] : -1
                    keptOlder[moved[position]] = older[position] >= 0 ? moved[older[position]] : -1
                }
                newer = keptNewer
                older = keptOlder
                oldest = oldest >= 0 ? moved[oldest] : -1
                newest = newest >= 0 ? moved[newest] : -1
            }
            keys = keptKeys
            results = keptResults
            holes = 0
        }
        slots = Array(repeating: 0, count: slotCount)
        tombstones = 0
        recent = (-1, 0, 0)
        let mask = slotCount - 1
        for position in keys.indices {
            let hash = keys[position].hashValue
            var index = hash & mask
            while slots[index] != 0 { index = (index + 1) & mask }
            slots[index] = Self.word(hash: hash, position: position)
        }
    }

    @inline(__always)
    private static func word(hash: Int, position: Int) -> UInt64 {
        (UInt64(truncatingIfNeeded: UInt(bitPattern: hash) >> 32) << 32) | UInt64(position + 1)
    }

    /// The smallest power of two of slots that holds `count` keys at three quarters load.
    private static func slotCount(for count: Int) -> Int {
        var slots = 16
        while slots / 4 * 3 < count { slots *= 2 }
        return slots
    }
}
