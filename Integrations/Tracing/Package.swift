// swift-tools-version: 6.0
import PackageDescription

// A package of its own, so that SuspenseKit itself keeps no dependencies.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "SuspenseKitTracing",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SuspenseKitTracing", targets: ["SuspenseKitTracing"])
    ],
    dependencies: [
        .package(name: "SuspenseKit", path: "../.."),
        // 1.7: the version tested here, which ships the InMemoryTracing module the tests use.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.0"),
    ],
    targets: [
        .target(
            name: "SuspenseKitTracing",
            dependencies: [
                .product(name: "SuspenseKit", package: "SuspenseKit"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SuspenseKitTracingTests",
            dependencies: [
                "SuspenseKitTracing",
                .product(name: "SuspenseKit", package: "SuspenseKit"),
                // Its TestClock: the spans' times, exact.
                .product(name: "SuspenseTesting", package: "SuspenseKit"),
                // swift-distributed-tracing's own in-memory tracer.
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
