// swift-tools-version: 6.1
// Benchmarks for SuspenseKit, in their own package so that users of the library never resolve
// these dependencies. Run everything with:
//
//     swift run -c release --package-path Benchmarks SuspenseBench
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "SuspenseKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "SuspenseKit", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/JohnSundell/Plot", from: "0.14.0"),
    ],
    targets: [
        // The trees, the hand-written baseline and the workloads, shared by both runners.
        .target(
            name: "BenchmarkTrees",
            dependencies: [
                .product(name: "SuspenseKit", package: "SuspenseKit"),
                .product(name: "Plot", package: "Plot"),
            ],
            swiftSettings: swiftSettings
        ),
        // The one command: all five benchmarks in one process, a markdown table with ratios.
        .executableTarget(
            name: "SuspenseBench",
            dependencies: ["BenchmarkTrees"],
            swiftSettings: swiftSettings
        ),
        // The same workloads under ordo-one/benchmark: `swift package benchmark`.
        .executableTarget(
            name: "SuspenseKitBenchmarks",
            dependencies: [
                "BenchmarkTrees",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/SuspenseKitBenchmarks",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
