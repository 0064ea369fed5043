"""The CI gate on a tree nobody vetted: `check` cannot be skipped silently.

A file whose name is not UTF-8 is searched and shown escaped (`\\xNN`) in every format; a file or
folder that cannot be read is named on stderr with the reason, `check` exits 2 and `list` exits 1;
a `.highlights.json` that is a FIFO, a link loop or a dangling link is an error, promptly. Names and
texts that would forge a workflow command or send an escape sequence are shown inert in every
format, and `init` never writes through a link.

Unreadable entries as root: root reads everything whatever the mode, and CI runs as root. The
commands then run under `setpriv` (util-linux) with CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH
dropped from the inheritable and bounding sets: still uid 0, but held to the file modes, so a
mode-000 file or folder is refused with EACCES exactly as for any user. Every test first checks
that the restriction really denies a read, so it cannot pass vacuously.
"""
from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

BINARY = os.environ["HIGHLIGHT_LS"]

CONFIG = '{ "rules": [ { "name": "nomerge", "words": ["DO NOT MERGE"], "blocking": true } ] }\n'
BAD_NAME = b"bad\xff\xfe name.txt"
SHOWN = "bad\\xFF\\xFE name.txt"

# Held to the file modes even as root (see the module's comment).
DROP_DAC = ["setpriv", "--inh-caps=-dac_override,-dac_read_search", "--bounding-set=-dac_override,-dac_read_search"]


def restricted() -> list[str]:
    return DROP_DAC if os.geteuid() == 0 else []


def run(args: list[str], cwd: pathlib.Path, prefix: list[str] | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    # A hang (a FIFO opened for reading) fails the test by this timeout instead of blocking CI.
    return subprocess.run([*(prefix or []), BINARY, *args], cwd=cwd, capture_output=True, env=env, timeout=30)


@pytest.fixture
def project(tmp_path: pathlib.Path) -> pathlib.Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    (root / ".highlights.json").write_text(CONFIG, encoding="utf-8")
    (root / "clean.txt").write_text("fine\n", encoding="utf-8")
    return root


def write_bad_name(root: pathlib.Path) -> None:
    with open(os.path.join(os.fsencode(root), BAD_NAME), "wb") as handle:
        handle.write("é DO NOT MERGE\n".encode())


def test_a_name_that_is_not_utf8_is_searched_and_shown_escaped(project: pathlib.Path) -> None:
    write_bad_name(project)
    text = run(["check"], project)
    assert text.returncode == 1, text.stderr
    assert text.stdout.decode("utf-8") == f"./{SHOWN}:1:4: nomerge: DO NOT MERGE\n"
    assert run(["list", "--format", "text"], project).stdout.decode("utf-8") == f"./{SHOWN}:1:4: nomerge: DO NOT MERGE\n"

    lines = run(["check", "--format", "json"], project).stdout.decode("utf-8").splitlines()
    assert [json.loads(line)["path"] for line in lines] == [f"./{SHOWN}"]

    sarif = json.loads(run(["check", "--format", "sarif"], project).stdout.decode("utf-8"))
    (result,) = sarif["runs"][0]["results"]
    # The URI names the file exactly: its bytes, percent-encoded.
    assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "bad%FF%FE%20name.txt", "uriBaseId": "SRCROOT"}

    github = run(["check", "--format", "github"], project).stdout.decode("utf-8")
    assert github.startswith(f"::error file={SHOWN},line=1,col=3,"), github

    junit = ET.fromstring(run(["check", "--format", "junit"], project).stdout)
    failing = [case.get("name") for case in junit.iter("testcase") if case.find("failure") is not None]
    assert failing == [f"./{SHOWN}"]


def test_a_folder_whose_name_is_not_utf8_is_walked(project: pathlib.Path) -> None:
    folder = os.path.join(os.fsencode(project), b"dir\xe9")
    os.mkdir(folder)
    with open(os.path.join(folder, b"inner.txt"), "wb") as handle:
        handle.write(b"DO NOT MERGE\n")
    result = run(["check"], project)
    assert result.returncode == 1, result.stderr
    assert result.stdout.decode("utf-8") == "./dir\\xE9/inner.txt:1:1: nomerge: DO NOT MERGE\n"


def make_unreadable(path: pathlib.Path, project: pathlib.Path) -> None:
    path.chmod(0)
    # The restriction must really deny the read, or the test would prove nothing.
    probe = subprocess.run([*restricted(), "cat", str(path)] if path.is_file() else [*restricted(), "ls", str(path)],
                           cwd=project, capture_output=True)
    assert probe.returncode != 0, f"reading {path} was not denied; cannot test unreadable entries here"


