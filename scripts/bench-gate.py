#!/usr/bin/env python3
"""The gate on a real tree: `check` next to `check --since HEAD~1` (and `--staged`), on the Python
standard library made into a git repository.

Usage:
    scripts/bench-gate.py [--binary PATH] [--before PATH] [--runs N] [--work DIR]

The standard library as installed (`sysconfig`'s stdlib, without site-packages, dist-packages and
__pycache__) is copied into DIR/stdlib and committed, with a `.highlights.json` whose `fixme` rule
(FIXME, BUG, XXX in comments) is blocking; a second commit adds five FIXME comments to five files.
The driver first checks the answer: `check --since HEAD~1` must report exactly those five matches
(path and line), and plain `check` the five among all the others. Then it times, in turns (each
command first in half the rounds, after a warm-up run of each), from spawn to exit with the output
read through a pipe: `check`, `check --since HEAD~1`, `check --staged` (nothing staged: every file
unchanged) and, with `--before`, `check` of another build (to show what a change costs). Prints
the median, min-max and the ratio to `check` of the same build. Needs git.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys

from bench_harness import copy_python_stdlib, median, time_in_turns

CONFIG = '{ "rules": [ { "name": "fixme", "words": ["FIXME", "BUG", "XXX"], "wholeWord": true, "scope": "comments", "blocking": true } ] }\n'
FILES = ["json/decoder.py", "email/utils.py", "argparse.py", "collections/__init__.py", "http/client.py"]
GIT_ENV = {"GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "bench@example.invalid", "GIT_COMMITTER_NAME": "Bench",
           "GIT_COMMITTER_EMAIL": "bench@example.invalid", "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
           "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"}


def git(repository, *args):
    subprocess.run(["git", "-C", repository, *args], check=True, env={**os.environ, **GIT_ENV},
                   stdout=subprocess.DEVNULL)


def make_repository(work):
    """The standard library, committed; then five markers, committed. Returns the repository and the five
    `path:line` the second commit adds."""
    repository = os.path.join(work, "stdlib")
    shutil.rmtree(repository, ignore_errors=True)
    copy_python_stdlib(repository, repository=True)
    with open(os.path.join(repository, ".highlights.json"), "w") as handle:
        handle.write(CONFIG)
    git(repository, "init", "-q", "-b", "main")
    git(repository, "add", "-A")
    git(repository, "commit", "-qm", "the standard library")
    rng = random.Random(5)
    added = []
    for number, name in enumerate(FILES):
        path = os.path.join(repository, name)
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        at = rng.randrange(len(lines) // 2, len(lines))
        indent = len(lines[at]) - len(lines[at].lstrip())
        lines.insert(at, " " * indent + f"# FIXME: added by the branch, {number}")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines))
        added.append(f"./{name}:{at + 1}")
    git(repository, "add", "-A")
    git(repository, "commit", "-qm", "five markers")
    return repository, sorted(added)


def reported(binary, repository, *args):
    """The `path:line` of each match `check` prints."""
    output = subprocess.run([binary, "check", "--allow-skipped", *args], cwd=repository, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL).stdout.decode()
    return sorted(":".join(line.split(":")[:2]) for line in output.splitlines())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/highlight-ls")
    parser.add_argument("--before", default=None, help="another build, whose check is timed beside")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--work", default="/tmp/highlight-bench-gate")
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    os.makedirs(options.work, exist_ok=True)
    repository, added = make_repository(options.work)

    since = reported(binary, repository, "--since", "HEAD~1")
    if since != added:
        sys.exit(f"bench-gate: check --since HEAD~1 reported {since}, not the five markers added: {added}")
    everything = reported(binary, repository)
    if not set(added) <= set(everything):
        sys.exit("bench-gate: check did not report the five markers added")
    print(f"check --since HEAD~1 reports exactly the {len(added)} markers added; check reports {len(everything)} "
          f"in {len(set(p.split(':')[0] for p in everything))} files", file=sys.stderr)

    commands = [("check", [binary, "check", "--allow-skipped", "-q"]),
                ("check --since HEAD~1", [binary, "check", "--allow-skipped", "-q", "--since", "HEAD~1"]),
                ("check --staged", [binary, "check", "--allow-skipped", "-q", "--staged"])]
    if options.before:
        commands.append(("check, the --before build", [os.path.abspath(options.before), "check", "--allow-skipped", "-q"]))
    times = dict(zip([label for label, _ in commands],
                     time_in_turns([args for _, args in commands], options.runs, cwd=repository)))
    base = median(times["check"])
    print("| command | median ms (min-max) | ratio to check |")
    print("|---|---:|---:|")
    for label, values in times.items():
        middle = median(values)
        print(f"| `{label}` | {middle * 1000:.1f} ({min(values) * 1000:.1f}-{max(values) * 1000:.1f}) | "
              f"{middle / base:.2f} |")


if __name__ == "__main__":
    main()
