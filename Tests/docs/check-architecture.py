#!/usr/bin/env python3
"""Checks that every piece of code docs/ARCHITECTURE.md names in backticks exists.

    Tests/docs/check-architecture.py [--self-test]

A span in backticks is checked when it looks like code of ours:
  - a path (`Regex/LazyDFA.swift`, `scripts/release.sh`, `BackgroundJobs.swift`): some file
    of the repository ends with it;
  - a type or a member (`LineIndex`, `RuleSet.RegexCursor`, `recordMatchStarts`,
    `RuleSet.searchWindow(of:in:startLimit:)`): each dotted part is declared in Sources/ or
    Tests/ (a type, func, var, let, case or init of that name), and a call's argument labels
    are those of a declared func of that name.
Words in lower case alone (`rules`, `lines`: configuration keys and prose), options (`--soak`),
JSON, shell and the few outside names in EXTERNAL are not code of ours and are skipped.
Also, each module's "Depends on ..." sentence (in its `- **`Sources/X`**` entry) must name exactly
the dependencies Package.swift gives target X ("nothing" for none).
Exits 1 and names each span or module it could not match; prints "N passed, N failed" last.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "docs", "ARCHITECTURE.md")

# Names ARCHITECTURE.md mentions that are the toolchain's or the system's, not ours.
EXTERNAL = {
    "Foundation", "FoundationEssentials", "NSCondition", "FileHandle", "Thread", "Int", "Builtin", "Dispatch",
    "DispatchQueue.concurrentPerform", "String", "Array", "Data", "URL", "Sendable", "Codable", "MAP_POPULATE",
    "String.Index", "UnsafeBufferPointer", "Character", "fatalError",
    # The Language Server Protocol's own structures.
    "CreateFile", "WorkspaceEdit", "CodeAction", "Command", "SymbolInformation", "DocumentSymbol",
}
# Files of the user's, not of this repository.
USER_FILES = {".highlights.json", ".gitignore", ".ignore"}

IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\((?:[A-Za-z_][A-Za-z0-9_]*:)*\))?$")
DECLARATION = re.compile(
    r"\b(?:struct|class|enum|protocol|typealias|actor|extension|func|var|let|case|init|associatedtype)\s+"
    r"(?:`)?([A-Za-z_][A-Za-z0-9_]*)")
FUNC_SIGNATURE = re.compile(r"\bfunc\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?:<[^>]*>)?\s*\(")
TOP_FOLDERS = {"Sources", "Tests", "scripts", "editors", "docs", ".github", "schema", "completions", "examples", "Regex"}
PATH_SUFFIXES = (".swift", ".py", ".sh", ".yml", ".yaml", ".json", ".md", ".lua", ".el", ".js", ".txt", ".transcript")


def source_files():
    for top in ("Sources", "Tests"):
        for folder, _, names in os.walk(os.path.join(ROOT, top)):
            for name in names:
                if name.endswith(".swift"):
                    yield os.path.join(folder, name)


def repository_files():
    skipped = {".git", ".build", ".build-fuzz", ".venv-editors", ".venv-re2", "node_modules"}
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in skipped]
        for name in names:
            yield os.path.relpath(os.path.join(folder, name), ROOT)


def labels_of(text, open_paren):
    """The argument labels of the parameter list that starts at `open_paren` (`_` for none), each
    with whether the parameter has a default value."""
    depth = 0
    end = open_paren
    while end < len(text):
        if text[end] in "([<":
            depth += 1
        elif text[end] in ")]>" and text[end - 1] != "-":
            depth -= 1
            if depth == 0:
                break
        end += 1
    inner = text[open_paren + 1:end]
    parameters, depth, current = [], 0, ""
    for offset, character in enumerate(inner):
        if character in "([<":
            depth += 1
        elif character in ")]>" and inner[offset - 1:offset] != "-":
            depth -= 1
        if character == "," and depth == 0:
            parameters.append(current)
            current = ""
        else:
            current += character
    if current.strip():
        parameters.append(current)
    labels = []
    for parameter in parameters:
        head = parameter.split(":")[0].strip().split()
        head = [word for word in head if not word.startswith("@")]
        if head:
            labels.append((head[0], "=" in parameter))
    return labels


TYPE_DECLARATION = re.compile(r"\b(?:struct|class|enum|protocol|actor|extension)\s+([A-Za-z_][A-Za-z0-9_.]*)")


def index_sources():
    """Every declared name; every func's label lists; and per type, the names declared in the files
    that declare or extend it, with their funcs' label lists."""
    names, signatures = set(), {}
    members = {}
    # Modules and targets are names too.
    with open(os.path.join(ROOT, "Package.swift"), encoding="utf-8") as handle:
        names.update(re.findall(r'name:\s*"([A-Za-z0-9_-]+)"', handle.read()))
    for path in source_files():
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        declared = set(DECLARATION.findall(text))
        names.update(declared)
        file_signatures = {}
        for match in FUNC_SIGNATURE.finditer(text):
            labels = labels_of(text, match.end() - 1)
            signatures.setdefault(match.group(1), []).append(labels)
            file_signatures.setdefault(match.group(1), []).append(labels)
        for match in TYPE_DECLARATION.finditer(text):
            body = body_after(text, match.end())
            entry = members.setdefault(match.group(1).split(".")[-1], (set(), {}))
            entry[0].update(DECLARATION.findall(body))
            for function in FUNC_SIGNATURE.finditer(body):
                entry[1].setdefault(function.group(1), []).append(labels_of(body, function.end() - 1))
    return names, signatures, members


