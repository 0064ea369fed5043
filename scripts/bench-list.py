#!/usr/bin/env python3
"""End-to-end benchmark: `highlight-ls list` next to `rg -n --column -o`, same words or regex.

Usage:
    scripts/bench-list.py [--binary PATH] [--runs N] [--only TEXT] [--seed N]... [--work DIR]
    scripts/bench-list.py --check [--binary PATH] [--work DIR]     (CI: matches equal rg's, no timing)

Each case runs both commands in turns, each first in half the rounds (after a warm-up run of
each), so that a burst of load on a shared machine falls on both; and it does so twice: on all
cores (neither gets -j) and on one (`-j 1` for both: rg searches with one thread, highlight-ls
starts no thread). Each run is timed from its spawn to its exit, with its output read through a
pipe (neither program sees /dev/null). For each of the two it prints the median, the spread
(min-max) over the runs, the ratio of medians (highlight-ls / rg), and the number of matches each
printed, which must be equal (the table says **differ** when one of the four is not). Cases are
printed worst first, by the worse of their two ratios. rg gets `--max-filesize 8M` and the words
longest first; `commands.txt` in the work folder holds the command lines.

Corpora, none of them tuned for the engine (the generated ones are made once in the work folder):
  - "generated", one per seed: 100 MB of source-like lines cut into 16 files, from a vocabulary
    of random identifiers made for that seed (letters drawn with English frequencies, so that
    they share bytes with everything else); the searched words (1, 10, 100, 1,000) are drawn at
    random from the identifiers present; the ticket-id regex `\\b[A-Z]{2,}-[0-9]+\\b`; 10 and
    100 words in any case (`"caseSensitive": false` next to `rg -i`, whole-word next to
    `rg -i -w` and not); and the same 100 MB as one single file, named on the command line;
  - "polyglot", one per seed, a second generator: 100 MB in 16 files (.c, .java, .py, .go,
    .js) of C-, Java-, Python-, Go- and JavaScript-like statements, comments (`//`, `#`,
    `/* */`, Javadoc) with markers, ticket ids and sentences in German, French, Spanish, Greek,
    Japanese, Chinese, Korean and Russian, string literals with emoji, minified lines of
    200-2,000 bytes next to blank and brace-only ones; its own vocabulary of programming words
    joined in camelCase, snake_case, PascalCase and SCREAMING_CASE (used in dotted calls), about
    3% of them with an accented Latin, Greek, CJK, Hangul or Cyrillic piece; the same cases as
    above but the single file;
  - real trees, each read once before its cases so that both commands search the page cache,
    not the disk: the Python standard library as installed, copied once into the work folder
    without its `site-packages`, `dist-packages` and `__pycache__` (both commands search the copy,
    the same tree as scripts/bench-gate.py's),
    `/usr/include` and `/opt/swift/usr/lib`; on each, `TODO FIXME XXX HACK BUG` as whole words,
    the built-in words as one whole-word rule (next to `rg -w` with the same words), the built-in
    rules themselves (comments only, so their counts differ from rg's by design), and 1, 10 and
    100 words drawn from the tree.

--check (CI, with a debug build: small corpora, a few seconds with a release one) compares every
match (path, line, column in bytes, text) with rg's on 3 MB of the first generator (seeds 1, 2
and 3) and 2 MB of the polyglot one (seeds 1 and 2): 1 to 1,000 words, the ticket regex, whole
words, words in any case (whole-word and not), on the polyglot corpora non-ASCII words (as they
are, in any case, whole-word), and 100 words with `-j 1`.

Needs `rg` (Debian: `apt-get install -y ripgrep`).
"""

import argparse
import functools
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import sysconfig

from bench_harness import copy_python_stdlib, median, time_in_turns

MARKERS = ["TODO", "FIXME", "XXX", "HACK", "BUG"]
BUILT_IN_WORDS = ["FIXME", "BUG", "XXX", "TODO", "HACK", "NOTE", "INFO", "REVIEW", "OPTIMIZE", "DEPRECATED"]
TICKET_REGEX = r"\b[A-Z]{2,}-[0-9]+\b"
LETTERS = "etaoinsrhldcumfpgwybvkxjqz"
LETTER_WEIGHTS = [12.7, 9.1, 8.2, 7.5, 7.0, 6.7, 6.3, 6.0, 6.1, 4.0, 4.3, 2.8, 2.8, 2.4, 2.2, 1.9, 2.0, 2.4, 2.0,
                  1.5, 1.0, 0.8, 0.15, 0.15, 0.1, 0.07]
