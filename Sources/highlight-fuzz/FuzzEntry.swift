#if canImport(Glibc)
import Glibc
#endif
import ServerFuzzing

// highlight-fuzz: the libFuzzer entry point, and a replayer of saved inputs.
//
// Built with `-sanitize=fuzzer,address -DFUZZING` (see docs/FUZZING.md), `main` hands control to
// libFuzzer through `LLVMFuzzerRunDriver`. A plain build replays the files given as arguments,
// so a crash found by the fuzzer can be reproduced and debugged in a debug build.
//
// The target is chosen by HIGHLIGHT_FUZZ_TARGET: `transport` (the default) feeds raw bytes to
// the framing and the server; `edits` reads a rule set and an edit sequence from the bytes and
// compares the edited document with a fresh copy (a difference aborts, as a crash would).

enum FuzzTarget: String {
    case transport, edits

    static let selected: FuzzTarget = {
        guard let name = getenv("HIGHLIGHT_FUZZ_TARGET") else { return .transport }
        return FuzzTarget(rawValue: String(cString: name)) ?? .transport
    }()

    func run(_ bytes: [UInt8]) {
        switch self {
        case .transport:
            TransportFuzzing.run(bytes)
        case .edits:
            let failures = EditSequenceFuzzing.run(bytes)
            guard failures.isEmpty else {
                for failure in failures { printError("highlight-fuzz: \(failure)") }
                abort()  // libFuzzer saves the input as a crash.
            }
        }
    }
}

/// Writes a line to stderr (file descriptor 2, not the shared `stderr` stream).
func printError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTarget.selected.run(bytes)
    return 0
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

@main struct HighlightFuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
    }
}
#else
@main struct HighlightFuzz {
    static func main() {
        let paths = CommandLine.arguments.dropFirst()
        guard !paths.isEmpty else {
            printError("usage: highlight-fuzz FILE...  (replays saved inputs; build with -sanitize=fuzzer to fuzz)")
            exit(2)
        }
        for path in paths {
            guard let file = fopen(path, "rb") else {
                printError("highlight-fuzz: cannot open \(path)")
                exit(1)
            }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = fread(&chunk, 1, chunk.count, file)
                if count <= 0 { break }
                bytes += chunk[0..<count]
            }
            fclose(file)
            FuzzTarget.selected.run(bytes)
            print("\(path): ok")
        }
    }
}
#endif
