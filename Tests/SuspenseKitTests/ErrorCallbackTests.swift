import Testing

@testable import SuspenseKit

private struct NetworkError: Error, CustomStringConvertible {
    var description: String { "offline" }
}

/// One line per report: who caught what, thrown where.
private func entry(_ failure: CaughtError) -> String {
    "\(failure.boundary) \(failure.path.joined(separator: " > ")): \(failure.error)"
}

/// Options whose hooks log into `caught` and `uncaught`.
private func logging(caught: Log, uncaught: Log) -> RenderOptions {
    RenderOptions()
        .onCaughtError { caught.append(entry($0)) }
        .onUncaughtError { uncaught.append("\($0)") }
}

@Suite struct ErrorCallbackTests {
    @Test func onErrorIsCalledOnceWithTheErrorItsPathAndTheBoundary() async throws {
        let log = Log()
        struct Page: Component {
            let log: Log
            var body: some Component {
                Element("main") {
                    Text("before")
                    ErrorBoundary {
                        Suspense {
                            try Throwing(TestFailure("boom"))
                        } fallback: {
                            Text("…")
                        }
                    } fallback: { _ in
                        Text("failed")
                    }
                    .onError { failure in
                        log.append(entry(failure))
                        log.append("\(type(of: failure.error))")
                    }
                }
            }
        }
        #expect(try await html(Page(log: log)) == "<main>beforefailed</main>")
        #expect(log.all == ["0.1 Page > ErrorBoundary > Suspense > Throwing: boom", "TestFailure"])
    }

    @Test func onErrorReportsAFailureThatArrivesLater() async throws {
        let log = Log()
        let page = ErrorBoundary {
            Suspense {
                try Loaded("a")
                try Failing("b", message: "b failed")
                try Failing("b", message: "b failed")
            } fallback: {
                Text("Loading…")
            }
        }
        .onError { log.append(entry($0)) }
        #expect(try await render(page, as: .plain) == "b failed")
        #expect(log.all == ["0 ErrorBoundary > Suspense > Failing: b failed"])
    }

