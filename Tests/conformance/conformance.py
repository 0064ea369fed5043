"""The protocol conformance check: every client profile's session, checked, and a report.

Usage: conformance.py [--self-test] [--profile NAME]... [--verbose] [--transcripts DIR]

Runs one session per profile (profiles.py) against ``$HIGHLIGHT_LS`` and prints, per
profile, how many server messages were checked and each violation found, by method, rule
and field, with the number of messages and of occurrences. Exits 1 when any profile has a
violation or could not exercise a feature it should have (a gap), 2 on a usage error.
``--self-test`` runs the checker's own test first (selftest.py): recorded valid messages pass,
and each deliberately broken one is caught.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from checker import Checker
from profiles import PROFILES, Profile
from session import Session, run_session

#: Responses every session must have checked, by the request's method.
EXERCISED = [
    "initialize", "shutdown", "textDocument/semanticTokens/full", "textDocument/semanticTokens/full/delta",
    "textDocument/semanticTokens/range", "highlight/decorations", "highlight/matches", "textDocument/documentLink",
    "textDocument/documentSymbol", "textDocument/documentColor", "textDocument/colorPresentation",
    "textDocument/diagnostic", "textDocument/hover", "textDocument/codeAction", "workspace/executeCommand",
    "workspace/symbol", "highlight/counts", "$/progress",
]


def expected_messages(profile: Profile) -> list[str]:
    """The methods a profile's session must have received, given what it announced."""
    expected = list(EXERCISED)
    if not profile.announces("textDocument.diagnostic"):
        expected.append("textDocument/publishDiagnostics")
    options = profile.initialization_options or {}
    if options.get("decorations") or profile.announces("experimental.highlightDecorations"):
        expected.append("highlight/publishDecorations")
    if profile.announces("window.workDoneProgress"):
        expected.append("window/workDoneProgress/create")
    if profile.announces("workspace.configuration"):
        expected.append("workspace/configuration")
    if profile.announces("workspace.semanticTokens.refreshSupport"):
        expected.append("workspace/semanticTokens/refresh")
    if profile.announces("textDocument.semanticTokens.dynamicRegistration") or profile.announces(
            "workspace.didChangeWatchedFiles.dynamicRegistration"):
        expected.append("client/registerCapability")
    return expected


def report(profile: Profile, checker: Checker, session: Session, seconds: float, verbose: bool) -> tuple[int, int]:
    """Prints one profile's result; (violations, gaps)."""
    kinds = checker.kinds
    checked = sum(kinds.values())
    gaps = list(session.gaps) + [f"no {method} was received" for method in expected_messages(profile)
                                 if not checker.methods.get(method)]
    print(f"== {profile.name}: {checked} messages checked ({kinds['response']} responses, "
          f"{kinds['notification']} notifications, {kinds['request']} requests), encoding {checker.encoding}, "
          f"{len(checker.violations)} violations in {len({v.seq for v in checker.violations})} messages, {seconds:.1f} s")
    items = checker.items
    print(f"   in them: {items['positions']} positions, {items['tokens']} semantic tokens, "
          f"{items['decoration ranges']} decoration ranges checked against the documents' text")
    for (method, rule, where), (messages, occurrences) in sorted(checker.summary().items()):
        example = next(v for v in checker.violations if (v.method, v.rule, v.field) == (method, rule, where))
        print(f"   {messages:3} msg {occurrences:4} x  {method}  {where}  [{rule}]  {example.why}")
    if verbose:
        for violation in checker.violations:
            print(f"      #{violation.seq} {violation.method} {violation.field} [{violation.rule}] x{violation.count}: {violation.why}")
    for gap in gaps:
        print(f"   gap: {gap}")
    return len(checker.violations), len(gaps)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--self-test", action="store_true", help="run the checker's own test first")
    parser.add_argument("--profile", action="append", help="run only this profile (repeatable)")
    parser.add_argument("--verbose", action="store_true", help="list every violating message")
    parser.add_argument("--transcripts", type=Path, help="write each session's messages to DIR/PROFILE.jsonl")
    arguments = parser.parse_args()

    if arguments.self_test:
        import selftest
        failures = selftest.run()
        if failures:
            for failure in failures:
                print(f"self-test: {failure}", file=sys.stderr)
            return 1
        print(f"self-test: the checker passes {selftest.VALID_MESSAGES} recorded messages and catches all {selftest.MUTATIONS} broken ones")

    binary = os.environ.get("HIGHLIGHT_LS", str(Path(__file__).resolve().parents[2] / ".build" / "debug" / "highlight-ls"))
    if not os.access(binary, os.X_OK):
        print(f"conformance: no server binary at {binary} (set HIGHLIGHT_LS)", file=sys.stderr)
        return 2
    profiles = [p for p in PROFILES if not arguments.profile or p.name in arguments.profile]
    if not profiles:
        print(f"conformance: no profile named {arguments.profile}; the profiles are {[p.name for p in PROFILES]}", file=sys.stderr)
        return 2

    started = time.monotonic()
    totals = [0, 0, 0]
    for profile in profiles:
        with tempfile.TemporaryDirectory(prefix=f"highlight-ls-conformance-{profile.name}-") as base:
            began = time.monotonic()
            checker, session, _ = asyncio.run(run_session(binary, profile, Path(base)))
            if arguments.transcripts:
                arguments.transcripts.mkdir(parents=True, exist_ok=True)
                with open(arguments.transcripts / f"{profile.name}.jsonl", "w", encoding="utf-8") as out:
                    for direction, message in session.connection.transcript:
                        out.write(json.dumps({"dir": direction, "message": message}, ensure_ascii=False) + "\n")
            violations, gaps = report(profile, checker, session, time.monotonic() - began, arguments.verbose)
            if violations or gaps:
                tail = session.connection.stderr.decode("utf-8", "replace").strip().splitlines()[-5:]
                if gaps and tail:
                    print("   server stderr (last lines):\n      " + "\n      ".join(tail))
            totals[0] += sum(checker.kinds.values())
            totals[1] += violations
            totals[2] += gaps
    print(f"== total: {totals[0]} messages checked in {len(profiles)} profiles, {totals[1]} violations, "
          f"{totals[2]} gaps, {time.monotonic() - started:.1f} s")
    return 1 if totals[1] or totals[2] else 0


if __name__ == "__main__":
    sys.exit(main())