def body_after(text, start):
    """The text between the `{` that follows `start` and its matching `}`, skipping string literals
    and comments, roughly: enough to tell which declarations a type holds."""
    open_brace = text.find("{", start)
    if open_brace < 0:
        return ""
    depth, index, length = 0, open_brace, len(text)
    while index < length:
        character = text[index]
        if text.startswith("//", index):
            index = text.find("\n", index)
            if index < 0:
                break
            continue
        if character == '"':
            end = text.find('"', index + 1)
            while end > 0 and text[end - 1] == "\\":
                end = text.find('"', end + 1)
            index = end + 1 if end > 0 else length
            continue
        if character == "{":
            depth += 1
        elif character == "}":
            depth -= 1
            if depth == 0:
                return text[open_brace + 1:index]
        index += 1
    return text[open_brace + 1:]


def is_path(span):
    if span in USER_FILES or re.search(r"[\s*\\$]", span):
        return False
    top = span.split("/")[0]
    return span.endswith(PATH_SUFFIXES) or (("/" in span) and top in TOP_FOLDERS) or span in {"Regex/"}


def is_code(span):
    if span in EXTERNAL or not IDENTIFIER.match(span):
        return False
    base = span.split("(")[0]
    # A lower-case word alone is a configuration key or prose, not a name we declare.
    return "." in base or "(" in span or any(c.isupper() for c in base)


def callable_as(labels):
    """The label lists a function with these parameters can be named by: all of them, and
    without any that have defaults."""
    return [[label for label, _ in labels], [label for label, default in labels if not default]]


def check(span, index, files):
    """None when `span` names something that exists, else the reason it does not."""
    names, signatures, members = index
    if is_path(span):
        wanted = span.strip("/")
        if any(f == wanted or f.endswith("/" + wanted) or ("/" + wanted + "/") in ("/" + f) for f in files):
            return None
        return "no such file"
    base, _, arguments = span.partition("(")
    parts = base.split(".")
    for part in parts:
        if part not in names:
            return "'%s' is declared nowhere in Sources/ or Tests/" % part
    # A member is looked for with its type: in the files that declare or extend the part before it.
    if len(parts) > 1 and parts[-2] in members:
        type_names, type_signatures = members[parts[-2]]
        if parts[-1] not in type_names:
            return "'%s' is not declared with %s" % (parts[-1], parts[-2])
        signatures = type_signatures
    if arguments:
        wanted = [label for label in arguments.rstrip(")").split(":") if label]
        function = base.split(".")[-1]
        forms = [form for labels in signatures.get(function, []) for form in callable_as(labels)]
        if wanted not in forms and not (function == "init" and wanted):
            return "no func %s(%s) in Sources/ or Tests/" % (function, "".join(l + ":" for l in wanted))
    return None