    @Test func aCaughtErrorDescribesTheBoundaryThePathAndTheError() async throws {
        struct Offline: PresentableError {
            var title: String { "Offline" }
            var message: String { "The feed cannot be reached." }
        }
        let log = Log()
        let page = Group {
            Text("first")
            ErrorBoundary { try Throwing(Offline()) }.onError { log.append("\($0)") }
        }
        _ = try await html(page)
        #expect(
            log.all == ["ErrorBoundary #1 caught in ErrorBoundary > Throwing: Offline: The feed cannot be reached."])
    }

    @Test func everyOnErrorHandlerOfABoundaryIsCalledInOrder() async throws {
        let log = Log()
        let page = ErrorBoundary { try Throwing(TestFailure("x")) }
            .onError { _ in log.append("first") }
            .onError { _ in log.append("second") }
        _ = try await html(page)
        #expect(log.all == ["first", "second"])
    }

    @Test func nothingIsReportedWhenNothingFails() async throws {
        let caught = Log()
        let uncaught = Log()
        let page = ErrorBoundary { try Loaded("a") }.onError { caught.append(entry($0)) }
        _ = try await render(page, options: logging(caught: caught, uncaught: uncaught))
        #expect(caught.all.isEmpty)
        #expect(uncaught.all.isEmpty)
    }

    @Test func theRenderWideHookReportsEachCaughtFailureOnceAfterTheBoundarysOwn() async throws {
        let caught = Log()
        let uncaught = Log()
        let boundaries = Log()
        let page = Group {
            ErrorBoundary { try Throwing(TestFailure("first pass")) }
                .onError { boundaries.append(entry($0)) }
            ErrorBoundary {
                Suspense { try Failing("late", message: "later") }
            }
            ErrorBoundary { try Loaded("fine") }
        }
        let output = try await render(page, as: .plain, options: logging(caught: caught, uncaught: uncaught))
        #expect(output == "first passlaterfine")
        #expect(boundaries.all == ["0 ErrorBoundary > Throwing: first pass"])
        #expect(
            caught.all == [
                "0 ErrorBoundary > Throwing: first pass",
                "1 ErrorBoundary > Suspense > Failing: later",
            ])
        #expect(uncaught.all.isEmpty)
    }

    @Test func aFailureCaughtByAnInnerBoundaryIsNotReportedByAnOuterOne() async throws {
        let caught = Log()
        let outer = Log()
        let page = ErrorBoundary {
            Suspense {
                ErrorBoundary { try Failing("late", message: "late") }
                ErrorBoundary { try Throwing(TestFailure("now")) }
            }
        }
        .onError { outer.append(entry($0)) }
        _ = try await render(page, options: logging(caught: caught, uncaught: Log()))
        #expect(outer.all.isEmpty)
        #expect(
            caught.all == [
                "0.0.1 ErrorBoundary > Suspense > ErrorBoundary > Throwing: now",
                "0.0.0 ErrorBoundary > Suspense > ErrorBoundary > Failing: late",
            ])
    }

    @Test func anErrorATypedBoundaryLetsThroughIsReportedOnlyWhereItIsCaught() async throws {
        let caught = Log()
        let typed = Log()
        let outer = Log()
        let page = ErrorBoundary {
            ErrorBoundary(catching: NetworkError.self) {
                Suspense { try Failing("late", message: "not a network error") }
            }
            .onError { typed.append(entry($0)) }
        }
        .onError { outer.append(entry($0)) }
        _ = try await render(page, options: logging(caught: caught, uncaught: Log()))
        #expect(typed.all.isEmpty)
        #expect(outer.all == ["0 ErrorBoundary > ErrorBoundary > Suspense > Failing: not a network error"])
        #expect(caught.all == outer.all)
    }

    @Test func aFallbackThatThrowsIsASecondFailureReportedAtTheNextBoundary() async throws {
        func page(_ inner: Log, _ outer: Log, late: Bool) -> some Component {
            ErrorBoundary {
                ErrorBoundary {
                    if late {
                        Suspense { try Failing("late", message: "first") }
                    } else {
                        try Throwing(TestFailure("first"))
                    }
                } fallback: { error in
                    try Throwing(TestFailure("second, after \(error)"))
                }
                .onError { inner.append(entry($0)) }
            } fallback: { error in
                Text("outer: \(error)")
            }
            .onError { outer.append(entry($0)) }
        }
        for late in [false, true] {
            let (inner, outer, caught) = (Log(), Log(), Log())
            let options = logging(caught: caught, uncaught: Log())
            #expect(try await render(page(inner, outer, late: late), options: options) == "outer: second, after first")
            let thrower = late ? "Suspense > Failing" : "Throwing"
            #expect(inner.all == ["0.0 ErrorBoundary > ErrorBoundary > \(thrower): first"])
            #expect(outer.all == ["0 ErrorBoundary > ErrorBoundary > Throwing: second, after first"])
            #expect(caught.all == inner.all + outer.all)
        }
    }

    @Test func anUncaughtErrorIsReportedOnceThenTheRenderThrows() async throws {
        for late in [false, true] {
            let caught = Log()
            let uncaught = Log()
            let page = Element("main") {
                if late {
                    Suspense { try Failing("late", message: "nobody catches this") }
                } else {
                    try Throwing(TestFailure("nobody catches this"))
                }
            }
            let options = logging(caught: caught, uncaught: uncaught)
            await #expect(throws: RenderError.self) { try await render(page, options: options) }
            let path = late ? "Suspense > Failing" : "Throwing"
            #expect(uncaught.all == ["uncaught error in \(path): nobody catches this"])
            #expect(caught.all.isEmpty)
        }
    }

    @Test func aFallbackErrorNoBoundaryCatchesIsReportedAsUncaughtAfterTheCaughtOne() async throws {
        let caught = Log()
        let uncaught = Log()
        let page = ErrorBoundary {
            try Throwing(TestFailure("first"))
        } fallback: { _ in
            try Throwing(TestFailure("second"))
        }
        let options = logging(caught: caught, uncaught: uncaught)
        await #expect(throws: RenderError.self) { try await render(page, options: options) }
        #expect(caught.all == ["0 ErrorBoundary > Throwing: first"])
        #expect(uncaught.all == ["uncaught error in ErrorBoundary > Throwing: second"])
    }

    @Test func aBoundaryEvaluatedAgainDoesNotReportAnOldFailureAgain() async throws {
        // A typed Suspense evaluates its content again from scratch with its value: the boundary
        // inside it catches the same error at the same place a second time.
        let caught = Log()
        let boundary = Log()
        let evaluations = Counter()
        let page = Suspense { (user: Fixtures.Loaded?) in
            ErrorBoundary {
                try Throwing(TestFailure("failed \(evaluations.increment() > 0 ? "again" : "")"))
            }
            .onError { boundary.append(entry($0)) }
            try Fixtures.Typed(user: user)
        }
        let output = try await render(page, as: .plain, options: logging(caught: caught, uncaught: Log()))
        #expect(output == "failed againtyped")
        #expect(evaluations.value == 2)
        #expect(boundary.all == ["0.0 Suspense > ErrorBoundary > Throwing: failed again"])
        #expect(caught.all == boundary.all)
    }

    @Test func anOuterBoundaryCatchingLaterDoesNotReportTheInnerBoundarysFailure() async throws {
        let caught = Log()
        let page = ErrorBoundary {
            Suspense {
                ErrorBoundary { try Throwing(TestFailure("inner")) }
                try Failing("late", message: "outer")
            }
        }
        _ = try await render(page, options: logging(caught: caught, uncaught: Log()))
        #expect(
            caught.all == [
                "0.0.0 ErrorBoundary > Suspense > ErrorBoundary > Throwing: inner",
                "0 ErrorBoundary > Suspense > Failing: outer",
            ])
    }

    @Test func theHooksRunOnTheRendersOwnTask() async throws {
        let tasks = Log()
        let options = RenderOptions()
            .onCaughtError { _ in tasks.append(currentTask()) }
            .onUncaughtError { _ in tasks.append(currentTask()) }
        let page = ErrorBoundary {
            Suspense { try Failing("late", message: "late") }
        } fallback: { _ in
            try Throwing(TestFailure("fallback"))
        }
        await #expect(throws: RenderError.self) { try await render(page, options: options) }
        let mine = currentTask()
        #expect(tasks.all == [mine, mine])
    }
}

/// The task running the caller, as a string to compare.
private func currentTask() -> String {
    withUnsafeCurrentTask { task in task.map { "task \($0.hashValue)" } ?? "no task" }
}
