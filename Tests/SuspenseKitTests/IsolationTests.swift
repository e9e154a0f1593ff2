import Testing

@testable import SuspenseKit

@MainActor private final class MainActorModel {
    var greeting = "hello from the main actor"
}

private struct MainActorView: Component {
    let model: MainActorModel
    let read: @MainActor () -> String
    var body: some Component { Text(MainActorIsolated.read(read)) }
}

private enum MainActorIsolated {
    static func read(_ read: @MainActor () -> String) -> String {
        MainActor.assumeIsolated { read() }
    }
}

@Suite struct IsolationTests {
    @MainActor @Test func rendersFromTheMainActorWithoutSendingComponents() async throws {
        let model = MainActorModel()
        let page = Suspense {
            try Loaded("k")
            MainActorView(model: model, read: { model.greeting })
        }
        #expect(try await render(page, as: .plain) == "khello from the main actor")
    }
}
