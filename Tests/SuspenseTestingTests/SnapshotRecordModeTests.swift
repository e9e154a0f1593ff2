import Testing

@testable import SuspenseTesting

@Suite struct SnapshotRecordModeTests {
    @Test func defaultIsMissingLocallyAndNeverOnCI() throws {
        #expect(try SnapshotRecordMode.resolve(nil, environment: [:]) == .missing)
        #expect(try SnapshotRecordMode.resolve(nil, environment: ["CI": "true"]) == .never)
        #expect(try SnapshotRecordMode.resolve(nil, environment: ["CI": ""]) == .missing)
    }

    @Test(arguments: SnapshotRecordMode.allCases)
    func environmentVariableChoosesTheMode(_ mode: SnapshotRecordMode) throws {
        #expect(try SnapshotRecordMode.resolve(nil, environment: ["SNAPSHOT_RECORD": mode.rawValue]) == mode)
        #expect(
            try SnapshotRecordMode.resolve(nil, environment: ["SNAPSHOT_RECORD": mode.rawValue, "CI": "1"]) == mode)
    }

    @Test func swiftSnapshotTestingsVariableIsHonouredAfterOurs() throws {
        #expect(
            try SnapshotRecordMode.resolve(nil, environment: ["SNAPSHOT_TESTING_RECORD": "all", "CI": "1"]) == .all)
        let both = ["SNAPSHOT_RECORD": "never", "SNAPSHOT_TESTING_RECORD": "all"]
        #expect(try SnapshotRecordMode.resolve(nil, environment: both) == .never)
        #expect(throws: InvalidRecordMode.self) {
            try SnapshotRecordMode.resolve(nil, environment: ["SNAPSHOT_TESTING_RECORD": "yes"])
        }
        #expect(
            InvalidRecordMode(variable: "SNAPSHOT_TESTING_RECORD", value: "yes").description
                .hasPrefix("SNAPSHOT_TESTING_RECORD=yes is not a record mode"))
    }

    @Test func perCallModeWinsOverTheEnvironment() throws {
        let environment = ["SNAPSHOT_RECORD": "all", "CI": "true"]
        #expect(try SnapshotRecordMode.resolve(.failed, environment: environment) == .failed)
    }

    @Test func unknownEnvironmentValueIsAnError() {
        #expect(throws: InvalidRecordMode.self) {
            try SnapshotRecordMode.resolve(nil, environment: ["SNAPSHOT_RECORD": "sometimes"])
        }
        #expect(InvalidRecordMode(value: "sometimes").description.contains("all, missing, never, failed"))
    }
}