IDENTIFIER = re.compile(rb"[A-Za-z_][A-Za-z0-9_]{5,30}")


def vocabulary(rng, count):
    """Random identifiers: camelCase or snake_case joins of pronounceable-ish random pieces."""
    words = set()
    result = []
    while len(result) < count:
        pieces = ["".join(rng.choices(LETTERS, LETTER_WEIGHTS, k=rng.randint(2, 6))) for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.5:
            word = pieces[0] + "".join(p.capitalize() for p in pieces[1:])
        else:
            word = "_".join(pieces)
        if rng.random() < 0.1:
            word += str(rng.randint(0, 99))
        if len(word) >= 3 and word not in words:
            words.add(word)
            result.append(word)
    return result


def made_once(generate):
    """A corpus generator `generate(directory, seed, ...)`, run only while `directory` holds no `.done` file: the
    first call makes the folder, runs it and keeps the sorted identifiers it returns in `.done`; a later call returns
    them from there without generating anything."""
    @functools.wraps(generate)
    def generate_once(directory, seed, **sizes):
        marker = os.path.join(directory, ".done")
        if os.path.exists(marker):
            with open(marker) as handle:
                return json.load(handle)
        os.makedirs(directory, exist_ok=True)
        ordered = sorted(generate(directory, seed, **sizes))
        with open(marker, "w") as handle:
            json.dump(ordered, handle)
        return ordered
    return generate_once


@made_once
def generate_corpus(directory, seed, total_bytes=100 << 20, files=16):
    """Writes `files` files of source-like lines (about `total_bytes` in all) and returns the identifiers used."""
    rng = random.Random(seed)
    vocab = vocabulary(rng, 5000)
    # A Zipf-like use of the vocabulary: a few identifiers are everywhere, most are rare.
    weights = list(itertools.accumulate(1.0 / (rank + 1) ** 0.9 for rank in range(len(vocab))))
    keywords = ["let", "var", "func", "return", "if", "else", "for", "while", "struct", "import", "self", "static"]
    projects = ["".join(rng.choices("ABCDEFGHIJKLMNOPQRSTUVWXYZ", k=rng.randint(2, 4))) for _ in range(8)]
    non_ascii = ["naïve", "café", "Straße", "日本語", "中文注释", "🔥", "Ωμέγα", "привет"]
    used = set()
    per_file = total_bytes // files
    for index in range(files):
        parts = []
        size = 0
        while size < per_file:
            names = rng.choices(vocab, cum_weights=weights, k=4)
            used.update(names)
            indent = "    " * rng.randint(0, 3)
            kind = rng.randrange(100)
            if kind < 6:
                line = f"{indent}// {rng.choice(['TODO', 'FIXME', 'NOTE', 'todo'])}: {names[0]} {names[1]} see " \
                       f"{rng.choice(projects)}-{rng.randint(1, 9999)}"
            elif kind < 10:
                line = f"{indent}// {rng.choice(non_ascii)} {names[0]} {rng.choice(non_ascii)}"
            elif kind < 14:
                line = f"{indent}\"{names[0]} {names[1]} {rng.randint(0, 10**6)}\","
            elif kind < 18:
                line = ""
            else:
                line = f"{indent}{rng.choice(keywords)} {names[0]} = {names[1]}.{names[2]}({names[3]}, {rng.randint(0, 999)})"
            parts.append(line)
            size += len(line.encode()) + 1
        with open(os.path.join(directory, f"part{index:02}.src"), "w", encoding="utf-8") as handle:
            handle.write("\n".join(parts) + "\n")
    return used


MORPHEMES = ["get", "set", "add", "remove", "find", "load", "save", "parse", "render", "build", "update", "handle",
             "create", "delete", "init", "read", "write", "open", "close", "buffer", "node", "tree", "list", "map",
             "queue", "stack", "cache", "index", "count", "size", "length", "value", "key", "item", "entry", "record",
             "user", "account", "session", "token", "request", "response", "client", "server", "config", "option",
             "event", "listener", "handler", "context", "state", "store", "model", "view", "controller", "service",
             "factory", "manager", "provider", "adapter", "helper", "util", "stream", "socket", "packet", "frame",
             "image", "pixel", "vector", "matrix", "point", "rect", "color", "style", "layout", "widget", "button",
             "label", "field", "form", "input", "output", "error", "result", "status", "code", "message", "log",
             "trace", "debug", "timer", "clock", "date", "time", "zone", "locale", "path", "file", "dir", "name",
             "type", "kind", "flag", "mode", "level", "max", "min", "total", "sum", "avg", "delta", "offset", "limit",
             "page", "cursor", "batch", "chunk", "block", "pool", "thread", "task", "job", "worker", "retry", "auth",
             "hash", "sign", "encode", "decode", "merge", "split", "sort", "filter", "reduce", "apply", "bind"]
# Non-ASCII pieces of identifiers: accented Latin, Greek (with a final sigma), CJK, Hangul.
NON_ASCII_MORPHEMES = ["größe", "überprüfen", "façade", "naïve", "señal", "café", "déjà", "ação", "élan", "København",
                       "λόγος", "μέτρο", "ταχύτητα", "Σφάλμα", "αριθμός", "δεδομένα", "変数", "数据", "處理", "関数",
                       "목록", "значение", "ошибка"]
PROSE = ["the", "this", "when", "should", "never", "before", "after", "returns", "value", "because", "otherwise",
         "cannot", "must", "be", "called", "with", "lock", "held", "see", "also", "note", "that", "for", "each", "in",
         "order", "and", "or", "not", "is", "a", "an", "of", "to", "on", "we", "it", "may", "fail", "here"]
NON_ASCII_PROSE = ["Überprüft die Größe des Puffers", "à réécrire avant la fusion, déjà signalé",
                   "η τιμή πρέπει να είναι θετική", "この関数はスレッドセーフではない", "缓存未命中时重新加载",
                   "여기서 재시도", "проверить значение перед записью", "señal recibida — ¿qué hacer?"]
EMOJI = ["🔥", "✅", "🚀", "⚠️", "🐛", "😀", "👍🏽", "🇫🇷", "✨"]
C_TYPES = ["int", "size_t", "char *", "const char *", "uint8_t", "double", "struct node *", "void *", "bool"]


def polyglot_vocabulary(rng, count):
    """Source-like identifiers joined from programming words: camelCase, snake_case, PascalCase, SCREAMING_CASE,
    dotted-call parts, some with digits, about 3% with a non-ASCII piece."""
    words = set()
    result = []
    while len(result) < count:
        pieces = rng.sample(MORPHEMES, rng.choice([1, 2, 2, 2, 3, 3, 4]))
        if rng.random() < 0.03:
            pieces[rng.randrange(len(pieces))] = rng.choice(NON_ASCII_MORPHEMES)
        style = rng.random()
        if style < 0.40:
            word = pieces[0] + "".join(p[:1].upper() + p[1:] for p in pieces[1:])
        elif style < 0.65:
            word = "_".join(pieces)
        elif style < 0.85:
            word = "".join(p[:1].upper() + p[1:] for p in pieces)
        elif style < 0.93:
            word = "_".join(p.upper() for p in pieces)
        else:
            word = "_" + "_".join(pieces)
        if rng.random() < 0.08:
            word += str(rng.randint(0, 64))
        if len(word) >= 3 and word not in words:
            words.add(word)
            result.append(word)
    return result


@made_once
def generate_polyglot_corpus(directory, seed, total_bytes=100 << 20, files=16):
    """The second generator: C-, Java-, Python-, Go- and JavaScript-like statements, comments and string literals,
    minified lines of 200-2,000 bytes next to blank and brace-only ones, non-ASCII identifiers, comments and emoji in
    strings; `files` files of about `total_bytes` in all. Returns the identifiers used."""
    rng = random.Random(seed * 104729 + 17)
    vocab = polyglot_vocabulary(rng, 8000)
    weights = list(itertools.accumulate(1.0 / (rank + 1) ** 1.1 for rank in range(len(vocab))))
    projects = ["".join(rng.choices("ABCDEFGHIJKLMNOPQRSTUVWXYZ", k=rng.randint(2, 5))) for _ in range(6)]
    used = set()

    def ident(form=None):
        name = rng.choices(vocab, cum_weights=weights)[0]
        if form is not None:
            name = form(name)
        used.add(name)
        return name

    def cap(name):
        return name[:1].upper() + name[1:]

    def prose(n):
        return " ".join(rng.choice(PROSE) if rng.random() < 0.7 else ident() for _ in range(n))

    def comment_text():
        kind = rng.randrange(10)
        if kind < 2:
            return f"{rng.choice(['TODO', 'FIXME', 'XXX', 'HACK', 'BUG', 'todo', 'Fixme'])}({ident()}): {prose(5)} " \
                   f"{rng.choice(projects)}-{rng.randint(1, 99999)}"
        if kind < 4:
            return rng.choice(NON_ASCII_PROSE) + " " + ident()
        return prose(rng.randint(3, 12))

    def string_literal():
        if rng.random() < 0.3:
            return f"\"{prose(3)} {rng.choice(EMOJI)} {ident()}\""
        return rng.choice([lambda: f"'{ident()}'", lambda: f"\"{ident()}: %d\"", lambda: f"`${{{ident()}}}/{ident()}`",
                           lambda: f"\"{prose(4)}\""])()

    def call():
        return f"{ident()}.{ident()}({', '.join(ident() for _ in range(rng.randint(0, 3)))})"

    def minified(limit):
        parts = []
        size = 0
        while size < limit:
            piece = rng.choice([
                lambda: f"var {ident()}={ident()}.{ident()}({ident()}),{ident()}={ident()}[{rng.randint(0, 99)}];",
                lambda: f"function {ident()}({ident()},{ident()}){{return {ident()}.{ident()}}}",
                lambda: f"if(!{ident()}){{{ident()}={string_literal()}}}else{{{ident()}++}}",
                lambda: f"{ident()}.prototype.{ident()}=function(){{return this.{ident()}}};",
                lambda: f"{{\"{ident()}\":{rng.randint(0, 10**6)},\"{ident()}\":[{ident()},{ident()}]}}",
            ])()
            parts.append(piece)
            size += len(piece.encode())
        return "".join(parts)

    statements = {
        "c": [lambda i: f"{i}if ({ident()} != NULL && {ident()}->{ident()} > {rng.randint(0, 4096)}) {{",
              lambda i: f"{i}static const {rng.choice(C_TYPES)} {ident(str.upper)} = {rng.randint(0, 65535)};",
              lambda i: f"{i}for (size_t i = 0; i < {ident()}.{ident()}; ++i) {ident()}[i] = {ident()}(i);",
              lambda i: f"{i}#define {ident(str.upper)}(x) ((x) << {rng.randint(1, 16)})",
              lambda i: f"{i}/* {comment_text()} */",
              lambda i: f"{i}return {ident()}({ident()}, sizeof(*{ident()}));"],
        "java": [lambda i: f"{i}public static final {ident(cap)} {ident()} = new {ident(cap)}<>({ident()});",
                 lambda i: f"{i}@Override",
                 lambda i: f"{i}private void {ident()}({ident(cap)} {ident()}) throws IOException {{",
                 lambda i: f"{i} * @param {ident()} {comment_text()}",
                 lambda i: f"{i}{ident()}.{ident()}().stream().map({ident()}::{ident()}).collect(Collectors.toList());"],
        "python": [lambda i: f"{i}def {ident()}(self, {ident()}, {ident()}=None):",
                   lambda i: f"{i}{ident()} = {call()}",
                   lambda i: f"{i}# {comment_text()}",
                   lambda i: f"{i}return [{ident()} for {ident()} in self.{ident()} if {ident()}.{ident()}]",
                   lambda i: f"{i}raise ValueError(f\"{ident()} {{{ident()}!r}} {rng.choice(EMOJI)}\")",
                   lambda i: f"{i}from {ident()}.{ident()} import {ident()}, {ident()}"],
        "go": [lambda i: f"{i}{ident()}, err := {ident()}.{ident(cap)}(ctx, {ident()})",
               lambda i: f"{i}if err != nil {{ return nil, fmt.Errorf(\"{ident()}: %w\", err) }}",
               lambda i: f"{i}func ({rng.choice('rst')} *{ident(cap)}) {ident(cap)}({ident()} int) error {{",
               lambda i: f"{i}// {comment_text()}",
               lambda i: f"{i}{ident()} := map[string]{ident(cap)}{{{string_literal()}: {ident()}}}"],
        "js": [lambda i: f"{i}const {ident()} = await {call()};",
               lambda i: f"{i}export function {ident()}({ident()}, {{ {ident()}, {ident()} }}) {{",
               lambda i: f"{i}{ident()}.addEventListener({string_literal()}, ({ident()}) => {call()});",
               lambda i: f"{i}// {comment_text()}",
               lambda i: f"{i}let {ident()} = {string_literal()} + {ident()}?.{ident()} ?? {rng.randint(0, 9)};"],
    }
    languages = ["c", "java", "python", "go", "js"]
    extensions = {"c": "c", "java": "java", "python": "py", "go": "go", "js": "js"}
    short = ["", "", "", "}", "{", "};", "})", "]", ")", "end", "  }", "    }", "*/", "/**"]
    per_file = total_bytes // files
    for index in range(files):
        language = languages[index % len(languages)]
        parts = []
        size = 0
        while size < per_file:
            kind = rng.randrange(100)
            indent = " " * rng.choice([0, 2, 4, 4, 8, 8, 12, 16]) if language != "go" else "\t" * rng.randint(0, 3)
            if kind < 18:
                line = rng.choice(short)
            elif kind < 21:
                line = minified(rng.randint(200, 2000))
            elif kind < 85:
                line = rng.choice(statements[language])(indent)
            else:
                line = rng.choice(statements[rng.choice(languages)])(indent)
            parts.append(line)
            size += len(line.encode()) + 1
        with open(os.path.join(directory, f"part{index:02}.{extensions[language]}"), "w", encoding="utf-8") as handle:
            handle.write("\n".join(parts) + "\n")
    return used


def single_file(directory, target):
    """Concatenates a generated corpus into one file."""
    if not os.path.exists(target):
        with open(target, "wb") as out:
            for name in sorted(os.listdir(directory)):
                if name.endswith(".src"):
                    with open(os.path.join(directory, name), "rb") as source:
                        shutil.copyfileobj(source, out)
    return target


def identifiers_of_tree(root, rng, limit_files=400):
    """Identifiers present in a sample of a tree's text files."""
    paths = []
    for folder, directories, names in os.walk(root):
        directories[:] = [d for d in directories if not d.startswith(".")]
        paths.extend(os.path.join(folder, n) for n in names if not n.startswith("."))
    rng.shuffle(paths)
    found = set()
    for path in paths[:limit_files]:
        try:
            with open(path, "rb") as handle:
                data = handle.read(1 << 20)
        except OSError:
            continue
        if b"\0" in data[:8192]:
            continue
        found.update(m.decode() for m in IDENTIFIER.findall(data))
    return sorted(found)


def config_file(work, name, words=None, regex=None, builtins=False, whole=False, ignore_case=False):
    rules = []
    if words is not None:
        rule = {"name": "w", "words": words, "wholeWord": whole}
        if ignore_case:
            rule["caseSensitive"] = False
        rules.append(rule)
    if regex is not None:
        rules.append({"name": "r", "regex": regex})
    path = os.path.join(work, f"config-{name}.json")
    with open(path, "w") as handle:
        json.dump({"defaults": builtins, "rules": rules}, handle)
    return path


def rg_command(work, name, target, words=None, regex=None, whole=False, ignore_case=False):
    args = ["rg", "-n", "--column", "-o", "--max-filesize", "8M"]
    if whole:
        args.append("-w")
    if ignore_case:
        args.append("-i")
    if words is not None:
        # Longest first: ripgrep picks the first alternative at a position, highlight-ls the longest.
        ordered = sorted(words, key=lambda w: (-len(w.encode()), w))
        path = os.path.join(work, f"patterns-{name}.txt")
        with open(path, "w") as handle:
            handle.write("\n".join(ordered) + "\n")
        args += ["-F", "-f", path]
    else:
        args += ["-e", regex]
    return args + [target]


def one_core(args):
    """The same command with one searching thread (`-j 1` before the searched path, for rg and highlight-ls alike)."""
    return args[:-1] + ["-j", "1"] + args[-1:]


def count_lines(args):
    completed = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return completed.stdout.count(b"\n")


def shell_join(args):
    return " ".join(a if re.fullmatch(r"[A-Za-z0-9_./=:-]+", a) else "'" + a.replace("'", "'\\''") + "'" for a in args)


def run_case(options, label, rg_args, hls_args):
    """Times both commands in turns, on all cores and with `-j 1` (rg, ours, rg -j 1, ours -j 1, then the reverse:
    each first in half the rounds, so that a burst of load on this shared machine falls on both), after one warm-up
    run each."""
    pairs = [(rg_args, hls_args), (one_core(rg_args), one_core(hls_args))]
    counts = [(count_lines(rg), count_lines(hls)) for rg, hls in pairs]
    rg_all, hls_all, rg_one, hls_one = time_in_turns([args for pair in pairs for args in pair], options.runs)
    times = [(rg_all, hls_all), (rg_one, hls_one)]
    spread = lambda values: (min(values), max(values))
    row = {"label": label, "rg_command": shell_join(rg_args), "hls_command": shell_join(hls_args)}
    for suffix, (rg_times, hls_times), (rg_count, hls_count) in zip(("", "_j1"), times, counts):
        row["rg" + suffix] = median(rg_times)
        row["rg_spread" + suffix] = spread(rg_times)
        row["hls" + suffix] = median(hls_times)
        row["hls_spread" + suffix] = spread(hls_times)
        row["ratio" + suffix] = median(hls_times) / median(rg_times)
        row["rg_matches" + suffix] = rg_count
        row["hls_matches" + suffix] = hls_count
    row["worst"] = max(row["ratio"], row["ratio_j1"])
    print(f"{label}: rg {row['rg'] * 1000:.0f} ms, highlight-ls {row['hls'] * 1000:.0f} ms, ratio {row['ratio']:.2f}; "
          f"-j 1: rg {row['rg_j1'] * 1000:.0f} ms, highlight-ls {row['hls_j1'] * 1000:.0f} ms, "
          f"ratio {row['ratio_j1']:.2f}; matches {counts[0][0]} / {counts[0][1]}, -j 1 {counts[1][0]} / {counts[1][1]}",
          file=sys.stderr, flush=True)
    return row


def matches_of(args, ours):
    """The (path, line, column, text) of each match a command prints."""
    pattern = re.compile(rb"^(.*?):(\d+):(\d+): [A-Za-z][A-Za-z0-9_.-]*: (.*)$" if ours else rb"^(.*?):(\d+):(\d+):(.*)$")
    output = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
    found = []
    for line in output.splitlines():
        match = pattern.match(line)
        if match is None:
            sys.exit(f"bench-list: cannot read the line {line[:200]!r} of {shell_join(args)}")
        found.append(match.groups())
    return sorted(found)


def cached_python_stdlib(target):
    """The Python standard library as installed, copied to `target` without the folders
    `bench_harness.PYTHON_STDLIB_SKIPPED` names, made once: `target + ".done"` marks a finished copy, and both
    commands then search the same files."""
    marker = target + ".done"
    if not os.path.exists(marker):
        if os.path.exists(target):
            shutil.rmtree(target)
        copy_python_stdlib(target)
        open(marker, "w").close()
    return target


def warm(root):
    """Reads every file of a tree once, so that its cases time the page cache, not the disk."""
    for folder, directories, names in os.walk(root):
        for name in names:
            try:
                with open(os.path.join(folder, name), "rb") as handle:
                    while handle.read(1 << 20):
                        pass
            except OSError:
                pass


def check_cases(rng, present):
    """The cases --check runs on one small corpus: words drawn from it, the ticket regex, whole words, words in any
    case (rg -i, with and without -w), non-ASCII words when there are some, and one case with one thread (-j 1)."""
    cases = [(f"{count} words", dict(words=rng.sample(present, count))) for count in (1, 10, 100, 1000)]
    cases.append(("regex", dict(regex=TICKET_REGEX)))
    cases.append(("whole words", dict(words=rng.sample(present, 20) + BUILT_IN_WORDS, whole=True)))
    cases.append(("any case", dict(words=rng.sample(present, 20) + ["todo"], ignore_case=True)))
    cases.append(("any case whole words", dict(words=rng.sample(present, 20) + BUILT_IN_WORDS, whole=True,
                                               ignore_case=True)))
    non_ascii = [w for w in present if not w.isascii()]
    if non_ascii:
        chosen = rng.sample(non_ascii, min(10, len(non_ascii)))
        cases.append(("non-ASCII words", dict(words=chosen)))
        cases.append(("non-ASCII words any case", dict(words=chosen, ignore_case=True)))
        cases.append(("non-ASCII whole words", dict(words=chosen + rng.sample(present, 10), whole=True)))
        cases.append(("non-ASCII whole words any case", dict(words=chosen, whole=True, ignore_case=True)))
    cases.append(("100 words -j 1", dict(words=rng.sample(present, 100), threads=1)))
    return cases


def check(options, binary):
    """Small corpora of both generators, no timing: every match (path, line, column in bytes, text) equal to
    ripgrep's; exit 1 when not."""
    checks = 0
    failures = 0
    corpora = []
    for seed in (1, 2, 3):
        directory = os.path.join(options.work, f"check-{seed}")
        corpora.append((f"generated seed {seed}", f"check-{seed}", directory,
                        lambda d=directory, s=seed: generate_corpus(d, s, total_bytes=3 << 20, files=4), seed))
    for seed in (1, 2):
        directory = os.path.join(options.work, f"check-polyglot-{seed}")
        corpora.append((f"polyglot seed {seed}", f"check-polyglot-{seed}", directory,
                        lambda d=directory, s=seed: generate_polyglot_corpus(d, s, total_bytes=2 << 20, files=4),
                        seed + 1000))
    for title, tag, directory, make, rng_seed in corpora:
        present = make()
        for label, spec in check_cases(random.Random(rng_seed), present):
            threads = spec.pop("threads", None)
            name = f"{tag}-{label.replace(' ', '-')}"
            config = config_file(options.work, name, **spec)
            rg_args = rg_command(options.work, name, directory, **spec)
            ours_args = [binary, "list", "--config", config, directory]
            if threads is not None:
                rg_args, ours_args = one_core(rg_args), one_core(ours_args)
            rg = matches_of(rg_args, ours=False)
            ours = matches_of(ours_args, ours=True)
            checks += 1
            if rg != ours or not rg:
                failures += 1
                missing = sorted(set(rg) - set(ours))[:3]
                extra = sorted(set(ours) - set(rg))[:3]
                print(f"FAIL {title}, {label}: rg {len(rg)} matches, highlight-ls {len(ours)}; "
                      f"only rg: {missing}; only highlight-ls: {extra}", file=sys.stderr)
            else:
                print(f"ok {title}, {label}: {len(rg)} matches equal", file=sys.stderr)
    print(f"bench-list --check: {checks - failures} of {checks} cases equal to ripgrep's matches", file=sys.stderr)
    sys.exit(1 if failures else 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/highlight-ls")
    parser.add_argument("--runs", type=int, default=15, help="runs of each command per case (and per column)")
    parser.add_argument("--only", default=None, help="only the cases whose label contains this text")
    parser.add_argument("--seed", type=int, action="append", help="generated corpus seeds (default 1 and 2)")
    parser.add_argument("--work", default="/tmp/highlight-bench-list")
    parser.add_argument("--check", action="store_true",
                        help="no timing: compare every match with rg's on small generated corpora (for CI)")
    options = parser.parse_args()
    seeds = options.seed or [1, 2]
    binary = os.path.abspath(options.binary)
    options.work = os.path.abspath(options.work)
    os.makedirs(options.work, exist_ok=True)
    if shutil.which("rg") is None:
        sys.exit("bench-list: rg is not installed (apt-get install -y ripgrep)")
    if options.check:
        check(options, binary)

    # Each case is a label and a function that makes its corpus (once) and returns its two commands, so that
    # --only makes only the corpora its cases search.
    cases = []
    made = {}

    def once(key, make):
        if key not in made:
            made[key] = make()
        return made[key]

    def commands(name, target, builtins=False, **spec):
        config = config_file(options.work, name, builtins=builtins, **spec)
        return rg_command(options.work, name, target, **spec), [binary, "list", "--config", config, target]

    def plural(count):
        return f"{count:,} word{'s' if count > 1 else ''}"

    def generated_corpus_cases(prefix, tag, directory, draws):
        """The cases of both generators' corpora: 1 to 1,000 words, the ticket regex, 10 and 100 words in any case
        (whole-word and not). `draws()` makes the corpus (once) and returns its drawn words by count, and by
        "ci10" and "ci100" for the words in any case."""
        for count in (1, 10, 100, 1000):
            cases.append((f"{prefix}, {plural(count)}", lambda count=count:
                          commands(f"{tag}-w{count}", directory, words=draws()[count])))

        def regex_commands():
            draws()  # makes the corpus the regex searches
            return commands(f"{tag}-regex", directory, regex=TICKET_REGEX)
        cases.append((f"{prefix}, regex {TICKET_REGEX}", regex_commands))
        for count in (10, 100):
            for whole in (False, True):
                label = f"{prefix}, {plural(count)}, any case ({'rg -i -w, whole word' if whole else 'rg -i'})"
                cases.append((label, lambda count=count, whole=whole: commands(
                    f"{tag}-ci{count}{'-whole' if whole else ''}", directory, words=draws()[f"ci{count}"],
                    whole=whole, ignore_case=True)))

    for seed in seeds:
        directory = os.path.join(options.work, f"corpus-{seed}")

        def draws(seed=seed, directory=directory):
            def make():
                present = generate_corpus(directory, seed)
                rng = random.Random(seed * 7919)  # the draws of the earlier tables, in their order
                samples = {count: rng.sample(present, count) for count in (1, 10, 100, 1000)}
                samples["single"] = rng.sample(present, 10)
                any_case = random.Random(seed * 7919 + 1)
                samples.update(ci10=any_case.sample(present, 10), ci100=any_case.sample(present, 100))
                return samples
            return once(("generated", seed), make)

        generated_corpus_cases(f"generated 100 MB / 16 files, seed {seed}", f"s{seed}", directory, draws)

        def single_file_commands(seed=seed, directory=directory, draws=draws):
            words = draws()["single"]  # draws() also makes the corpus, which single_file joins into one file
            target = single_file(directory, os.path.join(options.work, f"single-{seed}.src"))
            return commands(f"s{seed}-single", target, words=words)
        cases.append((f"generated, seed {seed}, one 100 MB file, 10 words", single_file_commands))

    for seed in seeds:
        directory = os.path.join(options.work, f"polyglot-{seed}")

        def draws(seed=seed, directory=directory):
            def make():
                present = generate_polyglot_corpus(directory, seed)
                rng = random.Random(seed * 6151)
                samples = {count: rng.sample(present, count) for count in (1, 10, 100, 1000)}
                samples.update(ci10=rng.sample(present, 10), ci100=rng.sample(present, 100))
                return samples
            return once(("polyglot", seed), make)

        generated_corpus_cases(f"polyglot 100 MB / 16 files, seed {seed}", f"p{seed}", directory, draws)

    # Real trees, read once before their cases so that both commands search the page cache. The Python standard
    # library is a copy without site-packages and __pycache__ (as installed, with them, it is 941 MB and timed the
    # disk).
    stdlib = sysconfig.get_paths()["stdlib"]
    stdlib_copy = os.path.join(options.work, "python-stdlib")
    trees = [("Python stdlib without site-packages, cached", "python-stdlib",
              lambda: cached_python_stdlib(stdlib_copy), os.path.isdir(stdlib)),
             ("/usr/include, cached", "usr-include", lambda: "/usr/include", os.path.isdir("/usr/include")),
             ("/opt/swift/usr/lib, cached", "opt-swift-usr-lib", lambda: "/opt/swift/usr/lib",
              os.path.isdir("/opt/swift/usr/lib"))]
    for name, tag, make_root, present_here in trees:
        if not present_here:
            continue

        def root(tag=tag, make_root=make_root):
            path = once(("tree", tag), make_root)
            once(("warm", tag), lambda: warm(path))
            return path

        def drawn(count, tag=tag, root=root):
            present = once(("identifiers", tag), lambda: identifiers_of_tree(root(), random.Random(len(tag))))
            return random.Random(count * 31 + len(tag)).sample(present, count)

        cases.append((f"{name}, {' '.join(MARKERS)}, whole word", lambda tag=tag, root=root:
                      commands(f"{tag}-markers", root(), words=MARKERS, whole=True)))
        cases.append((f"{name}, the built-in words, whole word", lambda tag=tag, root=root:
                      commands(f"{tag}-builtin-words", root(), words=BUILT_IN_WORDS, whole=True)))
        # The built-in rules match in comments only: rg has no equivalent, its row finds the words anywhere.
        cases.append((f"{name}, the built-in rules (comments only; rg row: the words anywhere)",
                      lambda tag=tag, root=root: (commands(f"{tag}-builtin-words", root(), words=BUILT_IN_WORDS,
                                                           whole=True)[0],
                                                  commands(f"{tag}-builtin", root(), builtins=True)[1])))
        for count in (1, 10, 100):
            cases.append((f"{name}, {plural(count)} drawn from it", lambda tag=tag, root=root, count=count, drawn=drawn:
                          commands(f"{tag}-w{count}", root(), words=drawn(count))))

    rows = []
    for label, build in cases:
        if options.only is None or options.only in label:
            rows.append(run_case(options, label, *build()))
    rows.sort(key=lambda r: -r["worst"])
    ms = lambda s: f"{s * 1000:,.0f}"
    print("| case | rg, ms (median, min-max) | highlight-ls, ms | ratio | rg -j1, ms | highlight-ls -j1, ms | "
          "ratio -j1 | matches rg / highlight-ls |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        counts = {r["rg_matches"], r["hls_matches"], r["rg_matches_j1"], r["hls_matches_j1"]}
        equal = "" if len(counts) == 1 else \
            f" **differ** (-j1: {r['rg_matches_j1']:,} / {r['hls_matches_j1']:,})"
        cell = lambda tool, suffix="": f"{ms(r[tool + suffix])} ({ms(r[tool + '_spread' + suffix][0])}-" \
                                       f"{ms(r[tool + '_spread' + suffix][1])})"
        print(f"| {r['label']} | {cell('rg')} | {cell('hls')} | {r['ratio']:.2f} | {cell('rg', '_j1')} | "
              f"{cell('hls', '_j1')} | {r['ratio_j1']:.2f} | {r['rg_matches']:,} / {r['hls_matches']:,}{equal} |")
    with open(os.path.join(options.work, "commands.txt"), "w") as handle:
        for r in rows:
            handle.write(f"# {r['label']} (and each with -j 1 before the path)\n{r['rg_command']}\n{r['hls_command']}\n")
    print(f"\ncommands: {os.path.join(options.work, 'commands.txt')}", file=sys.stderr)


if __name__ == "__main__":
    main()
