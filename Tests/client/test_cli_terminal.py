"""`highlight-ls` with no command, run by hand: on a terminal it says, in one line on stderr, that it
waits for an LSP client and what to run instead, then serves as ever; an editor's pipe hears nothing
of it. The terminal is a real pseudo-terminal (Python's `pty`), ended with Ctrl-D as a user would.
"""
from __future__ import annotations

import os
import pty
import subprocess

BINARY = os.environ["HIGHLIGHT_LS"]
WAITING = "waiting for an LSP client on stdin"


def test_a_terminal_is_told_what_the_server_waits_for() -> None:
    controller, terminal = pty.openpty()
    process = subprocess.Popen([BINARY], stdin=terminal, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.close(terminal)
    try:
        first = process.stderr.readline().decode("utf-8")
    finally:
        # Ctrl-D at the start of a line ends a terminal's input: the server stops as on a closed pipe.
        os.write(controller, b"\x04")
        output, rest = process.communicate(timeout=30)
        os.close(controller)
    assert first.startswith(f"highlight-ls: {WAITING}"), first
    assert "'highlight-ls print FILE'" in first and "'highlight-ls list [PATH]'" in first, first
    assert WAITING not in rest.decode("utf-8")
    # stdout carries protocol messages only, and none was asked for.
    assert output == b""
    # Input ended without shutdown: the exit code of a server whose client went away.
    assert process.returncode == 1


def test_a_pipe_hears_nothing_of_it() -> None:
    result = subprocess.run([BINARY], stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
    assert WAITING not in result.stderr.decode("utf-8")
    assert result.stdout == b""
