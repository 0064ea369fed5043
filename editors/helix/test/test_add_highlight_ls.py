"""Runs editors/helix/add-highlight-ls.py on sample languages.toml files and reads its output
back with tomllib, as Helix would.

    python3 -m unittest discover -s editors/helix/test -p 'test_*.py'
"""

import os
import subprocess
import sys
import tempfile
import tomllib
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "add-highlight-ls.py")

# A cut of Helix's built-in languages.toml: plain names, a table entry, a language without
# servers, one that already has highlight-ls, and keys the script must not copy.
BUILTIN = """
use-grammars = { only = ["rust"] }

[language-server.rust-analyzer]
command = "rust-analyzer"

[[language]]
name = "rust"
scope = "source.rust"
auto-format = true
language-servers = ["rust-analyzer"]

[[language]]
name = "typescript"
language-servers = [ { name = "typescript-language-server", except-features = ["format"] }, "biome" ]

[[language]]
name = "markdown"
language-servers = ["marksman", "markdown-oxide"]

[[language]]
name = "text"
scope = "text.plain"

[[language]]
name = "already"
language-servers = ["highlight-ls"]
"""


def write(directory, name, text):
    path = os.path.join(directory, name)
    with open(path, "w", encoding="utf-8") as file:
        file.write(text)
    return path


def run(*arguments):
    """The script's exit code, its output parsed as TOML (or None) and its stderr."""
    result = subprocess.run([sys.executable, SCRIPT, *arguments], capture_output=True, text=True, check=False)
    parsed = tomllib.loads(result.stdout) if result.returncode == 0 else None
    return result.returncode, parsed, result.stderr


def servers(parsed):
    return {language["name"]: language["language-servers"] for language in parsed.get("language", [])}


class AddHighlightLsTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.builtin = write(self.directory.name, "builtin.toml", BUILTIN)

    def tearDown(self):
        self.directory.cleanup()

    def test_every_language_keeps_its_servers_and_gains_highlight_ls(self):
        code, parsed, _ = run(self.builtin)
        self.assertEqual(code, 0)
        self.assertEqual(servers(parsed), {
            "rust": ["rust-analyzer", "highlight-ls"],
            "typescript": [{"name": "typescript-language-server", "except-features": ["format"]}, "biome", "highlight-ls"],
            "markdown": ["marksman", "markdown-oxide", "highlight-ls"],
            "text": ["highlight-ls"],
        })
        # Only names and server lists are written: Helix merges them into its own entries.
        for language in parsed["language"]:
            self.assertEqual(set(language), {"name", "language-servers"})

    def test_only_the_languages_named(self):
        code, parsed, _ = run(self.builtin, "markdown", "rust")
        self.assertEqual(code, 0)
        self.assertEqual(servers(parsed), {
            "markdown": ["marksman", "markdown-oxide", "highlight-ls"],
            "rust": ["rust-analyzer", "highlight-ls"],
        })

    def test_a_user_entry_without_language_servers_keeps_the_builtin_ones(self):
        # The bug of issue 22: an entry that only sets auto-format replaced rust's servers
        # with an empty list, and the output dropped rust-analyzer.
        user = write(self.directory.name, "user.toml", """
[[language]]
name = "rust"
auto-format = false

[[language]]
name = "markdown"
soft-wrap.enable = true
""")
        code, parsed, _ = run("--user", user, self.builtin, "rust", "markdown")
        self.assertEqual(code, 0)
        self.assertEqual(servers(parsed), {
            "rust": ["rust-analyzer", "highlight-ls"],
            "markdown": ["marksman", "markdown-oxide", "highlight-ls"],
        })

    def test_a_user_list_wins_over_the_builtin_one(self):
        user = write(self.directory.name, "user.toml", """
[[language]]
name = "rust"
language-servers = ["my-rust-server"]

[[language]]
name = "typescript"
language-servers = []
""")
        code, parsed, _ = run("--user", user, self.builtin, "rust", "typescript")
        self.assertEqual(code, 0)
        self.assertEqual(servers(parsed), {"rust": ["my-rust-server", "highlight-ls"], "typescript": ["highlight-ls"]})

    def test_a_language_only_the_user_defines(self):
        user = write(self.directory.name, "user.toml", """
[[language]]
name = "mylang"
scope = "source.mylang"
file-types = ["my"]
""")
        code, parsed, _ = run("--user", user, self.builtin)
        self.assertEqual(code, 0)
        self.assertEqual(servers(parsed)["mylang"], ["highlight-ls"])
        self.assertEqual(servers(parsed)["rust"], ["rust-analyzer", "highlight-ls"])

    def test_a_user_entry_that_already_names_highlight_ls_is_left_out(self):
        user = write(self.directory.name, "user.toml", """
[[language]]
name = "rust"
language-servers = ["rust-analyzer", "highlight-ls"]
""")
        code, parsed, _ = run("--user", user, self.builtin)
        self.assertEqual(code, 0)
        self.assertNotIn("rust", servers(parsed))
        self.assertNotIn("already", servers(parsed))

    def test_the_server_is_declared_with_the_built_in_rules_and_a_severity_each(self):
        # The bug of issue 41: only [[language]] entries were printed, and Helix said
        # "Language server 'highlight-ls' not defined"; and without a severity it drew nothing.
        code, parsed, _ = run(self.builtin, "rust")
        self.assertEqual(code, 0)
        server = parsed["language-server"]["highlight-ls"]
        self.assertEqual(server["command"], "highlight-ls")
        rules = server["config"]["highlight"]["rules"]
        self.assertEqual([rule["name"] for rule in rules],
                         ["fixme", "todo", "hack", "note", "review", "deprecated", "task"])
        for rule in rules:
            self.assertIn(rule["severity"], {"error", "warning", "information", "hint"})
            self.assertEqual(rule["style"], rule["name"])
            if "words" in rule:
                self.assertEqual((rule["scope"], rule["wholeWord"]), ("comments", True))
        self.assertEqual(rules[-1]["languages"], ["markdown"])

    def test_a_server_the_user_declares_or_no_server_is_not_declared_again(self):
        user = write(self.directory.name, "user.toml", """
[language-server.highlight-ls]
command = "/opt/highlight-ls/bin/highlight-ls"
""")
        for arguments in (("--user", user, self.builtin), ("--no-server", self.builtin)):
            code, parsed, _ = run(*arguments)
            self.assertEqual(code, 0)
            self.assertNotIn("language-server", parsed)
            self.assertEqual(servers(parsed)["rust"], ["rust-analyzer", "highlight-ls"])

    def test_a_user_file_that_does_not_exist_yet_counts_as_empty(self):
        code, parsed, _ = run("--user", os.path.join(self.directory.name, "missing.toml"), self.builtin, "rust")
        self.assertEqual(code, 0)
        self.assertIn("highlight-ls", parsed["language-server"])
        self.assertEqual(servers(parsed), {"rust": ["rust-analyzer", "highlight-ls"]})

    def test_appending_twice_with_user_gives_valid_toml(self):
        # The recipe appends to the user's file: a second run must not declare the server or
        # the languages again (TOML refuses a table defined twice).
        user = os.path.join(self.directory.name, "languages.toml")
        for _ in range(2):
            result = subprocess.run([sys.executable, SCRIPT, "--user", user, self.builtin],
                                    capture_output=True, text=True, check=True)
            with open(user, "a", encoding="utf-8") as file:
                file.write(result.stdout)
        with open(user, "rb") as file:
            parsed = tomllib.load(file)
        self.assertEqual(parsed["language-server"]["highlight-ls"]["command"], "highlight-ls")
        names = [language["name"] for language in parsed["language"]]
        self.assertEqual(sorted(names), sorted(set(names)))

    def test_unknown_languages_are_an_error(self):
        code, parsed, stderr = run(self.builtin, "rust", "klingon")
        self.assertEqual(code, 2)
        self.assertIsNone(parsed)
        self.assertIn("klingon", stderr)


if __name__ == "__main__":
    unittest.main()
