#!/usr/bin/env python3
"""Differential test of the project's regex engine against RE2 itself (google-re2 from PyPI).

Usage: Tests/re2/differential.py --probe PATH/highlight-regex-probe [--seed N] [--patterns N] [--show N]

Random patterns are generated from a grammar of RE2's syntax (literals, escapes, octal, \\Q...\\E,
classes, POSIX classes, Perl classes, Unicode categories and scripts, negations, assertions, flags
i m s U and their negations, groups, alternation, greedy and lazy repetitions, RE2's own
counted-repetition rules), and random texts are drawn from ASCII, non-ASCII (accents, Greek,
Cyrillic, CJK, emoji, Arabic-Indic digits, combining marks) and line ends (LF, CRLF, lone CR).
Some patterns are mutated with random syntax characters, so that both accept and reject decisions
are compared. Each pattern is searched in each of its texts from offset 0 and from one random
offset (the bytes before it are context, as when the engine scans a document).

Compared: whether the pattern is accepted, and the span of the leftmost-first match (UTF-8 byte
offsets). The deliberate differences documented in README ("Regex dialect") are accounted for:
patterns are given to RE2 with `(?m)` in front (here `^` and `$` match at line boundaries by
default) and to the probe with `(?-R)` in front (RE2 knows no CRLF mode); an empty RE2 match is
not compared (this engine never reports empty matches); the generator writes none of the
extensions RE2 rejects. Exit status 1 when any pair disagrees; the seed is printed to replay.
"""
import argparse
import json
import random
import subprocess
import sys

try:
    import re2
except ImportError:  # pragma: no cover - the CI installs it
    sys.exit("google-re2 is not installed: pip install google-re2")

LITERALS = list("abcxyzAB09_ -,:#@!%&=~'\"/") + ["é", "É", "ß", "ω", "Ω", "Ж", "ж", "日", "本", "あ", "😀", "١", "K"]
ESCAPED = [r"\.", r"\*", r"\+", r"\?", r"\(", r"\)", r"\[", r"\]", r"\{", r"\}", r"\|", r"\^", r"\$", r"\\", r"\-",
           r"\_", r"\#", r"\ ", r"\~", r"\/", r"\:"]
ESCAPES = [r"\n", r"\r", r"\t", r"\f", r"\v", r"\a", r"\x41", r"\x{e9}", r"\x{65E5}", r"\x{1F600}", r"\x{D800}",
           r"\101", r"\0", r"\012", r"\14", r"\x61"]
PERL = [r"\d", r"\D", r"\w", r"\W", r"\s", r"\S"]
UNICODE = [r"\pL", r"\pN", r"\pP", r"\pZ", r"\pC", r"\pM", r"\pS", r"\p{Lu}", r"\p{Ll}", r"\p{Nd}", r"\p{Greek}",
           r"\p{Han}", r"\p{Cyrillic}", r"\p{Latin}", r"\p{Hiragana}", r"\p{Arabic}", r"\p{Common}", r"\p{^Greek}",
           r"\P{Han}", r"\PL", r"\P{^Latin}", r"\p{Any}", r"\p{Inherited}", r"\p{Zs}", r"\p{Po}"]
POSIX = ["alpha", "digit", "alnum", "space", "upper", "lower", "punct", "word", "xdigit", "blank", "cntrl", "print",
         "graph", "ascii"]
ASSERTIONS = ["^", "$", r"\b", r"\B", r"\A", r"\z"]
CLASS_CHARS = list("abcxyzAB09_-.^$|*+?(){}&~") + ["é", "ω", "Ж", "日", "😀", r"\]", r"\\", r"\-", r"\^", r"\n"]
QUANTIFIERS = ["*", "+", "?", "*?", "+?", "??", "{2}", "{1,2}", "{0,1}", "{2,}", "{0}", "{1,3}?", "{2}?", "{,2}",
               "{x}", "{1,}?"]
