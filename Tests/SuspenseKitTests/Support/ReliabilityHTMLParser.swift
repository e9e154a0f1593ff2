import Foundation

@testable import SuspenseKit

/// Parses HTML back with a real parser, Python 3's standard `html.parser`, run as a subprocess,
/// and lists what it saw: start tags with their attributes, end tags, text, and anything else
/// (comments, declarations, processing instructions), which generated HTML must never contain.
enum ReliabilityHTMLParser {
    /// One event as a list of strings: `["start", tag, name, value, …]`, `["end", tag]`,
    /// `["data", text]` (adjacent text merged), or `["comment" | "decl" | "pi" | …, text]`.
    typealias Event = [String]

    private static let script = #"""
        import json, sys
        from html.parser import HTMLParser

        class Recorder(HTMLParser):
            def __init__(self):
                super().__init__(convert_charrefs=True)
                self.events = []
            def handle_starttag(self, tag, attrs):
                event = ["start", tag]
                for name, value in attrs:
                    event += [name, "<no value>" if value is None else value]
                self.events.append(event)
            def handle_startendtag(self, tag, attrs):
                self.handle_starttag(tag, attrs)
                self.events.append(["selfclose", tag])
            def handle_endtag(self, tag):
                self.events.append(["end", tag])
            def handle_data(self, data):
                if self.events and self.events[-1][0] == "data":
                    self.events[-1][1] += data
                else:
                    self.events.append(["data", data])
            def handle_comment(self, data):
                self.events.append(["comment", data])
            def handle_decl(self, data):
                self.events.append(["decl", data])
            def handle_pi(self, data):
                self.events.append(["pi", data])
            def unknown_decl(self, data):
                self.events.append(["unknown_decl", data])

        with open(sys.argv[1], "rb") as source:
            documents = json.load(source)
        results = []
        for document in documents:
            recorder = Recorder()
            recorder.feed(document)
            recorder.close()
            results.append(recorder.events)
        with open(sys.argv[2], "w", encoding="ascii") as target:
            json.dump(results, target, ensure_ascii=True)
        """#

    /// Whether `python3` with `html.parser` can be run here.
    static let isAvailable: Bool = {
        (try? run(["-c", "import html.parser"]).status) == 0
    }()

    /// Runs python3, returning its exit status and what it wrote to standard error.
    private static func run(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let written = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: written, as: UTF8.self))
    }

    struct ParserFailed: Error, CustomStringConvertible {
        let status: Int32
        let errors: String
        var description: String {
            "python3 html.parser exited with status \(status): \(errors.suffix(2_000))"
        }
    }

    /// Parses every document in one run of the parser.
    static func parse(_ documents: [String]) throws -> [[Event]] {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("suspensekit-reliability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("documents.json")
        let output = directory.appendingPathComponent("events.json")
        try JSONEncoder().encode(documents).write(to: input)
        let (status, errors) = try run(["-c", script, input.path, output.path])
        guard status == 0 else { throw ParserFailed(status: status, errors: errors) }
        return try JSONDecoder().decode([[Event]].self, from: Data(contentsOf: output))
    }

    /// What the parser must see for a tree: exactly its elements, with exactly its attributes,
    /// and its text unchanged (NUL shown as U+FFFD, as the HTML renderer writes it). Inside
    /// `script` and `style`, whose content parsers read as raw text, the text is seen escaped.
    static func expectedEvents(of root: Node) -> [Event] {
        var events: [Event] = []
        func addData(_ text: String) {
            guard !text.isEmpty else { return }
            if let last = events.last, last.first == "data" {
                events[events.count - 1][1] += text
            } else {
                events.append(["data", text])
            }
        }
        enum Step { case enter(Node, rawText: Bool), close(String) }
        var stack: [Step] = [.enter(root, rawText: false)]
        while let step = stack.popLast() {
            switch step {
            case .close(let tag):
                events.append(["end", tag])
            case .enter(let node, let rawText):
                switch node.kind {
                case .text(let text), .errorMessage(presented: let text, description: _):
                    if rawText {
                        var buffer: [UInt8] = []
                        HTMLEscaping.append(text, to: &buffer, quotes: false)
                        addData(String(decoding: buffer, as: UTF8.self))
                    } else {
                        addData(text.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}"))
                    }
                case .rawHTML(let html):
                    addData(html)
                case .element(let tag, let attributes):
                    let name = tag.lowercased()
                    var start = ["start", name]
                    for attribute in attributes {
                        start += [
                            attribute.name.lowercased(),
                            attribute.value.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}"),
                        ]
                    }
                    events.append(start)
                    if HTMLNames.isVoid(tag) { continue }
                    stack.append(.close(name))
                    let raw = name == "script" || name == "style"
                    for child in node.children.reversed() { stack.append(.enter(child, rawText: raw)) }
                case .fragment, .component, .suspense, .errorBoundary:
                    for child in node.children.reversed() { stack.append(.enter(child, rawText: rawText)) }
                case .responseDeclaration:
                    break  // not written in HTML
                }
            }
        }
        return events
    }
}
