// What the CPU runs beyond the baseline the build targets (x86-64: SSE2).
//
// The loops in VectorKernels are compiled for AVX2 and must not run on a CPU
// without it; this asks once, from a module built for the baseline (which is
// why it is a module of its own: nothing in VectorKernels may run before the
// answer). On Linux
// the kernel's own list (/proc/cpuinfo, the first processor's `flags`) is
// read: it leaves out features the kernel does not enable, such as AVX when
// the registers' state is not saved. On macOS, `sysctl`. Anywhere else, or
// when the answer cannot be read, the baseline loops are used.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import VectorKernels

/// The CPU's vector features that the loops can use, read once.
public enum VectorUnit {
    /// Whether the CPU (and the operating system) run AVX2 (and `popcnt`, which every AVX2 CPU has), and this build
    /// has the AVX2 loops.
    public static let hasAVX2: Bool = AVX2.isCompiled && cpuHasAVX2()

    private static func cpuHasAVX2() -> Bool {
        #if os(Linux)
        let descriptor = open("/proc/cpuinfo", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
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
        return flags.contains("avx2") && flags.contains("popcnt")
        #elseif os(macOS)
        var value: Int32 = 0
        var size = MemoryLayout<Int32>.size
        return sysctlbyname("hw.optional.avx2_0", &value, &size, nil, 0) == 0 && value != 0
        #else
        return false
        #endif
    }

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
