#if canImport(Testing)
    import Testing
#endif

/// The Swift Testing test, and test case, that takes a snapshot: what names its golden files
/// beyond the function's name, and what tells its snapshots from another test's.
///
/// Swift Testing's public API gives the test (`Test.current`: its suite types and function
/// name) and whether the running test case is parameterized (`Test.Case.current`), but not the
/// case's arguments: those are SPI, absent from the toolchain's public `Testing.swiftinterface`.
/// They are read here by reflection over `Test.Case` instead, found by the labels `arguments`,
/// `value`, `id` and `discriminator` wherever they sit, so that a later layout is read too.
/// When they cannot be found, ``arguments`` is `nil` and an unnamed snapshot of a parameterized
/// test fails with a message asking for `named:`, rather than being numbered in run order.
struct SnapshotTestIdentity: Sendable, Hashable {
    /// The names of the suite types around the test, outermost first; empty for a test function
    /// at file scope.
    var suites: [String]
    /// The test function's name, such as `loaded()` or `greets(_:)`.
    var function: String
    /// Whether the running test case is one of a parameterized test's.
    var isParameterized: Bool
    /// How Swift Testing describes each argument of this test case (`"Ann"`, `.all`, `42`), in
    /// order; `nil` when the test is not parameterized or its arguments could not be read.
    var arguments: [String]?
    /// What tells this test case from the other cases of its test within one run: the
    /// arguments' identifiers and Swift Testing's discriminator (which tells apart cases whose
    /// arguments are equal), when they could be read.
    var caseKey: String

    /// The test running on this task, or `nil` outside a Swift Testing test (XCTest, or a
    /// task that does not inherit the test's task-local values).
    static var current: SnapshotTestIdentity? {
        #if canImport(Testing)
            guard let test = Test.current else { return nil }
            let components = test.id.nameComponents
            let testCase = Test.Case.current
            let isParameterized = testCase?.isParameterized ?? test.isParameterized
            let arguments = isParameterized ? testCase.flatMap(CaseArguments.init(reflecting:)) : nil
            return SnapshotTestIdentity(
                suites: Array(components.dropLast()),
                function: components.last ?? test.name,
                isParameterized: isParameterized,
                arguments: arguments?.descriptions,
                caseKey: arguments?.key ?? ""
            )
        #else
            return nil
        #endif
    }

    /// Names the test in messages: `RenderingSnapshotTests.loaded()`, with its arguments for a
    /// case of a parameterized test.
    var description: String {
        let name = (suites + [function]).joined(separator: ".")
        guard let arguments else { return name }
        return name + " with " + arguments.joined(separator: ", ")
    }

    /// Tells this test case from every other within one run.
    var key: String {
        (suites + [function]).joined(separator: ".") + "|" + caseKey
    }
}

#if canImport(Testing)
    /// A test case's arguments, read by reflection (see ``SnapshotTestIdentity``).
    private struct CaseArguments {
        var descriptions: [String]
        var key: String

        init?(reflecting testCase: Test.Case) {
            guard let arguments = Self.child("arguments", of: testCase, depth: 4) else { return nil }
            let elements = Mirror(reflecting: Self.unwrapped(arguments)).children.map(\.value)
            guard !elements.isEmpty else { return nil }
            var descriptions: [String] = []
            var identifiers: [String] = []
            for element in elements {
                guard let value = Self.child("value", of: element, depth: 1) else { return nil }
                let description = String(describingForTest: value)
                descriptions.append(description)
                if let bytes = Self.child("id", of: element, depth: 1).flatMap({ Self.child("bytes", of: $0, depth: 1) }
                )
                    as? [UInt8]
                {
                    identifiers.append(bytes.map { String($0, radix: 16) }.joined(separator: " "))
                } else {
                    identifiers.append(description)
                }
            }
            let discriminator = Self.child("discriminator", of: testCase, depth: 4).map { "\(Self.unwrapped($0))" }
            self.descriptions = descriptions
            self.key = identifiers.joined(separator: "\u{1F}") + "#" + (discriminator ?? "")
        }

        /// The first value labelled `label` among the children of `subject`, searched breadth
        /// first to `depth` levels (an enum's payload and a tuple are a level each).
        static func child(_ label: String, of subject: Any, depth: Int) -> Any? {
            var level = [subject]
            for _ in 0..<depth {
                var next: [Any] = []
                for value in level {
                    for child in Mirror(reflecting: unwrapped(value)).children {
                        if child.label == label { return child.value }
                        next.append(child.value)
                    }
                }
                level = next
            }
            return nil
        }

        /// The value inside an `Optional`, or the value itself.
        static func unwrapped(_ value: Any) -> Any {
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional, let wrapped = mirror.children.first {
                return wrapped.value
            }
            return value
        }
    }
#endif
