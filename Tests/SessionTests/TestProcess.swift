import Foundation

/// Programs the tests run besides highlight-ls (git, bash), one way: stdout captured, stderr dropped.
enum TestProcess {
    /// Runs `executable` with `arguments` in `directory`, with `environment` set over this process's; returns its exit
    /// status and what it wrote to stdout.
    static func run(
        _ executable: String, _ arguments: [String], in directory: URL, environment: [String: String] = [:]
    ) throws -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// git's environment for a commit by `name` <`email`> at `date` (author and committer alike), without the user's
    /// or the system's configuration, its messages in English.
    static func gitEnvironment(name: String, email: String, date: String) -> [String: String] {
        [
            "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email,
            "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date, "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
            "LC_ALL": "C",
        ]
    }
}
