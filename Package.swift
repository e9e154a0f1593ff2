// swift-tools-version: 6.0
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "SuspenseKit",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "SuspenseKit", targets: ["SuspenseKit"]),
        .library(name: "SuspenseTesting", targets: ["SuspenseTesting"]),
        .executable(name: "UserProfile", targets: ["UserProfile"]),
        .executable(name: "Dashboard", targets: ["Dashboard"]),
        .executable(name: "NewsFeed", targets: ["NewsFeed"]),
        // The example dashboard's components, for the Hummingbird integration's DashboardServer.
        .library(name: "DashboardPage", targets: ["DashboardPage"]),
    ],
    targets: [
        .target(name: "SuspenseKit", swiftSettings: swiftSettings),
        .target(
            name: "SuspenseTesting",
            dependencies: ["SuspenseKit"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "UserProfile",
            dependencies: ["SuspenseKit"],
            path: "Examples/UserProfile",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DashboardPage",
            dependencies: ["SuspenseKit"],
            path: "Examples/DashboardPage",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "Dashboard",
            dependencies: ["SuspenseKit", "DashboardPage"],
            path: "Examples/Dashboard",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "NewsFeed",
            dependencies: ["SuspenseKit"],
            path: "Examples/NewsFeed",
            swiftSettings: swiftSettings
        ),
        // Renders from top-level code on the main actor, which no test runs on; `.ci/run` runs it.
        .executableTarget(
            name: "MainActorProbe",
            dependencies: ["SuspenseKit"],
            path: "Tests/MainActorProbe",
            swiftSettings: swiftSettings
        ),
        // Writes generated trees and their streams for scripts/browser-equivalence.sh, which
        // loads them in headless Chromium; `.ci/run` runs it.
        .executableTarget(
            name: "BrowserEquivalence",
            dependencies: ["SuspenseKit"],
            path: "Tests/BrowserEquivalence",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SuspenseKitTests",
            // SuspenseTesting for its TestClock: time is tested without sleeping.
            dependencies: ["SuspenseKit", "SuspenseTesting"],
            exclude: ["__Snapshots__"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SuspenseTestingTests",
            dependencies: ["SuspenseKit", "SuspenseTesting", "UserProfile", "DashboardPage", "NewsFeed"],
            exclude: ["__Snapshots__"],
            swiftSettings: swiftSettings
        ),
    ]
)