@pytest.mark.parametrize("kind", ["file", "folder"])
def test_an_unreadable_entry_fails_check_and_list(project: pathlib.Path, kind: str) -> None:
    if kind == "file":
        target = project / "secret.txt"
        target.write_text("DO NOT MERGE\n", encoding="utf-8")
        ending = "it was not searched"
    else:
        target = project / "secret"
        target.mkdir()
        (target / "a.txt").write_text("DO NOT MERGE\n", encoding="utf-8")
        ending = "its files were not searched"
    make_unreadable(target, project)
    try:
        check = run(["check"], project, restricted())
        assert check.returncode == 2, check
        assert f"highlight-ls: cannot read ./{target.name}: permission denied; {ending}\n" in check.stderr.decode("utf-8")
        assert check.stdout == b""
        listed = run(["list"], project, restricted())
        assert listed.returncode == 1, listed
        assert b"permission denied" in listed.stderr
        # Quiet, list answers whether something matched, as rg -q does: what it could not read is an error (2) only
        # when nothing matched, and is still named on stderr.
        quiet = run(["list", "-q"], project, restricted())
        assert (quiet.returncode, quiet.stdout) == (2, b""), quiet
        assert b"permission denied" in quiet.stderr
        (project / "found.txt").write_text("DO NOT MERGE\n", encoding="utf-8")
        assert run(["list", "-q"], project, restricted()).returncode == 0
        (project / "found.txt").unlink()
        # --stats counts it among the skipped.
        stats = run(["check", "--stats"], project, restricted()).stderr.decode("utf-8").splitlines()[-1]
        assert re.search(r"; skipped: 0 binary, 0 over the size limit, 1 unreadable; ", stats), stats

        junit = ET.fromstring(run(["check", "--format", "junit"], project, restricted()).stdout)
        errors = [case.find("error").get("message") for case in junit.iter("testcase") if case.find("error") is not None]
        assert len(errors) == 1 and "permission denied" in errors[0], errors
        sarif = json.loads(run(["check", "--format", "sarif"], project, restricted()).stdout)
        invocation = sarif["runs"][0]["invocations"][0]
        assert invocation["executionSuccessful"] is False
        assert any("permission denied" in n["message"]["text"] for n in invocation["toolExecutionNotifications"])
        github = run(["check", "--format", "github"], project, restricted()).stdout.decode("utf-8")
        assert f"file={target.name}" in github and "permission denied" in github, github
    finally:
        target.chmod(0o755)


def test_links_named_on_the_command_line_that_lead_nowhere_fail(project: pathlib.Path) -> None:
    (project / "dangling").symlink_to("nowhere.txt")
    (project / "loop").symlink_to("loop")
    for name, reason in [("dangling", "no such file or directory"), ("loop", "too many levels of symbolic links")]:
        check = run(["check", name], project)
        assert check.returncode == 2, check
        assert reason in check.stderr.decode("utf-8").lower(), check.stderr
    # In a walk, links are not followed (as documented) and name nothing to search.
    assert run(["check"], project).returncode == 0


@pytest.mark.parametrize("entry", ["fifo", "loop", "dangling"])
@pytest.mark.parametrize("command", ["check", "list"])
def test_a_config_file_that_is_no_file_is_an_error_promptly(project: pathlib.Path, entry: str, command: str) -> None:
    config = project / ".highlights.json"
    config.unlink()
    expected = {
        "fifo": ".highlights.json: error: .highlights.json is not a regular file (a FIFO); it is ignored",
        "loop": ".highlights.json: error: .highlights.json is a symbolic link to .highlights.json that loops",
        "dangling": ".highlights.json: error: .highlights.json is a dangling symbolic link to gone.json: its target does not exist",
    }[entry]
    if entry == "fifo":
        os.mkfifo(config)
    elif entry == "loop":
        config.symlink_to(".highlights.json")
    else:
        config.symlink_to("gone.json")
    (project / "a.txt").write_text("DO NOT MERGE\n", encoding="utf-8")
    result = run([command], project)
    assert result.returncode == 2, result
    assert expected in result.stderr.decode("utf-8"), result.stderr
    # --allow-config-errors goes on with the built-in rules; check then has no blocking rule.
    assert run([command, "--allow-config-errors"], project).returncode == (2 if command == "check" else 0)


def test_setpriv_is_available_when_running_as_root() -> None:
    # The unreadable-entry tests rely on it as root; say so plainly if it is missing.
    if os.geteuid() == 0:
        assert shutil.which("setpriv"), "setpriv (util-linux) is needed to test unreadable entries as root"


