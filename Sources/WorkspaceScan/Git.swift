#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Threads

// git itself, run as a subprocess: the one way the project asks git what changed (`--since`, `--staged`) and who wrote
// a line (`--blame`). git is the reference for its own data, so nothing here reads git's files but the index
// (`GitIndex`), whose format is stable and which the walk needs for every file.

/// What a finished git command left: its exit status and what it wrote.
public struct GitOutput: Sendable {
    /// The exit status; 128 is git's own "fatal", 1 a plain "no" (as `merge-base` says it).
    public var status: Int32
    /// Everything it wrote to stdout.
    public var output: [UInt8]
    /// What it wrote to stderr, as text, without the trailing newline.
    public var errors: String

    /// Whether git exited 0.
    public var succeeded: Bool { status == 0 }
}

/// Why git could not be run at all.
public struct GitUnavailable: Error, Sendable, Equatable {
    /// "git was not found on PATH", or the system's reason.
    public var reason: String
}

/// Runs git.
public enum Git {
    /// Runs `git arguments` in `directory` (the current one when nil) with stdin empty, and waits for it; stdout and
    /// stderr are read together, so that neither pipe fills while git writes the other. git's own configuration
    /// cannot turn on a pager, colours or an external diff: the options that would are given on the command line.
    public static func run(_ arguments: [String], in directory: String? = nil) -> Result<GitOutput, GitUnavailable> {
        run(bytes: arguments.map { Array($0.utf8) }, in: directory.map { Array($0.utf8) })
    }

    /// Runs git as `run(_:in:)` does, with arguments and folder as bytes (a file name need not be UTF-8), and `input`
    /// on its stdin (an unlinked temporary file, so that git may read it at its own pace while stdout is read).
    public static func run(bytes arguments: [[UInt8]], in directory: [UInt8]?, input: [UInt8]? = nil) -> Result<GitOutput, GitUnavailable> {
        var inputDescriptor: Int32 = -1
        if let input {
            guard let descriptor = unlinkedFile(holding: input) else { return .failure(GitUnavailable(reason: systemReason())) }
            inputDescriptor = descriptor
        }
        defer { if inputDescriptor >= 0 { close(inputDescriptor) } }
        // Pipes are made and spawned under one lock, so that no other thread's git inherits this one's write ends
        // between pipe() and FD_CLOEXEC (which would keep this pipe open until that git ends).
        spawnLock.lock()
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        guard pipe(&outputPipe) == 0 else {
            spawnLock.unlock()
            return .failure(GitUnavailable(reason: systemReason()))
        }
        guard pipe(&errorPipe) == 0 else {
            close(outputPipe[0])
            close(outputPipe[1])
            spawnLock.unlock()
            return .failure(GitUnavailable(reason: systemReason()))
        }
        for descriptor in outputPipe + errorPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if inputDescriptor >= 0 {
            posix_spawn_file_actions_adddup2(&actions, inputDescriptor, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)

        // No pager, no prompt for credentials, and messages in a language the errors can be read in.
        let environment = processEnvironment(setting: ["GIT_PAGER": "cat", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"])
        let argv = [Array("git".utf8)] + (directory.map { [Array("-C".utf8), $0] } ?? []) + arguments
        var processID: pid_t = 0
        let spawned = withCStrings(argv) { argvPointers in
            withCStrings(environment.map { Array($0.utf8) }) { environmentPointers in
                posix_spawnp(&processID, "git", &actions, nil, argvPointers, environmentPointers)
            }
        }
        close(outputPipe[1])
        close(errorPipe[1])
        spawnLock.unlock()
        guard spawned == 0 else {
            close(outputPipe[0])
            close(errorPipe[0])
            let reason = spawned == ENOENT ? "git was not found on PATH" : "cannot run git: \(String(cString: strerror(spawned)))"
            return .failure(GitUnavailable(reason: reason))
        }
        let (output, errors) = readBoth(outputPipe[0], errorPipe[0])
        close(outputPipe[0])
        close(errorPipe[0])
        var waitStatus: Int32 = 0
        while waitpid(processID, &waitStatus, 0) == -1 && errno == EINTR {}
        // A git killed by a signal reports it as 128 + the signal, as shells do.
        let status = waitStatus & 0x7f == 0 ? (waitStatus >> 8) & 0xff : 128 + (waitStatus & 0x7f)
        var message = String(decoding: errors, as: UTF8.self)
        while message.last?.isNewline == true { message.removeLast() }
        return .success(GitOutput(status: status, output: output, errors: message))
    }

    private static let spawnLock = Condition()

    /// A descriptor of a temporary file that holds `bytes`, read from its start, and already unlinked (so nothing is
    /// left behind); closed on exec, as git gets it through dup2.
    private static func unlinkedFile(holding bytes: [UInt8]) -> Int32? {
        let folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder + "/highlight-ls-git-XXXXXX").utf8CString)
        // Made under the spawn lock (the caller holds none yet): no other git can inherit it before FD_CLOEXEC.
        spawnLock.lock()
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        spawnLock.unlock()
        guard descriptor >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                close(descriptor)
                return nil
            }
            written += count
        }
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Reads two pipes to their ends, whichever has data first.
    private static func readBoth(_ first: Int32, _ second: Int32) -> ([UInt8], [UInt8]) {
        var buffers: [[UInt8]] = [[], []]
        var descriptors = [pollfd(fd: first, events: Int16(POLLIN), revents: 0), pollfd(fd: second, events: Int16(POLLIN), revents: 0)]
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while descriptors.contains(where: { $0.fd >= 0 }) {
            guard poll(&descriptors, nfds_t(descriptors.count), -1) >= 0 else {
                if errno == EINTR { continue }
                break
            }
            for index in descriptors.indices where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(descriptors[index].fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    buffers[index].append(contentsOf: chunk[..<count])
                } else if count == 0 || errno != EINTR && errno != EAGAIN {
                    // A negative fd is skipped by poll: the end of this pipe.
                    descriptors[index].fd = -1
                }
            }
        }
        return (buffers[0], buffers[1])
    }

    /// This process's environment with `overrides` set in it.
    private static func processEnvironment(setting overrides: [String: String]) -> [String] {
        var entries: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
            if overrides[name] == nil { entries.append(text) }
            pointer += 1
        }
        return entries + overrides.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }

    /// Calls `body` with a NULL-terminated array of C strings for `strings`, valid during the call (a string with a NUL
    /// byte ends there, as the system would read it).
    private static func withCStrings<R>(_ strings: [[UInt8]], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { bytes -> UnsafeMutablePointer<CChar>? in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
            copy[bytes.count] = 0
            return copy
        }
        defer { pointers.forEach { $0?.deallocate() } }
        return body(pointers + [nil])
    }

    private static func systemReason() -> String { String(cString: strerror(errno)) }
}
