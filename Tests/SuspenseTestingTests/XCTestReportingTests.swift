import SuspenseKit
import SuspenseTesting
import XCTest

/// `assertSnapshot` and `assertRender` from XCTest: without a current Swift Testing test they
/// fail through `XCTFail`, at the caller's line.
final class XCTestReportingTests: XCTestCase {
    /// Failures this test case swallowed instead of recording, when `isCapturing`.
    private var captured: [(description: String, line: Int)] = []
    private var isCapturing = false

    #if canImport(Darwin)
        override func record(_ issue: XCTIssue) {
            guard isCapturing else { return super.record(issue) }
            captured.append((issue.compactDescription, issue.sourceCodeContext.location?.lineNumber ?? 0))
        }
    #else
        override func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
        ) {
            guard isCapturing else {
                return super.recordFailure(
                    withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            }
            captured.append((description, lineNumber))
        }
    #endif

    func testMatchingSnapshotPasses() async {
        await assertSnapshot(of: Element("p") { Text("From XCTest") }, as: .html)
    }

    func testMismatchFailsThroughXCTestAtTheCallSite() async {
        isCapturing = true
        let line = #line + 1
        await assertSnapshot(of: Text("actual"), as: .plain, record: .never)
        isCapturing = false
        XCTAssertEqual(captured.count, 1)
        XCTAssertEqual(captured.first?.line, line)
        let description = captured.first?.description ?? ""
        XCTAssertTrue(
            description.contains("__Snapshots__/XCTestReportingTests/testMismatchFailsThroughXCTestAtTheCallSite.1.txt")
        )
        XCTAssertTrue(description.contains("@@ -1,1 +1,1 @@\n-expected\n+actual"), description)
    }

    func testWaitingForASleeperThatNeverComesFailsThroughXCTestAndReturns() async {
        let clock = TestClock()
        isCapturing = true
        let line = #line + 1
        let came = await clock.waitForSleeper(dueAt: .seconds(2), timeout: .zero)
        isCapturing = false
        XCTAssertFalse(came)
        XCTAssertEqual(captured.count, 1)
        XCTAssertEqual(captured.first?.line, line)
        let description = captured.first?.description ?? ""
        XCTAssertTrue(description.contains("expected a sleeper due at 2 s within 0 s; armed: none"), description)
    }

    func testInlineMismatchFailsThroughXCTest() async {
        isCapturing = true
        await assertRender(of: Text("actual"), as: .plain, matches: "expected")
        isCapturing = false
        XCTAssertEqual(captured.count, 1)
        XCTAssertTrue(captured.first?.description.contains("-expected\n+actual") == true)
    }
}