# Names and a text that try to forge workflow commands or reach the terminal with escape sequences.
FORGED_NAME = "x\n::error file=README.md,line=1::forged\n.txt"
ESCAPE_NAME = "e\x1b[31mred\x07.txt"
ESCAPE_TEXT = "DO NOT MERGE \x1b]0;title\x07 \x1b[2J\n"


def unescape_github(value: str, is_property: bool) -> str:
    """A workflow command's value as GitHub's runner decodes it."""
    pairs = [("%0D", "\r"), ("%0A", "\n")] + ([("%3A", ":"), ("%2C", ",")] if is_property else [])
    for escaped, plain in pairs:
        value = value.replace(escaped, plain)
    return value.replace("%25", "%")


def test_hostile_names_and_texts_forge_nothing_in_any_format(project: pathlib.Path) -> None:
    (project / ".highlights.json").write_text(
        '{ "rules": [ { "name": "nomerge", "regex": "DO NOT MERGE.*", "blocking": true } ] }\n', encoding="utf-8")
    (project / FORGED_NAME).write_text("DO NOT MERGE\n", encoding="utf-8")
    (project / ESCAPE_NAME).write_text(ESCAPE_TEXT, encoding="utf-8")

    # text: one line a match, control characters as \xNN, no escape byte reaches the terminal.
    text = run(["check", "--format", "text"], project)
    assert text.returncode == 1, text.stderr
    assert text.stdout.decode("utf-8").splitlines() == [
        "./e\\x1B[31mred\\x07.txt:1:1: nomerge: DO NOT MERGE \\x1B]0;title\\x07 \\x1B[2J",
        "./x\\x0A::error file=README.md,line=1::forged\\x0A.txt:1:1: nomerge: DO NOT MERGE",
    ]

    # github: every line is one of the program's commands, parsed by the grammar GitHub documents.
    github = run(["check", "--format", "github"], project)
    assert b"\x1b" not in github.stdout and b"\x07" not in github.stdout
    command = re.compile(r"^::(error|warning|notice) ((?:[a-zA-Z]+=[^,:]*)(?:,[a-zA-Z]+=[^,:]*)*)::(.*)$")
    files = []
    for line in github.stdout.decode("utf-8").splitlines():
        match = command.match(line)
        assert match, line
        properties = dict(item.split("=", 1) for item in match.group(2).split(","))
        files.append(unescape_github(properties["file"], True))
        assert "\n" not in unescape_github(match.group(3), False)
    assert files == ["e\\x1B[31mred\\x07.txt", "x\\x0A::error file=README.md,line=1::forged\\x0A.txt"]

    # json, SARIF and JUnit escape as their formats say, and name the files exactly.
    lines = run(["check", "--format", "json"], project).stdout.decode("utf-8").splitlines()
    assert sorted(json.loads(line)["path"] for line in lines) == sorted(["./" + ESCAPE_NAME, "./" + FORGED_NAME])
    assert any(json.loads(line)["text"] == ESCAPE_TEXT.rstrip("\n") for line in lines)
    sarif = json.loads(run(["check", "--format", "sarif"], project).stdout.decode("utf-8"))
    uris = sorted(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"])
    assert uris == ["e%1B%5B31mred%07.txt", "x%0A%3A%3Aerror%20file%3DREADME.md%2Cline%3D1%3A%3Aforged%0A.txt"]
    junit = ET.fromstring(run(["check", "--format", "junit"], project).stdout)
    # XML 1.0 cannot hold most C0 controls: they become U+FFFD; a line feed in an attribute is a character reference.
    shown = "./" + ESCAPE_NAME.replace("\x1b", "\ufffd").replace("\x07", "\ufffd")
    assert sorted(case.get("name") for case in junit.iter("testcase")) == sorted(["./clean.txt", "./" + FORGED_NAME, shown])


@pytest.mark.parametrize("target", ["../outside/victim.txt", "../outside/missing.txt"])
def test_init_does_not_write_through_a_link(tmp_path: pathlib.Path, target: str) -> None:
    (tmp_path / "outside").mkdir()
    victim = tmp_path / "outside" / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".highlights.json").symlink_to(target)
    result = run(["init", "--force", "repo"], tmp_path)
    assert result.returncode == 1
    assert f".highlights.json is a symbolic link to {target}" in result.stderr.decode("utf-8")
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert sorted(p.name for p in (tmp_path / "outside").iterdir()) == ["victim.txt"]