def package_dependencies():
    """Each library target of Package.swift with the targets it depends on."""
    with open(os.path.join(ROOT, "Package.swift"), encoding="utf-8") as handle:
        text = handle.read()
    targets = {}
    for match in re.finditer(r'\.(?:target|systemLibrary)\(\s*name:\s*"([A-Za-z0-9_-]+)"', text):
        call = text[match.start():]
        depth, end = 0, 0
        for offset, character in enumerate(call):
            if character == "(":
                depth += 1
            elif character == ")":
                depth -= 1
                if depth == 0:
                    end = offset
                    break
        listed = re.search(r"dependencies:\s*\[([^\]]*)\]", call[:end])
        targets[match.group(1)] = set(re.findall(r'"([A-Za-z0-9_-]+)"', listed.group(1))) if listed else set()
    return targets


def dependency_mismatches(text, targets):
    """How many module entries say what they depend on, and those whose "Depends on" sentence does not name exactly
    their target's dependencies."""
    problems, said_count = [], 0
    for entry in re.finditer(r"^- \*\*`Sources/([A-Za-z0-9_-]+)`\*\*(.*?)(?=^- \*\*|^#|\Z)", text, flags=re.S | re.M):
        module, body = entry.group(1), " ".join(entry.group(2).split())
        said = re.search(r"Depends on (.*?)(?:[;.](?:\s|$)|$)", body)
        if module not in targets or not said:
            continue
        said_count += 1
        named = set() if said.group(1).startswith("nothing") else \
            {word for word in re.findall(r"[A-Za-z0-9_]+", said.group(1)) if word in targets}
        if named != targets[module]:
            problems.append("module %s: the text says it depends on %s, Package.swift on %s" % (
                module, sorted(named) or "nothing", sorted(targets[module]) or "nothing"))
    return said_count, problems


def spans(text):
    # Code blocks are diagrams and commands; only inline spans name code.
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return sorted(set(re.findall(r"`([^`\n]+)`", text)))


def main():
    index = index_sources()
    files = list(repository_files())
    if "--self-test" in sys.argv:
        # A renamed symbol, a wrong label and a missing file must each be caught.
        bad = ["RuleSetThatWasRenamed", "RuleSet.searchWindow(of:inside:startLimit:)", "Regex/NoSuchFile.swift",
               "ConfigFile.governingWhatever", "ConfigFile.place(ofFile:)"]
        good = ["RuleSet.searchWindow(of:in:startLimit:)", "LineIndex", "Regex/LazyDFA.swift"]
        failures = [s for s in bad if check(s, index, files) is None]
        failures += [s for s in good if check(s, index, files) is not None]
        # A dependency left out, one too many, and "nothing" for a module that has some must be caught.
        targets = {"A": {"B", "C"}, "B": set(), "C": set()}
        for sentence, wrong in [("Depends on `B` only.", True), ("Depends on `B`, `C` and `A`.", True),
                                ("Depends on nothing.", True), ("Depends on `C` and `B` only.", False)]:
            said, found = dependency_mismatches("- **`Sources/A`** — a module. %s\n" % sentence, targets)
            if said != 1 or bool(found) != wrong:
                failures.append(sentence)
        print("self-test: %s" % ("ok" if not failures else "wrong on " + ", ".join(failures)))
        return 1 if failures else 0
    with open(DOC, encoding="utf-8") as handle:
        document = handle.read()
    checked = [span for span in spans(document) if is_path(span) or is_code(span)]
    failed = 0
    modules, mismatches = dependency_mismatches(document, package_dependencies())
    for problem in mismatches:
        failed += 1
        print("docs/ARCHITECTURE.md: %s" % problem)
    for span in checked:
        reason = check(span, index, files)
        if reason:
            failed += 1
            print("docs/ARCHITECTURE.md names `%s`: %s" % (span, reason))
    print("%d passed, %d failed (%d modules' dependencies among them)" % (len(checked) + modules - failed, failed, modules))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
