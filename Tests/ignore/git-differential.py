#!/usr/bin/env python3
"""Ignore files against git itself: which files `highlight-ls list` walks must be exactly the files
`git ls-files --others --exclude-standard` reports, on random trees with random `.gitignore` files
(negations, directory-only and anchored patterns, `*`, `?`, classes, `**` anywhere), and on a copy
of a real tree with patterns drawn from its own names.

Usage: git-differential.py --binary PATH [--seed N] [--cases N] [--real-tree DIR]
Every file holds `X`; a configuration with one rule for `X` makes `list` print each walked file once.
Prints the seed of a failing case and its tree and patterns, and exits 1.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

NAMES = ["a", "b", "ab", "ba", "foo", "foo.c", "foo.h", "gen_x.c", "gen_y.h", "build-1", "build-2", "src", "{a,b}", "x{y}",
         "x.tmp", "afoob.tmp", "docs", "keep", "é", "log.txt", "a.b"]
# Braces are in names and so in patterns (git reads them as themselves, and so must we); POSIX classes
# (`[[:alpha:]]`) are left out: we do not know them.
SEGMENTS = ["{name}", "*", "*{name}*", "{name}*", "*{name}", "?{tail}", "[ab]*", "[!a]*", "**", "{name}"]


def random_tree(rng, root, depth=0):
    for _ in range(rng.randint(1, 5 if depth < 3 else 2)):
        name = rng.choice(NAMES)
        path = os.path.join(root, name)
        if os.path.exists(path):
            continue
        if depth < 3 and rng.random() < 0.45:
            os.mkdir(path)
            random_tree(rng, path, depth + 1)
        else:
            with open(path, "w") as handle:
                handle.write("X\n")


def random_pattern(rng):
    segments = []
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
        shape = rng.choice(SEGMENTS)
        name = rng.choice(NAMES)
        segments.append(shape.replace("{name}", name).replace("{tail}", name[1:] or "*"))
    pattern = "/".join(segments)
    if rng.random() < 0.2:
        pattern = "/" + pattern
    if rng.random() < 0.2:
        pattern += "/"
    if rng.random() < 0.25:
        pattern = "!" + pattern
    return pattern


def write_ignores(rng, root, patterns_for):
    directories = [root] + [os.path.join(d, n) for d, ns, _ in os.walk(root) for n in ns if n != ".git"]
    chosen = [root] + rng.sample(directories[1:], min(len(directories) - 1, rng.randint(0, 2)))
    for directory in chosen:
        with open(os.path.join(directory, ".gitignore"), "w") as handle:
            handle.write("\n".join(patterns_for(rng)) + "\n")


def walked_by_git(root):
    out = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "-z"], cwd=root,
                         capture_output=True, check=True).stdout
    paths = {os.fsdecode(p) for p in out.split(b"\0") if p}
    return {p for p in paths if not any(part.startswith(".") for part in p.split("/"))}


def walked_by_us(binary, root, config):
    result = subprocess.run([binary, "list", "--config", config, "--format", "json"], cwd=root,
                            capture_output=True)
    if result.returncode not in (0, 1):
        raise RuntimeError(f"list exited {result.returncode}: {result.stderr.decode(errors='replace')}")
    paths = set()
    for line in result.stdout.decode().splitlines():
        path = json.loads(line)["path"]
        paths.add(path[2:] if path.startswith("./") else path)
    return paths


def git_init(root):
    subprocess.run(["git", "init", "-q", root], check=True)


def describe(root):
    lines = []
    for directory, names, files in os.walk(root):
        names[:] = sorted(n for n in names if n != ".git")
        for name in sorted(files):
            path = os.path.relpath(os.path.join(directory, name), root)
            if name == ".gitignore":
                with open(os.path.join(directory, name)) as handle:
                    lines.append(f"  {path}: {handle.read().strip().splitlines()}")
            else:
                lines.append(f"  {path}")
    return "\n".join(lines)


def compare(binary, root, config, label):
    expected, actual = walked_by_git(root), walked_by_us(binary, root, config)
    if expected == actual:
        return True
    print(f"FAIL {label}\n  walked but ignored by git: {sorted(actual - expected)}\n"
          f"  kept by git, not walked: {sorted(expected - actual)}\n{describe(root)}")
    return False


def real_tree_case(rng, binary, source, work, config, index):
    root = os.path.join(work, f"real{index}")
    shutil.copytree(source, root, symlinks=True, ignore=shutil.ignore_patterns(".*"))
    # Only regular, readable text-sized files stay, each holding X, so both sides see the same tree.
    names = []
    for directory, subdirectories, files in os.walk(root):
        names.extend(subdirectories)
        for name in files:
            path = os.path.join(directory, name)
            if os.path.islink(path):
                os.unlink(path)
                continue
            names.append(name)
            with open(path, "w") as handle:
                handle.write("X\n")
    git_init(root)

    def patterns(rng):
        result = []
        for _ in range(rng.randint(3, 40)):
            name = rng.choice(names)
            stem, _, extension = name.partition(".")
            middle = name[len(name) // 3: 2 * len(name) // 3] or name
            shape = rng.choice([f"*{middle}*", f"{stem}*", f"*.{extension or 'h'}", f"{name}/", f"/{name}",
                                f"**/{name}", f"{name}/**", f"*/{name}", f"!{name}", f"!*{middle}*", f"?{name[1:]}",
                                f"[a-m]*{middle}", f"**/{stem}*/**/*.h"])
            result.append(shape)
        return result

    write_ignores(rng, root, patterns)
    return compare(binary, root, config, f"real tree {source}, case {index}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=150)
    parser.add_argument("--real-tree", action="append", default=[])
    arguments = parser.parse_args()
    binary = os.path.abspath(arguments.binary)
    work = tempfile.mkdtemp(prefix="ignore-differential-")
    config = os.path.join(work, "config.json")
    with open(config, "w") as handle:
        json.dump({"rules": [{"name": "x", "words": ["X"]}]}, handle)
    checks = failures = 0
    try:
        for case in range(arguments.cases):
            seed = arguments.seed * 1_000_003 + case
            rng = random.Random(seed)
            root = os.path.join(work, f"case{case}")
            os.mkdir(root)
            random_tree(rng, root)
            git_init(root)
            write_ignores(rng, root, lambda r: [random_pattern(r) for _ in range(r.randint(1, 8))])
            checks += 1
            if not compare(binary, root, config, f"seed {seed}"):
                failures += 1
                if failures >= 3:
                    break
            shutil.rmtree(root)
        for index, source in enumerate(arguments.real_tree):
            for repeat in range(3):
                rng = random.Random(arguments.seed * 7919 + index * 31 + repeat)
                checks += 1
                if not real_tree_case(rng, binary, source, work, config, index * 3 + repeat):
                    failures += 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"git-differential: {checks - failures}/{checks} trees agree with git (seed {arguments.seed})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
