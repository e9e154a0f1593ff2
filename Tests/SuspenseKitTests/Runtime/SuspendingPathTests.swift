import Foundation
import Testing

@testable import SuspenseKit

// The parts of the suspending path made cheaper for benchmark 6: promises known by their type's
// identity, a run's renders kept inline, stack bounds kept per thread.

private struct NotAPromise: Error {}
private struct Wrapper<T>: Error {}

/// Reads `key` with a value of its own type; its query suspends, so it throws a `Promise<Value>`.
private struct Reads<Value: Sendable & CustomStringConvertible>: Component {
    let key: String
    let value: Value
    init(key: String, value: Value, made: Counter) throws {
        made.increment()
        self.key = key
        self.value = try resolveValue(key: key) {
            await Task.yield()
            return value
        }
    }
    var body: some Component { Element("li") { Text("\(key)=\(value)") } }
}

@Suite struct SuspendingPathTests {
    @Test func promisesOfEveryTypeAreKnownFirstAndAfterwards() throws {
        var types = PromiseTypes()
        let errors: [any Error] = [
            Promise<Int>.pending(key: "a") { 1 },
            Promise<String>.pending { "b" },
            Promise<[Int]>.pending(key: "c") { [] },
            Promise<Int>.pending(key: "d") { 2 },
        ]
        // Twice over: the first time by the cast, the second by the known type.
        for round in 0..<2 {
            for (index, error) in errors.enumerated() {
                let found = types.promise(in: error)
                let promise = try #require(found, "round \(round), error \(index)")
                #expect(promise.key == ["a", nil, "c", "d"][index])
                #expect(
                    promise.valueTypeName
                        == ["Promise<Int>", "Promise<String>", "Promise<Array<Int>>", "Promise<Int>"][index])
            }
        }
        // Other errors are not promises, before and after promise types are known, whether or
        // not they are generic.
        let others = [
            types.promise(in: NotAPromise()), types.promise(in: Wrapper<Int>()), types.promise(in: TestFailure("x")),
        ]
        #expect(others.allSatisfy { $0 == nil })
    }

    /// The resolver keeps a thrown promise as its key, its type and the error itself
    /// (`ThrownPromise`), and opens it as a promise only to run it: that is the query it threw.
    @Test func aKeptPromiseRunsTheQueryItWasThrownWith() async throws {
        var types = PromiseTypes()
        for round in 0..<2 {
            let foundKeyed = types.promise(in: Promise<Int>.pending(key: "n") { 40 + round })
            let keyed = try #require(foundKeyed)
            #expect(keyed.key == "n")
            #expect(ObjectIdentifier(keyed.valueType) == ObjectIdentifier(Int.self))
            let value = try await keyed.promise.run()
            #expect(value as? Int == 40 + round)
            let foundKeyless = types.promise(in: Promise<String>.pending { "s\(round)" })
            let keyless = try #require(foundKeyless)
            #expect(keyless.key == nil)
            #expect(keyless.valueTypeName == "Promise<String>")
            let text = try await keyless.promise.run()
            #expect(text as? String == "s\(round)")
        }
    }

    @Test func moreTypesThanKeptAreStillKnownByTheCast() throws {
        var types = PromiseTypes()
        func check<Value: Sendable>(_ value: Value) throws {
            let found = types.promise(in: Promise<Value>.pending(key: "\(value)") { value })
            let promise = try #require(found)
            #expect(promise.key == "\(value)")
        }
        for _ in 0..<2 {
            try check(1)
            try check("s")
            try check(1.5)
            try check(Int8(1))
            try check(Int16(2))
            try check(Int32(3))
            try check(Int64(4))
            try check(UInt8(5))
            try check(UInt16(6))
            try check(UInt32(7))
            try check([1])
        }
        let other = types.promise(in: NotAPromise())
        #expect(other == nil)
    }

    @Test func aRenderSuspendingOnManyPromiseTypesResolvesEachOne() async throws {
        // Eleven value types in one render, more than the resolver keeps by identity, mixed with
        // an error that is not a promise: each promise suspends its own component, the error
        // reaches the boundary.
        let made = Counter()
        let page = Suspense {
            Element("ul") {
                try Reads(key: "int", value: 1, made: made)
                try Reads(key: "string", value: "two", made: made)
                try Reads(key: "double", value: 3.5, made: made)
                try Reads(key: "int8", value: Int8(4), made: made)
                try Reads(key: "int16", value: Int16(5), made: made)
                try Reads(key: "int32", value: Int32(6), made: made)
                try Reads(key: "int64", value: Int64(7), made: made)
                try Reads(key: "uint8", value: UInt8(8), made: made)
                try Reads(key: "uint16", value: UInt16(9), made: made)
                try Reads(key: "uint32", value: UInt32(10), made: made)
                try Reads(key: "array", value: [11], made: made)
                ErrorBoundary {
                    try Failing("plain", message: "not a promise")
                } fallback: { error in
                    Element("li") { Text("caught: \(error)") }
                }
            }
        } fallback: {
            Text("loading")
        }
        let output = try await render(page, as: .html)
        #expect(
            output == "<ul>"
                + [
                    "int=1", "string=two", "double=3.5", "int8=4", "int16=5", "int32=6", "int64=7", "uint8=8",
                    "uint16=9", "uint32=10", "array=[11]", "caught: not a promise",
                ].map { "<li>\($0)</li>" }.joined() + "</ul>")
        // Each one suspended (its query yields) and was made again.
        #expect(made.value == 22)
    }

    /// Reads "k"; its query answers once `gate` is open.
    private struct GatedRead: Component {
        let value: Int
        init(gate: Counter, made: Counter) throws {
            made.increment()
            value = try resolveValue(key: "k") {
                try await waitUntil("the gate to open") { gate.value > 0 }
                return 7
            }
        }
        var body: some Component { Element("li") { Text("k=\(value)") } }
    }

    /// Opens `gate` as it is made: after the readers before it read.
    private struct OpensGate: Component {
        init(_ gate: Counter) { gate.increment() }
        var body: some Component { EmptyComponent() }
    }

    /// Components evaluated again once their key's value arrived read it as it was delivered,
    /// not back from the cache, and each read counts as the read it stands for: a hit where
    /// the cache serves the render, none where the render keeps what it was delivered.
    @Test func componentsMadeAgainReadTheDeliveredValueCountedAsBefore() async throws {
        // The query answers only after all three read it: the first starts it, the others find
        // it running (no hit), whatever the timing.
        func page(_ made: Counter) -> some Component {
            let gate = Counter()
            return Suspense {
                Element("ul") {
                    try GatedRead(gate: gate, made: made)
                    try GatedRead(gate: gate, made: made)
                    try GatedRead(gate: gate, made: made)
                    OpensGate(gate)
                }
            } fallback: {
                Text("loading")
            }
        }
        let expected = "<ul><li>k=7</li><li>k=7</li><li>k=7</li></ul>"
        // Kept nowhere but in the table: the three reads after the value arrived are hits.
        let table = QueryCache(capacity: nil, failures: .keep)
        let made = Counter()
        #expect(try await render(page(made), as: .html, cache: table) == expected)
        #expect(made.value == 6)
        #expect(table.statistics.misses == 1)
        #expect(table.statistics.hits == 3)
        // A cache that can forget (a capacity): the render keeps what it was delivered, and
        // reading it there is not a hit in the cache.
        let bounded = QueryCache()
        #expect(try await render(page(Counter()), as: .html, cache: bounded) == expected)
        #expect(bounded.statistics.misses == 1)
        #expect(bounded.statistics.hits == 0)
        // A later render finds the value stored: one hit per read, as before.
        #expect(try await render(page(Counter()), as: .html, cache: table) == expected)
        #expect(table.statistics.hits == 6)
    }

    private struct Parent: Component {
        let made: Counter
        var body: some Component {
            ForEach(0..<3) { index in try Reads(key: "shared-path/\(index)", value: index, made: made) }
        }
    }

    /// Reads "k"; its query counts its runs and answers after one yield.
    private struct CountedRead: Component {
        let value: Int
        init(runs: Counter) throws {
            value = try resolveValue(key: "k") {
                runs.increment()
                await Task.yield()
                return 7
            }
        }
        var body: some Component { Element("li") { Text("k=\(value)") } }
    }

    /// Removes "k" from `cache` as it is made.
    private struct RemovesKey: Component {
        init(_ cache: QueryCache) { cache.removeValue(for: "k") }
        var body: some Component { EmptyComponent() }
    }

    /// A key a render started and has not applied yet is what its components suspend on, even
    /// once the cache forgot it (removed, or expired): a render runs a key once.
    @Test(arguments: [false, true])
    func aKeyTheRenderAwaitsIsNotRunAgainWhenTheCacheForgetsIt(withLifetime: Bool) async throws {
        let cache = withLifetime ? QueryCache(lifetime: .seconds(3600)) : QueryCache()
        let runs = Counter()
        let page = Suspense {
            Element("ul") {
                try CountedRead(runs: runs)
                RemovesKey(cache)
                try CountedRead(runs: runs)
            }
        } fallback: {
            Text("loading")
        }
        #expect(try await render(page, as: .html, cache: cache) == "<ul><li>k=7</li><li>k=7</li></ul>")
        #expect(runs.value == 1)
    }

    /// A component reading a key its render awaits (started, not applied yet) suspends on that
    /// run without looking in the cache, where the value may be stored already: no hit counted,
    /// whatever the timing. Another key is read in the cache as before.
    @Test func aKeyTheRenderAwaitsIsNotLookedUp() throws {
        let cache = QueryCache()
        cache.store("stored", for: "k")
        cache.store("other", for: "o")
        let mailbox = QueryMailbox()
        mailbox.noteAwaiting("k")
        let scope = RenderScope(cache: cache, mailbox: mailbox, clock: RenderClock(ContinuousClock()))
        let awaited: Result<String, any Error> = RenderScope.bind(scope) {
            Result { try resolveValue(key: "k") { "run" } }
        }
        #expect(throws: Promise<String>.self) { try awaited.get() }
        #expect(cache.statistics.hits == 0)
        let other = RenderScope.bind(scope) { try? resolveValue(key: "o") { "run" } }
        #expect(other == "other")
        #expect(cache.statistics.hits == 1)
    }

    /// Reads its key from `values`, a stand-in for the cache; suspends while it is missing.
    private struct Keyed: Component {
        let text: String
        init(_ index: Int, key: String, values: Locked<[String: String]>, log: Locked<[Int]>) throws {
            guard let value = values.withLock({ $0[key] }) else {
                throw Promise<String>.pending(key: key) { "" }
            }
            log.withLock { $0.append(index) }
            text = value
        }
        var body: some Component { Text(text) }
    }

    /// Results applied together evaluate their slots again in the order the slots suspended (the
    /// document's), not result by result: the new nodes follow one another as in the tree.
    @Test func resultsAppliedTogetherEvaluateTheirSlotsInDocumentOrder() {
        let resolver = _Resolver(cache: QueryCache(), options: RenderOptions())
        let values = Locked<[String: String]>([:])
        let log = Locked<[Int]>([])
        resolver.evaluateRoot {
            Suspense {
                ForEach(0..<9) { index in try Keyed(index, key: "k\(index % 3)", values: values, log: log) }
            } fallback: {
                Text("loading")
            }
        }
        #expect(resolver.records.slots.count == 9 && log.withLock { $0 }.isEmpty)
        // Started, as the render loop would (by nobody here).
        #expect(resolver.waits.takeDiscovered().map { resolver.waits.label(of: $0.id) } == ["k0", "k1", "k2"])
        values.withLock { $0 = ["k0": "0", "k1": "1", "k2": "2"] }
        // The results in another order than the slots': k2's slots come last in the document.
        resolver.apply([(.key("k2"), .success("2")), (.key("k0"), .success("0")), (.key("k1"), .success("1"))])
        #expect(log.withLock { $0 } == Array(0..<9))
        #expect(resolver.records.slots.allSatisfy { !$0.isPending })
        #expect(resolver.waits.activeWaiters == 0)
    }

    /// A component leaving takes its name off the path, whether a child sealed it into a link
    /// since or not; copies made meanwhile keep it.
    @Test func aPathTakesOffItsLastNameSealedOrNot() {
        var table = PathTable()
        var path = ComponentPath()
        let (a, b, c): (Int32, Int32, Int32) = (0, 1, 2)
        table.append(a, to: &path)
        table.append(b, to: &path)
        table.removeLast(from: &path)
        #expect(table.names(of: path) == [a])
        table.append(c, to: &path)
        table.seal(&path)
        let copy = path
        table.removeLast(from: &path)
        #expect(table.names(of: path) == [a])
        #expect(table.names(of: copy) == [a, c])
        #expect(table.lastName(of: copy) == c)
        table.removeLast(from: &path)
        #expect(table.names(of: path).isEmpty)
        #expect(table.lastName(of: path) == nil)
    }

    @Test func theSlotsOfOneParentShareItsPath() throws {
        let resolver = _Resolver(cache: QueryCache(), options: RenderOptions())
        let made = Counter()
        resolver.evaluateRoot {
            Suspense {
                Parent(made: made)
            } fallback: {
                Text("loading")
            }
        }
        let slots = resolver.records.slots
        #expect(slots.count == 3 && made.value == 3)
        // One link for the parent's name, shared: each slot's copy of an unsealed path made a
        // link of its own when the slot was evaluated again.
        let first = try #require(slots.first).context.path
        #expect(resolver.names(of: first).last == "Parent")
        #expect(slots.allSatisfy { $0.context.path.sharesLink(with: first) })
    }

    @Test func aRunKeepsItsRendersInlineAndInATable() {
        let (a, b, c) = (QueryMailbox(), QueryMailbox(), QueryMailbox())
        var renders = Subscribers()
        #expect(renders.isEmpty && renders.count == 0)
        renders.insert(a)
        renders.insert(a)
        #expect(renders.count == 1 && renders.contains(a) && !renders.contains(b))
        renders.insert(b)
        renders.insert(c)
        #expect(renders.count == 3 && renders.contains(b) && renders.contains(c))
        // The first one leaves: another takes its place, none is lost.
        renders.remove(a)
        #expect(renders.count == 2 && !renders.contains(a) && renders.contains(b) && renders.contains(c))
        var visited: [ObjectIdentifier] = []
        renders.forEach { visited.append(ObjectIdentifier($0)) }
        #expect(Set(visited) == [ObjectIdentifier(b), ObjectIdentifier(c)] && visited.count == 2)
        renders.remove(a)
        renders.remove(c)
        renders.remove(b)
        #expect(renders.isEmpty && renders.count == 0)
        renders.insert(c)
        #expect(renders.count == 1 && renders.contains(c))
    }
}
