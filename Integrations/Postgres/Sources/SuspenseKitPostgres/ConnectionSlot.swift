import Logging
import PostgresNIO
import Synchronization

/// One connection of a store, made when first needed and made again once it has closed (the
/// server restarted, the network failed). Callers that ask while it is being made wait for it.
actor ConnectionSlot {
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private var connection: PostgresConnection?
    private var connecting: Task<PostgresConnection, any Error>?

    init(configuration: PostgresConnection.Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// The open connection, made now if there is none.
    func connection() async throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        if let connecting { return try await connecting.value }
        let (configuration, logger) = (configuration, logger)
        let task = Task {
            try await PostgresConnection.connect(configuration: configuration, id: Self.nextID(), logger: logger)
        }
        connecting = task
        defer { connecting = nil }
        let made = try await task.value
        connection = made
        return made
    }

    /// The open connection, if there is one; never connects.
    var current: PostgresConnection? {
        guard let connection, !connection.isClosed else { return nil }
        return connection
    }

    func close() async {
        let closing = connection
        connection = nil
        try? await closing?.close()
    }

    private static let ids = Atomic<Int>(0)

    /// An id for a new connection, for the logs.
    static func nextID() -> Int {
        ids.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
