import Foundation
import LanguageServer

// highlight-ls: serve LSP on stdio (the default), or print / list highlights of files.

let usage = """
    highlight-ls \(ServerInfo.version): highlights TODO, FIXME, ticket ids and your own words in any LSP editor.

    Usage:
      highlight-ls [--stdio] [--clientProcessId PID]   serve the Language Server Protocol on stdin/stdout
      highlight-ls print [--config FILE] FILE...         show files with their highlights as ANSI colours
      highlight-ls list [--config FILE] [--json] PATH... print every match as path:line:column: rule: text
      highlight-ls check [--config FILE] PATH...         print matches of "blocking" rules; exit 1 when there are any
      highlight-ls --version | --help

    Without --config, the nearest .highlights.json in the current directory or its parents is used,
    on top of the built-in rules (TODO, FIXME, HACK, NOTE, ...).
    """

var arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "--version", "-V":
    print("highlight-ls \(ServerInfo.version)")
case "--help", "-h", "help":
    print(usage)
case "print", "list", "check":
    let command = arguments.removeFirst()
    exit(runFileCommand(command, arguments: arguments))
default:
    var clientProcessID: Int32?
    var index = 0
    while index < arguments.count {
        let argument = arguments[index]
        if argument == "--clientProcessId", index + 1 < arguments.count {
            clientProcessID = Int32(arguments[index + 1])
            index += 1
        } else if argument.hasPrefix("--clientProcessId=") {
            clientProcessID = Int32(argument.dropFirst("--clientProcessId=".count))
        } else if argument != "--stdio" {
            FileHandle.standardError.write(Data("highlight-ls: unknown argument \(argument)\n\n\(usage)\n".utf8))
            exit(2)
        }
        index += 1
    }
    exit(StdioRunner.run(clientProcessID: clientProcessID))
}
