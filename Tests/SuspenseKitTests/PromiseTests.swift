import SuspenseKit
import Testing

/// What a `Promise` says when it reaches user code: what it waits for, what went wrong, and how
/// to fix it.
@Suite struct PromiseTests {
    struct UserCard: Component {
        let name: String
        init(id: Int) throws {
            name = try resolveValue(key: "user/\(id)") { "Ann" }
        }
        var body: some Component { Text(name) }
    }

    static let advice =
        "a component suspended outside a render, or its Promise was caught (try? / catch). "
        + "Let it propagate to a Suspense, and make the component inside SuspenseKit's render(…), "
        + "as the root or in a body."

    @Test func aKeyedPromiseNamesItsValueTypeAndKeyAndSaysHowToLetItSuspend() {
        let promise = Promise<String>.pending(key: "user/1") { "Ann" }
        #expect("\(promise)" == "Promise<String> for key \"user/1\": " + Self.advice)
        #expect(String(reflecting: promise) == "\(promise)")
    }

    @Test func aKeylessPromiseSaysItHasNoKey() {
        let promise = Promise<Int>.pending { 1 }
        #expect("\(promise)" == "Promise<Int> without a key: " + Self.advice)
    }

    @Test func aComponentMadeOutsideARenderThrowsAPromiseThatExplainsItself() {
        do {
            let card = try UserCard(id: 1)
            Issue.record("expected a promise, made \(card)")
        } catch {
            #expect("\(error)" == "Promise<String> for key \"user/1\": " + Self.advice)
        }
    }
}
