#!/usr/bin/env python3
"""Prints what adds highlight-ls to Helix: the server, and `[[language]]` entries keeping their servers.

Helix has no switch for "every language", and a `language-servers` list in your own
languages.toml replaces the built-in one, so each language must list its own servers again
plus highlight-ls. This script reads Helix's built-in languages.toml (the one of your Helix
version) and, if given, your own, and prints what to append to your languages.toml:

    ./add-highlight-ls.py helix/languages.toml                        # every language
    ./add-highlight-ls.py helix/languages.toml rust python markdown   # only these
    ./add-highlight-ls.py --user ~/.config/helix/languages.toml helix/languages.toml

First the server, `[language-server.highlight-ls]`, unless your file (--user) declares it
already or --no-server is given. Helix draws only diagnostics, and the built-in rules have no
severity, so the declaration also gives the server the built-in rules exactly as they are plus
a `severity` each, as client settings (`config.highlight`): without them Helix shows nothing.

Your own `language-servers` (from --user) win over the built-in ones; an entry of yours
without `language-servers` (say, only `auto-format = false`) keeps the built-in servers.
Entries that already name highlight-ls are left out. A --user file that does not exist yet
counts as empty. Needs Python 3.11+ (tomllib).
"""

import argparse
import sys
import tomllib

SERVER = "highlight-ls"

# The server's built-in rules exactly as they are (`highlight-ls init` lists them, and
# docs/CONFIGURATION.md), each given a severity so that Helix shows its matches as diagnostics.
# Tests/docs/check-recipes.py checks that they match where the built-in rules match.
BUILT_IN_RULES_WITH_SEVERITY = [
    {"name": "fixme", "words": ["FIXME", "BUG", "XXX"], "wholeWord": True, "scope": "comments",
     "style": "fixme", "list": True, "fields": True, "severity": "warning"},
    {"name": "todo", "words": ["TODO"], "wholeWord": True, "scope": "comments",
     "style": "todo", "list": True, "fields": True, "severity": "information"},
    {"name": "hack", "words": ["HACK"], "wholeWord": True, "scope": "comments",
     "style": "hack", "list": True, "fields": True, "severity": "warning"},
    {"name": "note", "words": ["NOTE", "INFO"], "wholeWord": True, "scope": "comments",
     "style": "note", "fields": True, "severity": "hint"},
    {"name": "review", "words": ["REVIEW", "OPTIMIZE"], "wholeWord": True, "scope": "comments",
     "style": "review", "fields": True, "severity": "hint"},
    {"name": "deprecated", "words": ["DEPRECATED"], "wholeWord": True, "scope": "comments",
     "style": "deprecated", "fields": True, "severity": "hint"},
    {"name": "task", "regex": "^[ \\t]*(?:[-*+]|[0-9]{1,9}[.)])[ \\t]+\\[ \\]", "languages": ["markdown"],
     "style": "task", "list": True, "severity": "information"},
]


def toml_value(value):
    """Writes a TOML inline value: strings, booleans, integers, lists and tables."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        return f'"{escaped}"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{toml_key(key)} = {toml_value(item)}" for key, item in value.items()) + " }"
    raise TypeError(f"cannot write {value!r} as TOML")


def toml_key(key):
    if key and all(character.isalnum() or character in "-_" for character in key):
        return key
    return toml_value(key)


def server_name(entry):
    """A `language-servers` entry is a name or a table with `name`."""
    return entry.get("name") if isinstance(entry, dict) else entry


def read_toml(path, missing_ok=False):
    """The parsed file; with `missing_ok`, an empty document when it does not exist."""
    try:
        with open(path, "rb") as file:
            return tomllib.load(file)
    except FileNotFoundError:
        if missing_ok:
            return {}
        raise


def server_declaration():
    """The `[language-server.highlight-ls]` table and its settings, as TOML lines."""
    lines = [
        f"[language-server.{SERVER}]",
        f"command = {toml_value(SERVER)}",
        "",
        "# Helix shows highlight-ls's matches only as diagnostics, and the built-in rules have no",
        "# severity: these are the built-in rules exactly as they are, each given one (change or",
        "# remove them here). Helix sends `config` as the initializationOptions and answers",
        "# workspace/configuration from it. A .highlights.json in a repository comes first.",
        f"[language-server.{SERVER}.config.highlight]",
        "rules = [",
    ]
    lines += [f"  {toml_value(rule)}," for rule in BUILT_IN_RULES_WITH_SEVERITY]
    lines.append("]")
    return lines


def servers_by_language(document, only_listed=False):
    """Each language's `language-servers`, by name.

    A language without the key has no servers of its own: an empty list in Helix's built-in
    file. In a user's file (`only_listed`) such an entry is left out, since Helix then keeps
    the built-in list (the user's entry changes other keys only).
    """
    return {
        language["name"]: language.get("language-servers", [])
        for language in document.get("language", [])
        if "name" in language and (not only_listed or "language-servers" in language)
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("builtin", help="Helix's built-in languages.toml")
    parser.add_argument("languages", nargs="*", help="language names (default: every language)")
    parser.add_argument("--user", help="your languages.toml, whose language-servers win (may not exist yet)")
    parser.add_argument("--no-server", action="store_true",
                        help=f"leave out the [language-server.{SERVER}] declaration")
    options = parser.parse_args()

    servers = servers_by_language(read_toml(options.builtin))
    user = read_toml(options.user, missing_ok=True) if options.user else {}
    servers.update(servers_by_language(user, only_listed=True))
    # A language only the user defines, without servers, has none to keep.
    for name, listed in servers_by_language(user).items():
        servers.setdefault(name, listed)
    declared = SERVER in user.get("language-server", {})
    names = options.languages or sorted(servers)
    unknown = [name for name in names if name not in servers]
    if unknown:
        print(f"unknown languages: {', '.join(unknown)}", file=sys.stderr)
        return 2

    print(f"# Generated by add-highlight-ls.py: every language keeps its servers and gains {SERVER}.")
    if not options.no_server and not declared:
        print()
        print("\n".join(server_declaration()))
    for name in names:
        current = servers[name]
        if any(server_name(entry) == SERVER for entry in current):
            continue
        print()
        print("[[language]]")
        print(f"name = {toml_value(name)}")
        print(f"language-servers = {toml_value(list(current) + [SERVER])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
