/// Hears of each retry of a query run under a ``RetryPolicy``: the attempt to come (from 2) and
/// the most there will be. Bound as a task-local around a render, so that the runs its queries
/// make (each ``RetryRun`` reads it when made, in the render's task) report to it; nothing else
/// of a render knows of attempts, which happen inside the query's task.
final class RetryListener: Sendable {
    @TaskLocal static var current: RetryListener?

    let willRetry: @Sendable (_ key: String, _ attempt: Int, _ maxAttempts: Int) -> Void

    init(_ willRetry: @escaping @Sendable (_ key: String, _ attempt: Int, _ maxAttempts: Int) -> Void) {
        self.willRetry = willRetry
    }
}
