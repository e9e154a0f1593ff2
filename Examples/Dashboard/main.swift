// The dashboard of Examples/DashboardPage, rendered to stdout.
//
//     swift run Dashboard                    # HTML (on a terminal, redrawn as each card loads)
//     swift run Dashboard --tree             # the resolved structure
//     swift run Dashboard --plain            # the visible text
//     swift run Dashboard --document         # the whole document, rendered once every card loaded
//     swift run Dashboard --stream           # the whole document, streamed chunk by chunk
//     swift run Dashboard --stream --in-order
//     swift run Dashboard --stream --declarative   # swapped in by the browser, with no script
//     swift run Dashboard --stream --declarative-script   # the same, with a script for other browsers
//
// `--report` prints the render's report after the page, in any mode: when each card showed its
// fallback and revealed, which query revealed it, what the cache answered, and any diagnostic.
//
// On a terminal the cards are the rows of a SuspenseList and show top to bottom, whichever loads
// first; `--reveal forwards|backwards|together|independent|none` picks the order in any mode
// (streams default to `none`, each card swapped in as it loads).
import DashboardPage
import SuspenseKit

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

let usage =
    "usage: Dashboard [--html | --tree | --plain | --document"
    + " | --stream [--in-order | --declarative | --declarative-script]]"
    + " [--reveal forwards | backwards | together | independent | none] [--report]"
var arguments = Array(CommandLine.arguments.dropFirst())
let orders: [String: RevealOrder?] = [
    "forwards": .forwards, "backwards": .backwards, "together": .together, "independent": .independent,
    "none": .none,
]
/// The order asked for with `--reveal`, or nil when not asked (each mode has its own default).
var asked: RevealOrder??
if let flag = arguments.firstIndex(of: "--reveal") {
    guard flag + 1 < arguments.count, let order = orders[arguments[flag + 1]] else {
        print(usage)
        exit(2)
    }
    asked = .some(order)
    arguments.removeSubrange(flag...(flag + 1))
}
// The render's report, delivered as the render ends, printed after the page with `--report`.
let (reports, reported) = AsyncStream<RenderReport>.makeStream()
var options = RenderOptions()
if let flag = arguments.firstIndex(of: "--report") {
    arguments.remove(at: flag)
    options = options.onReport { report in reported.yield(report) }
}
let terminalOrder = asked ?? .forwards
let streamOrder = asked ?? nil

do {
    switch arguments {
    // On a terminal, each card is redrawn in place as it arrives, with a line naming what is still
    // pending; piped (CI), only the final rendering is written.
    case [], ["--html"]:
        try await LiveTerminal(format: .html(pretty: true)).render(Dashboard(reveal: terminalOrder), options: options)
    case ["--tree"]:
        try await LiveTerminal(format: .tree).render(Dashboard(reveal: terminalOrder), options: options)
    case ["--plain"]:
        try await LiveTerminal(format: .plain).render(Dashboard(reveal: terminalOrder), options: options)
    case ["--document"]:
        print(try await render(DashboardDocument(reveal: streamOrder), as: .html, options: options))
    case ["--stream"], ["--stream", "--in-order"], ["--stream", "--declarative"],
        ["--stream", "--declarative-script"]:
        let stream =
            switch arguments.last {
            case "--in-order": StreamOptions(order: .inOrder)
            case "--declarative": StreamOptions(swap: .declarative)
            case "--declarative-script": StreamOptions(swap: .declarativeWithScript)
            default: StreamOptions()
            }
        let chunks = try await renderStream(DashboardDocument(reveal: streamOrder), options: options, stream: stream)
        for try await chunk in chunks {
            // Each chunk as it comes, on its own line, flushed: a pipe sees the stream arrive.
            print(chunk)
            fflush(nil)
        }
    default:
        print("\(usage)  (unknown arguments: \(arguments.joined(separator: " ")))")
        exit(2)
    }
} catch {
    print("error: \(error)")
    exit(1)
}
reported.finish()
for await report in reports {
    print()
    print(report)
}
