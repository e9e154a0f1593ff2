import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A task executor with one thread of a chosen stack size (512 KiB, 1 MiB): renders preferring it
/// evaluate their components on a stack as small as a server's worker thread or an Apple
/// platform's secondary thread. `shutDown()` ends the thread; it releases everything it held.
final class SmallStackExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var isShutDown = false
    private var thread = pthread_t()
    /// Jobs run so far: a test checks the render really ran here.
    private(set) var jobsRun = 0

    init(stackSize: Int) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        precondition(pthread_attr_setstacksize(&attributes, stackSize) == 0)
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(
            &thread, &attributes,
            { context in
                let executor = Unmanaged<SmallStackExecutor>.fromOpaque(context!).takeRetainedValue()
                executor.runJobs()
                return nil
            }, context)
        precondition(status == 0, "could not start the executor's thread")
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        while true {
            condition.lock()
            while jobs.isEmpty && !isShutDown { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            jobsRun += 1
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// Ends the thread once its jobs have run, and waits for it.
    func shutDown() {
        condition.lock()
        isShutDown = true
        condition.signal()
        condition.unlock()
        pthread_join(thread, nil)
    }
}
