import CPUFeatures
import Testing

/// Reading the CPU's features as the kernel lists them.
@Suite struct VectorUnitTests {
    /// The first whole `flags` line, word by word; a key that only begins with `flags` is not it.
    @Test func cpuFlagsAreReadFromTheFirstFlagsLine() {
        let cpuinfo = "processor\t: 0\nflags\t\t: fpu sse2 avx2 bmi2\nbugs\t\t: spectre_v1\n\nprocessor\t: 1\nflags\t\t: fpu\n"
        #expect(VectorUnit.flagsLine(in: Array(cpuinfo.utf8)[...]) == ["fpu", "sse2", "avx2", "bmi2"])
        #expect(VectorUnit.flagsLine(in: Array("vendor_id : x\nflagsx : avx2\n".utf8)[...]).isEmpty)
        #expect(VectorUnit.flagsLine(in: []).isEmpty)
        // A line not yet ended by a line feed may be cut off: it is not read.
        #expect(VectorUnit.flagsLine(in: Array("processor : 0\nflags : fpu av".utf8)[...]).isEmpty)
    }
}
