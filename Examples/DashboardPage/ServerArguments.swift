/// The command line both example servers take: `--port N`, `--latency-scale X`, and
/// `--test-clock` where the server offers one.
public struct DashboardServerArguments: Sendable, Equatable {
    /// The port on 127.0.0.1 (0: the system picks one).
    public var port = 8080
    /// What every simulated backend latency is multiplied by.
    public var latencyScale = 1.0
    /// Whether the latencies pass only as a test clock is moved.
    public var testClock = false

    /// The defaults: port 8080, latencies as they are, real time.
    public init() {}

    /// What a command line asks for.
    public enum Parsed: Equatable {
        case run(DashboardServerArguments)
        /// `--help`: the usage, to print before exiting with 0.
        case help(String)
        /// A bad argument: the message, usage included, to print before exiting with 2.
        case failure(String)
    }

    /// Reads `arguments` (without the program's name); `offersTestClock` says whether
    /// `--test-clock` is known.
    public static func parse(_ arguments: some Sequence<String>, offersTestClock: Bool) -> Parsed {
        let usage = usage(offersTestClock: offersTestClock)
        var parsed = DashboardServerArguments()
        var arguments = Array(arguments)[...]
        while let argument = arguments.popFirst() {
            switch argument {
            case "--help", "-h":
                return .help(usage)
            case "--port":
                guard let value = arguments.popFirst(), let number = Int(value), (0...65535).contains(number) else {
                    return .failure("--port takes a number from 0 to 65535\n\(usage)")
                }
                parsed.port = number
            case "--latency-scale":
                // Finite and bounded: the latencies are whole milliseconds.
                guard let value = arguments.popFirst(), let number = Double(value), number.isFinite,
                    (0...1000).contains(number)
                else {
                    return .failure("--latency-scale takes a number from 0 to 1000\n\(usage)")
                }
                parsed.latencyScale = number
            case "--test-clock" where offersTestClock:
                parsed.testClock = true
            default:
                return .failure("unknown argument \(argument)\n\(usage)")
            }
        }
        return .run(parsed)
    }

    /// The usage text.
    public static func usage(offersTestClock: Bool) -> String {
        var usage = """
            usage: DashboardServer [--port N] [--latency-scale X]\(offersTestClock ? " [--test-clock]" : "")
              --port N           the port on 127.0.0.1, 0 to 65535 (default 8080; 0 lets the system pick one)
              --latency-scale X  multiplies every simulated backend latency, 0 to 1000 (default 1)
            """
        if offersTestClock {
            usage += """

                  --test-clock       the latencies pass only as POST /clock/advance?ms=N moves a test clock
                                     (GET /clock/now tells its time), for browser checks
                """
        }
        return usage
    }
}