FLAGS = ["i", "m", "s", "U", "-i", "-m", "-s", "-U", "i-s", "ms", "-iU", "is", "U-i"]
# Characters for mutations: RE2 syntax, without the extensions' letters (x, u, R) that RE2 rejects on purpose.
MUTATIONS = list("()[]{}*+?|\\^$.,-:<>=!PpQEdDwWsSbBAz0123789_'") + ["(?", "(?P<", "(?:", "[:", ":]", "\\p{"]

TEXT_PIECES = ["a", "b", "c", "x", "y", "z", "A", "B", "X", "0", "1", "9", "_", " ", " ", "-", ",", ":", "#", ".", "(",
               ")", "[", "]", "{", "}", "*", "\\", "\n", "\r\n", "\r", "\t", "\x0b", "\x0c", "é", "É", "e\u0301",
               "ß", "ſ", "K", "k", "\u212a", "ω", "Ω", "ς", "Σ", "Ж", "ж", "日", "本", "漢字", "あ", "ア", "😀",
               "١", "٢", "\u00a0", "\u2028", "ǅ", "İ", "ı", "TODO", "FIXME", "abc", "xyz"]


class Generator:
    def __init__(self, rng):
        self.rng = rng
        self.names = 0

    def choice(self, items):
        return items[self.rng.randrange(len(items))]

    def class_item(self):
        roll = self.rng.random()
        if roll < 0.45:
            return self.choice(CLASS_CHARS)
        if roll < 0.65:
            low, high = sorted(self.rng.sample("abcxyzAB09", 2))
            return f"{low}-{high}"
        if roll < 0.75:
            return self.choice(PERL)
        if roll < 0.85:
            return self.choice(UNICODE)
        if roll < 0.95:
            return "[:" + ("^" if self.rng.random() < 0.3 else "") + self.choice(POSIX) + ":]"
        return self.choice(ESCAPES)

    def char_class(self):
        items = "".join(self.class_item() for _ in range(self.rng.randint(1, 4)))
        return "[" + ("^" if self.rng.random() < 0.3 else "") + items + "]"

    def atom(self, depth):
        roll = self.rng.random()
        if roll < 0.30:
            return self.choice(LITERALS)
        if roll < 0.36:
            return self.choice(ESCAPED)
        if roll < 0.41:
            return self.choice(ESCAPES)
        if roll < 0.47:
            return "."
        if roll < 0.54:
            return self.choice(PERL)
        if roll < 0.61:
            return self.choice(UNICODE)
        if roll < 0.70:
            return self.char_class()
        if roll < 0.78:
            return self.choice(ASSERTIONS)
        if roll < 0.81:
            return r"\Q" + "".join(self.choice(list("a.*+?()[]b|") + ["é"]) for _ in range(self.rng.randint(0, 3))) + (
                r"\E" if self.rng.random() < 0.8 else "")
        if depth >= 3:
            return self.choice(LITERALS)
        inner = self.expression(depth + 1)
        roll = self.rng.random()
        if roll < 0.35:
            return "(" + inner + ")"
        if roll < 0.65:
            return "(?:" + inner + ")"
        if roll < 0.8:
            return "(?" + self.choice(FLAGS) + ":" + inner + ")"
        if roll < 0.9:
            self.names += 1
            return f"(?P<n{self.names}>" + inner + ")"
        return "(?" + self.choice(FLAGS) + ")" + inner

    def piece(self, depth):
        atom = self.atom(depth)
        if self.rng.random() < 0.35:
            atom += self.choice(QUANTIFIERS)
        return atom

    def expression(self, depth=0):
        branches = []
        for _ in range(1 if self.rng.random() < 0.7 else self.rng.randint(2, 3)):
            branches.append("".join(self.piece(depth) for _ in range(self.rng.randint(0 if depth else 1, 3))))
        return "|".join(branches)

    def pattern(self):
        self.names = 0
        pattern = self.expression()
        if self.rng.random() < 0.15:
            for _ in range(self.rng.randint(1, 2)):
                index = self.rng.randint(0, len(pattern))
                pattern = pattern[:index] + self.choice(MUTATIONS) + pattern[index:]
        return pattern

    def text(self, pattern):
        """Random pieces; half the time mixed with characters of the pattern, so that more searches find a match."""
        pieces = TEXT_PIECES
        if self.rng.random() < 0.5:
            own = [character for character in pattern if character not in "\\()[]{}*+?|^$"]
            pieces = TEXT_PIECES + own * 8
        return "".join(self.choice(pieces) for _ in range(self.rng.randint(0, 16)))


