// What the CPU runs beyond the baseline the build targets (x86-64: SSE2).
//
// The loops in VectorKernels are compiled for AVX2 and must not run on a CPU
// without it, nor VectorKernels512's (AVX-512) on one without its features; this
// asks once, from a module built for the baseline (which is why it is a module
// of its own: nothing in either may run before the answer). On Linux
// the kernel's own list (/proc/cpuinfo, the first processor's `flags`) is
// read: it leaves out features the kernel does not enable, such as AVX when
// the registers' state is not saved (AVX-512's too). On macOS, `sysctl`. Anywhere else, or
// when the answer cannot be read, the baseline loops are used.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import VectorKernels
import VectorKernels512

/// The widest loops a CPU runs, in order: a test may hold a caller to a narrower one.
public enum VectorWidth: Int, Comparable, CaseIterable, Sendable {
    /// The baseline's (x86-64: SSE2), in plain Swift.
    case baseline
    /// VectorKernels' AVX2 loops.
    case avx2
    /// VectorKernels512's AVX-512 loops.
    case avx512

    public static func < (a: VectorWidth, b: VectorWidth) -> Bool { a.rawValue < b.rawValue }
}

/// The CPU's vector features that the loops can use, read once.
public enum VectorUnit {
    /// The widest loops this CPU (and operating system) runs and this build has.
    ///
    /// - AVX2 wants `popcnt` too (every AVX2 CPU has it).
    /// - AVX-512 wants F, BW and VL, and VBMI2, which only CPUs from Ice Lake and Zen 4 on have: on the Xeons before
    ///   them, 512-bit work lowers the core's clock for all the code that runs after it.
    public static let widest: VectorWidth =
        if AVX512.isCompiled, cpuHas(
            linuxFlags: ["avx512f", "avx512bw", "avx512vl", "avx512_vbmi2", "popcnt"],
            macOSNames: ["hw.optional.avx512f", "hw.optional.avx512bw", "hw.optional.avx512vl", "hw.optional.avx512vbmi2"])
        {
            .avx512
        } else if AVX2.isCompiled, cpuHas(linuxFlags: ["avx2", "popcnt"], macOSNames: ["hw.optional.avx2_0"]) {
            .avx2
        } else {
            .baseline
        }

    /// Whether VectorKernels' AVX2 loops may run (`widest` is AVX2 or wider).
    public static var hasAVX2: Bool { widest >= .avx2 }

    /// Whether VectorKernels512's AVX-512 loops may run.
    public static var hasAVX512: Bool { widest == .avx512 }

    /// Whether the CPU has every one of `linuxFlags` (Linux) or of `macOSNames` (macOS, `sysctl`).
    private static func cpuHas(linuxFlags: Set<Substring>, macOSNames: [String]) -> Bool {
        #if os(Linux)
        return linuxFlags.isSubset(of: cpuFlags)
        #elseif os(macOS)
        return macOSNames.allSatisfy { name in
            var value: Int32 = 0
            var size = MemoryLayout<Int32>.size
            return sysctlbyname(name, &value, &size, nil, 0) == 0 && value != 0
        }
        #else
        return false
        #endif
    }

    #if os(Linux)
    /// The first processor's flags in /proc/cpuinfo, read once (empty when they cannot be read).
    private static let cpuFlags: Set<Substring> = readCPUFlags()

    private static func readCPUFlags() -> Set<Substring> {
        let descriptor = open("/proc/cpuinfo", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        // The first processor's block is a few kilobytes, and the kernel makes each block as it is read (on some
        // kernels sampling the processor's clock): reading stops once the first `flags` line is whole.
        var bytes = [UInt8](repeating: 0, count: 16 << 10)
        var count = 0
        var flags: Set<Substring> = []
        while count < bytes.count, flags.isEmpty {
            let read = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress.map { $0 + count }, buffer.count - count)
            }
            if read <= 0 { break }
            count += read
            flags = flagsLine(in: bytes[..<count])
        }
        return flags
    }
    #endif

    /// The words of the first whole `flags` line of /proc/cpuinfo text (empty when there is none, or it is cut off).
    public static func flagsLine(in text: ArraySlice<UInt8>) -> Set<Substring> {
        let cpuinfo = String(decoding: text, as: UTF8.self)
        for line in cpuinfo.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingWhitespace == "flags" else { continue }
            return Set(parts[1].split(separator: " "))
        }
        return []
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingWhitespace: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
