// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

/// VectorKernels reaches LLVM's x86 intrinsics through `Builtin` and is compiled for AVX2; its callers check the CPU
/// first (CPUFeatures). The manifest is evaluated on the building machine, so the flags follow its architecture.
/// VectorKernels512 likewise, for AVX-512 (F, BW and VL): a module of its own, since VectorKernels runs on CPUs with AVX2 only.
#if arch(x86_64)
let kernelFlags: [SwiftSetting] = [.unsafeFlags(["-parse-stdlib", "-Xcc", "-mavx2", "-Xcc", "-mpopcnt"])]
let kernel512Flags: [SwiftSetting] = [
    .unsafeFlags(["-parse-stdlib", "-Xcc", "-mavx512f", "-Xcc", "-mavx512bw", "-Xcc", "-mavx512vl", "-Xcc", "-mpopcnt"])
]
#else
let kernelFlags: [SwiftSetting] = [.unsafeFlags(["-parse-stdlib"])]
let kernel512Flags: [SwiftSetting] = [.unsafeFlags(["-parse-stdlib"])]
#endif

let package = Package(
    name: "highlight-ls",
    products: [
        .executable(name: "highlight-ls", targets: ["highlight-ls"]),
    ],
    dependencies: [],
    targets: [
        // MARK: Seeded — a seeded random generator shared by randomised tests, fuzzers and benchmarks.
        .target(name: "Seeded", swiftSettings: strict),

        // MARK: UTF8Decoding — one UTF-8 character read from bytes that may not be valid; depends on nothing.
        .target(name: "UTF8Decoding", dependencies: ["VectorKernels", "VectorKernels512", "CPUFeatures"], swiftSettings: strict),
        .testTarget(name: "UTF8DecodingTests", dependencies: ["UTF8Decoding", "Seeded"], swiftSettings: strict),

        // MARK: TextIndex — line index and UTF-8 <-> UTF-16/UTF-32 positions; depends on the vector loops only.
        .target(name: "TextIndex", dependencies: ["VectorKernels", "CPUFeatures"], swiftSettings: strict),
        .testTarget(name: "TextIndexTests", dependencies: ["TextIndex", "Seeded"], swiftSettings: strict),

        // MARK: VectorKernels — the loops built for AVX2 (Teddy, the packed pair, the UTF-8 check, line counts, JSON strings); depends on nothing.
        .target(name: "VectorKernels", swiftSettings: strict + kernelFlags),
        .testTarget(
            name: "VectorKernelsTests", dependencies: ["VectorKernels", "VectorKernels512", "CPUFeatures", "Seeded"],
            swiftSettings: strict),

        // MARK: VectorKernels512 — the UTF-8 check built for AVX-512BW, sixty-four bytes a step; depends on nothing.
        .target(name: "VectorKernels512", dependencies: ["VectorKernels"], swiftSettings: strict + kernel512Flags),

        // MARK: CPUFeatures — whether the CPU runs the vector modules' loops, asked once; depends on them only.
        .target(name: "CPUFeatures", dependencies: ["VectorKernels", "VectorKernels512"], swiftSettings: strict),
        .testTarget(name: "CPUFeaturesTests", dependencies: ["CPUFeatures"], swiftSettings: strict),

        // MARK: PatternEngine — rules, literal automaton, regex, overlap resolution; depends on the vector loops only.
        .target(name: "PatternEngine", dependencies: ["VectorKernels", "VectorKernels512", "CPUFeatures", "UTF8Decoding"], swiftSettings: strict),
        .testTarget(
            name: "PatternEngineTests", dependencies: ["PatternEngine", "Seeded", "CPUFeatures", "UTF8Decoding"],
            swiftSettings: strict),

        // MARK: LanguageSyntax — comment and string syntax per language, scanned line by line; depends on TextIndex's offsets and UTF8Decoding.
        .target(name: "LanguageSyntax", dependencies: ["TextIndex", "UTF8Decoding"], swiftSettings: strict),
        .testTarget(name: "LanguageSyntaxTests", dependencies: ["LanguageSyntax", "Seeded"], swiftSettings: strict),

        // MARK: JSONValue — a JSON value, a parser (with comments and locations) and a fast writer.
        .target(name: "JSONValue", dependencies: ["UTF8Decoding", "TextIndex", "VectorKernels", "CPUFeatures"], swiftSettings: strict),
        .testTarget(name: "JSONValueTests", dependencies: ["JSONValue", "TextIndex", "Seeded"], swiftSettings: strict),

        // MARK: HighlightConfig — .highlights.json schema, layers, styles, built-in rules, errors with line/column,
        // which rules apply to a file, and the one path from a text to its matches.
        .target(name: "HighlightConfig", dependencies: ["JSONValue", "PatternEngine", "LanguageSyntax", "TextIndex"], swiftSettings: strict),
        .testTarget(name: "HighlightConfigTests", dependencies: ["HighlightConfig", "PatternEngine"], swiftSettings: strict),

        // MARK: WorkspaceScan — .gitignore rules, the tree walker and parallel scanning of files on disk.
        .target(
            name: "WorkspaceScan",
            dependencies: [
                "HighlightConfig", "PatternEngine", "LanguageSyntax", "TextIndex", "VectorKernels", "VectorKernels512",
                "CPUFeatures", "Threads", "UTF8Decoding",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "WorkspaceScanTests",
            dependencies: ["WorkspaceScan", "HighlightConfig", "PatternEngine", "TextIndex", "CPUFeatures", "Seeded"],
            swiftSettings: strict),

        // MARK: Threads — threads of their own and a condition to wait on, from POSIX; depends on nothing.
        .target(name: "Threads", swiftSettings: strict),

        // MARK: JSONRPC — Content-Length framing and messages; knows nothing of LSP.
        .target(name: "JSONRPC", dependencies: ["JSONValue", "Threads"], swiftSettings: strict),
        .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC"], swiftSettings: strict),

        // MARK: LanguageServer — LSP types, documents, handlers; the only module that knows LSP.
        .target(
            name: "LanguageServer",
            dependencies: [
                "JSONRPC", "JSONValue", "HighlightConfig", "PatternEngine", "TextIndex", "LanguageSyntax", "WorkspaceScan",
                "Threads",
            ],
            swiftSettings: strict),

        .testTarget(name: "LanguageServerTests", dependencies: ["LanguageServer", "Seeded"], swiftSettings: strict),

        // MARK: CMalloc — glibc's <malloc.h> (`mallopt`), for the command line's memory reuse; Linux only.
        .systemLibrary(name: "CMalloc"),

        // MARK: highlight-ls — the executable: the CLI (serve, print, list, check, init) and wiring. The JSON Schema is built
        // in (`--print-schema`) from schema/highlights.schema.json, which Sources/highlight-ls/highlights.schema.json links to.
        .executableTarget(
            name: "highlight-ls",
            dependencies: [
                "LanguageServer", "HighlightConfig", "PatternEngine", "TextIndex", "LanguageSyntax", "WorkspaceScan", "JSONRPC", "JSONValue",
                "Threads",
                .target(name: "CMalloc", condition: .when(platforms: [.linux])),
            ],
            resources: [.embedInCode("highlights.schema.json")],
            swiftSettings: strict),

        // MARK: highlight-bench — engine benchmark (release build), figures go to BENCHMARKS.md.
        .executableTarget(name: "highlight-bench", dependencies: ["PatternEngine", "Seeded"], swiftSettings: strict),

        // MARK: highlight-regex-probe — the regex engine on JSON lines, for the differential test against RE2 (Tests/re2).
        .executableTarget(name: "highlight-regex-probe", dependencies: ["PatternEngine", "JSONValue"], swiftSettings: strict),

        // MARK: highlight-load — keystroke latency and memory of the real server over pipes (release build).
        .executableTarget(
            name: "highlight-load", dependencies: ["JSONRPC", "JSONValue", "HighlightConfig", "TextIndex", "Seeded"], swiftSettings: strict),

        // MARK: ServerFuzzing and highlight-fuzz — raw-byte and edit-sequence fuzzing of the server (docs/FUZZING.md).
        .target(
            name: "ServerFuzzing", dependencies: ["LanguageServer", "JSONRPC", "JSONValue", "TextIndex"], swiftSettings: strict),
        .executableTarget(name: "highlight-fuzz", dependencies: ["ServerFuzzing"], swiftSettings: strict),

        // MARK: SessionTests — transcript files that drive the real server from initialize to exit.
        .testTarget(
            name: "SessionTests",
            dependencies: ["LanguageServer", "JSONRPC", "JSONValue", "HighlightConfig", "ServerFuzzing", "Seeded"],
            resources: [.copy("Transcripts")],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
