import Testing

@testable import SuspenseKit

/// The table a QueryCache keeps its results in agrees with a dictionary under any sequence of
/// stores, replacements and removals, through growth and compaction.
@Suite struct ResultTableTests {
    /// A small deterministic generator, so that a failure is the same on every run.
    private struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    private func value(of entry: QueryCache.Entry?) -> Int? {
        if case .value(let value)? = entry { return value as? Int }
        return nil
    }

    @Test(arguments: [8, 300, 5_000])
    func agreesWithADictionary(keySpace: Int) {
        var table = ResultTable<QueryCache.Entry>()
        var reference: [String: Int] = [:]
        var generator = Generator(state: UInt64(keySpace))
        for step in 0..<20_000 {
            let key = "key/\(generator.next(keySpace))"
            switch generator.next(10) {
            case 0..<6:
                table[key] = .value(step)
                reference[key] = step
            case 6..<9:
                table.removeValue(forKey: key)
                reference[key] = nil
            default:
                table[key] = nil
                reference[key] = nil
            }
            #expect(value(of: table[key]) == reference[key])
        }
        #expect(table.count == reference.count)
        #expect(table.isEmpty == reference.isEmpty)
        for index in 0..<keySpace {
            let key = "key/\(index)"
            #expect(value(of: table[key]) == reference[key], "\(key)")
        }
    }

    @Test func keysWhoseHashesShareTheirLowBitsAreKeptApart() {
        // Thousands of keys in a table of sixteen slots to begin with: probes run long, and
        // every key still finds its own result.
        var table = ResultTable<QueryCache.Entry>()
        for index in 0..<10_000 { table["k\(index)"] = .value(index) }
        for index in stride(from: 0, to: 10_000, by: 2) { table.removeValue(forKey: "k\(index)") }
        for index in 0..<10_000 {
            #expect(value(of: table["k\(index)"]) == (index.isMultiple(of: 2) ? nil : index))
        }
        #expect(table.count == 5_000)
    }

    @Test func reservingMakesRoomOnceAndRemovingAllEmptiesIt() {
        var table = ResultTable<QueryCache.Entry>()
        table.reserveCapacity(5_000)
        #expect(table.capacity >= 5_000)
        table["a"] = .value("kept")
        table.reserveCapacity(10)  // less than there is room for: nothing changes
        #expect(table.capacity >= 5_000)
        if case .value(let value as String)? = table["a"], value == "kept" {
        } else {
            Issue.record("the entry was lost")
        }
        table.removeAll()
        #expect(table.isEmpty)
        #expect(table["a"] == nil)
    }

    /// Probes go through the key remembered last (`remember`, and every insert): through
    /// removals of that key, compactions and growth, a probe still finds what a dictionary has.
    @Test(arguments: [4, 64, 3_000])
    func probesOfTheKeyRememberedLastAgreeWithADictionary(keySpace: Int) {
        var table = ResultTable<QueryCache.Entry>()
        var reference: [String: Int] = [:]
        var generator = Generator(state: UInt64(keySpace) &* 7)
        var last = "key/0"
        for step in 0..<30_000 {
            // Half the time the key read last, as components reading one key do.
            let key = generator.next(2) == 0 ? last : "key/\(generator.next(keySpace))"
            last = key
            let probe = table.probe(key)
            #expect((probe.position != nil) == (reference[key] != nil), "\(key) at step \(step)")
            switch generator.next(10) {
            case 0..<5:
                if let position = probe.position {
                    table[position: position] = .value(step)
                    table.remember(probe)
                } else {
                    table.insert(key, .value(step), at: probe)
                }
                reference[key] = step
            case 5..<8:
                table.remove(at: probe)
                reference[key] = nil
            default:
                if probe.position != nil { table.remember(probe) }
            }
            #expect(value(of: table.probe(key).position.map { table[position: $0] }) == reference[key])
        }
        for index in 0..<keySpace {
            let key = "key/\(index)"
            #expect(value(of: table.probe(key).position.map { table[position: $0] }) == reference[key], "\(key)")
        }
    }

    /// A probe told where a key was (a run's completion, told where its run started) finds what
    /// a dictionary has, however the key moved since: removed, stored again elsewhere, or moved by
    /// a compaction or by growth.
    @Test(arguments: [4, 64, 3_000])
    func probesNearAnOldPlaceAgreeWithADictionary(keySpace: Int) {
        var table = ResultTable<QueryCache.Entry>()
        var reference: [String: Int] = [:]
        var places: [String: ResultTable<QueryCache.Entry>.Place] = [:]
        var generator = Generator(state: UInt64(keySpace) &* 13)
        for step in 0..<30_000 {
            let key = "key/\(generator.next(keySpace))"
            // Probed near the place noted when it was last stored, or near another key's.
            let near = places[key] ?? places.values.first ?? table.recentPlace
            let probe = table.probe(key, hash: key.hashValue, near: near)
            #expect(probe.position == table.probe(key).position, "\(key) at step \(step)")
            #expect((probe.position != nil) == (reference[key] != nil), "\(key) at step \(step)")
            if generator.next(10) < 6 {
                if let position = probe.position {
                    table[position: position] = .value(step)
                } else {
                    table.insert(key, .value(step), at: probe)
                    places[key] = table.recentPlace
                }
                reference[key] = step
            } else {
                table.remove(at: probe)
                reference[key] = nil
            }
        }
        for index in 0..<keySpace {
            let key = "key/\(index)"
            let found = places[key].map { table.probe(key, hash: key.hashValue, near: $0) } ?? table.probe(key)
            #expect(value(of: found.position.map { table[position: $0] }) == reference[key], "\(key)")
        }
    }
}
