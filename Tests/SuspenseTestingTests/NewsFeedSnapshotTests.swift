import SuspenseKit
import SuspenseTesting
import Testing

@testable import NewsFeed

// The NewsFeed example's own components, with fixed outcomes and a test clock: its loading,
// loaded, empty and failed states, the headlines tried again with backoff, sports cut off by its
// timeout, and the French locale. No test runs a query for real or sleeps.
@Suite(.snapshots, .timeLimit(.minutes(3)))
struct NewsFeedSnapshotTests {
    let river = Article(title: "River bursts its banks", summary: "The quays are closed until Thursday.")
    let match = Article(title: "Home side wins", summary: "3–1 after extra time.")

    @Test func loaded() async {
        let outcomes: FixedOutcomes = [
            "headlines/en": .value([river]),
            "sports": .value([match]),
            "saved": .value([river]),
            "opinion": .value([Article(title: "In praise of quays", summary: "A column.")]),
        ]
        // A test clock nobody advances: sports' one-second timeout cannot fire on a slow machine
        // (a sanitizer run under load once took longer than that to deliver a fixed outcome).
        await assertSnapshot(of: NewsFeed(), as: .frames(.plain), outcomes: outcomes, clock: TestClock())
        await assertSnapshot(of: NewsFeed(), as: .html(pretty: true), outcomes: outcomes, clock: TestClock())
    }

    @Test func emptyAndFailed() async {
        // Nothing saved; opinion failed for good with an error that presents itself.
        let outcomes: FixedOutcomes = [
            "headlines/en": .value([river]),
            "sports": .value([match]),
            "saved": .value([Article]()),
            "opinion": .failure(FeedError.sectionRetired("Opinion")),
        ]
        await assertSnapshot(of: NewsFeed(), as: .tree, outcomes: outcomes, clock: TestClock())
    }

    @Test func headlinesTriedAgainWithBackoffThenFailed() async {
        // Headlines fail on every attempt: tried at 0, 200 ms and 600 ms, then the error shows.
        // Each step waits for the backoff to be armed, so the frames are the same on every run.
        let clock = TestClock()
        let outcomes: FixedOutcomes = [
            "headlines/en": .failure(FeedError.offline),
            "sports": .value([match]),
            "saved": .value([Article]()),
            "opinion": .failure(FeedError.sectionRetired("Opinion")),
        ]
        async let snapshot: Void = assertSnapshot(
            of: NewsFeed(), as: .frames(.tree), outcomes: outcomes, clock: clock)
        // Sports' timeout sleeps too until its value arrives: wait for the backoffs by their time.
        await clock.waitForSleeper(dueAt: .milliseconds(200))  // the first backoff
        clock.advance(by: .milliseconds(200))
        await clock.waitForSleeper(dueAt: .milliseconds(600))  // the second backoff
        clock.advance(by: .milliseconds(400))
        await snapshot
    }

    @Test func sportsCutOffByItsTimeout() async {
        // Sports never answers: past its one-second timeout the section says the scores are late.
        let clock = TestClock()
        let outcomes: FixedOutcomes = [
            "headlines/en": .value([river]),
            "sports": .pending,
            "saved": .value([Article]()),
            "opinion": .value([Article(title: "In praise of quays", summary: "A column.")]),
        ]
        async let snapshot: Void = assertSnapshot(of: NewsFeed(), as: .plain, outcomes: outcomes, clock: clock)
        await clock.waitForSleepers(1)  // the sports timeout
        clock.advance(by: .seconds(1))
        await snapshot
    }

    @Test func inFrench() async {
        let outcomes: FixedOutcomes = [
            "headlines/fr": .value([Article(title: "Le fleuve déborde", summary: "Les quais sont fermés.")]),
            "sports": .value([match]),
            "saved": .value([Article]()),
            "opinion": .failure(FeedError.offline),
        ]
        await assertSnapshot(
            of: LocalizedNewsFeed(locale: "fr", service: NewsService()), as: .plain, outcomes: outcomes,
            clock: TestClock())
    }
}
