// Where the render report's collector meets the rest of the render: causes and modes it names,
// and the hooks the resolver and the query path call.

extension RenderReport.Cause {
    init(_ cause: PassCause) {
        switch cause {
        case .firstPass: self = .firstPass
        case .result(let key): self = .result(of: key)
        case .retry(let id): self = .retry(of: id)
        case .timeout(let id): self = .timeout(of: id)
        case .recheck(let id): self = .recheck(of: id)
        case .deadline: self = .deadline
        }
    }
}

extension RenderMode {
    /// Whether the render streams HTML (its shell is sent before the rest).
    var isStream: Bool { passTrees || !finalTree }
}

extension _Resolver {
    /// Tells the collector that `slot` began waiting on its query, in its Suspense.
    func noteWait(_ slot: SlotIndex, previous: String?, to collector: ReportCollector) {
        let owner = records.slots[slot].context.suspense
        let record = records.suspenses[owner]
        collector.waited(
            on: records.slots[slot].queryLabel, component: records.slots[slot].component, boundary: record.id,
            isRoot: record.isRoot, path: record.outer.map { names(of: $0.path, appending: "Suspense") } ?? [],
            previous: previous,
            shellSent: changeLog.shellSent)
    }
}

extension ReportCollector {
    /// Reads a key through `read`, noting what it found.
    func observeRead(_ key: String, cache: QueryCache, _ read: () throws -> _QueryRead) throws -> _QueryRead {
        let found: _QueryRead
        do {
            found = try read()
        } catch {
            self.read(key, found: nil, failure: (error as? QueryCache.StoredFailure)?.error ?? error, cache: cache)
            throw error
        }
        self.read(key, found: found, failure: nil, cache: cache)
        return found
    }
}