def re2_search(compiled, text, pos):
    match = compiled.search(text, pos)
    if match is None:
        return None
    start, end = match.span()
    return (len(text[:start].encode()), len(text[:end].encode()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--probe", required=True, help="path of the built highlight-regex-probe")
    parser.add_argument("--seed", type=int, default=None, help="seed (default: random, printed)")
    parser.add_argument("--patterns", type=int, default=6000, help="patterns to generate (4 texts each)")
    parser.add_argument("--show", type=int, default=25, help="disagreements to print")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    rng = random.Random(seed)
    generator = Generator(rng)

    options = re2.Options()
    options.log_errors = False
    cases = []
    for _ in range(args.patterns):
        pattern = generator.pattern()
        case_insensitive = rng.random() < 0.15
        texts = [generator.text(pattern) for _ in range(4)]
        offsets = [[0, rng.randint(0, len(text))] for text in texts]
        cases.append((pattern, case_insensitive, texts, offsets))

    requests = []
    for pattern, case_insensitive, texts, offsets in cases:
        byte_offsets = sorted({len(text[:offset].encode()) for text, pair in zip(texts, offsets) for offset in pair})
        requests.append(json.dumps({"pattern": "(?-R)" + pattern, "caseInsensitive": case_insensitive,
                                    "texts": texts, "from": byte_offsets}))
    completed = subprocess.run([args.probe], input="\n".join(requests) + "\n", capture_output=True, text=True,
                               check=True)
    answers = [json.loads(line) for line in completed.stdout.splitlines() if line.strip()]
    if len(answers) != len(cases):
        sys.exit(f"seed {seed}: the probe answered {len(answers)} of {len(cases)} requests")

    pairs = accepted = rejected = compared = empty = found = 0
    disagreements = []
    for (pattern, case_insensitive, texts, offsets), request, answer in zip(cases, requests, answers):
        try:
            compiled = re2.compile(("(?i)" if case_insensitive else "") + "(?m)" + pattern, options)
        except re2.error:
            compiled = None
        pairs += len(texts)
        if (compiled is None) != (not answer["ok"]):
            disagreements.append(f"/{pattern}/{' (i)' if case_insensitive else ''}: RE2 "
                                 f"{'rejects' if compiled is None else 'accepts'}, the engine "
                                 f"{'rejects: ' + answer['error'] if not answer['ok'] else 'accepts'}")
            continue
        if compiled is None:
            rejected += 1
            continue
        accepted += 1
        byte_offsets = json.loads(request)["from"]
        for text, pair, spans in zip(texts, offsets, answer["matches"]):
            for offset in pair:
                expected = re2_search(compiled, text, offset)
                actual = spans[byte_offsets.index(len(text[:offset].encode()))]
                actual = tuple(actual) if actual is not None else None
                if expected is not None and expected[0] == expected[1]:
                    empty += 1
                    continue
                compared += 1
                found += expected is not None
                if expected != actual:
                    disagreements.append(f"/{pattern}/{' (i)' if case_insensitive else ''} in {text!r} from byte "
                                         f"{len(text[:offset].encode())}: RE2 {expected}, the engine {actual}")

    print(f"seed {seed}: {len(cases)} patterns ({accepted} accepted and {rejected} rejected by both), {pairs} "
          f"pattern/text pairs, {compared} searches compared ({found} with a match; {empty} empty RE2 matches skipped), "
          f"{len(disagreements)} disagreements")
    for line in disagreements[:args.show]:
        print("  " + line)
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
