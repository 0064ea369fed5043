"""The JSON Schema shipped for .highlights.json, checked by an independent validator.

Every configuration example in docs/CONFIGURATION.md must be valid under the schema, and
configurations the server rejects must be invalid under it too.
"""
import json
import pathlib
import re

import jsonschema
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schema" / "highlights.schema.json").read_text(encoding="utf-8"))


def strip_jsonc(text: str) -> str:
    """Removes // and /* */ comments (outside strings) and trailing commas, as the server accepts them."""
    out, i, in_string = [], 0, False
    while i < len(text):
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif text.startswith("//", i):
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        elif text.startswith("/*", i):
            i = text.index("*/", i) + 2
            continue
        else:
            out.append(c)
        i += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))


def reference_examples() -> list[str]:
    reference = (ROOT / "docs" / "CONFIGURATION.md").read_text(encoding="utf-8")
    return re.findall(r"```jsonc\n(.*?)```", reference, flags=re.S)


def test_schema_is_valid_draft_07():
    jsonschema.Draft7Validator.check_schema(SCHEMA)


def test_the_reference_has_examples():
    assert len(reference_examples()) >= 4


@pytest.mark.parametrize("example", reference_examples())
def test_reference_examples_are_valid(example):
    jsonschema.Draft7Validator(SCHEMA).validate(json.loads(strip_jsonc(example)))


@pytest.mark.parametrize("config", [
    {"rules": [{"name": "x", "words": ["a"], "colour": "#fff"}]},    # unknown key
    {"rules": [{"name": "9lives", "words": ["a"]}]},                  # bad rule name
    {"rules": [{"words": ["a"]}]},                                     # no name
    {"styles": {"s": {"color": "red"}}},                               # colour names are not colours
    {"defaults": "yes"},                                               # wrong type
    {"unknown": 1},                                                    # unknown top-level key
    {"styles": {"s": {"overviewRuler": {"lane": "middle"}}}},          # unknown lane
    {"styles": {"s": {"overviewRuler": "red"}}},                       # not a colour
    {"styles": {"s": {"overviewRuler": {"colour": "#f00"}}}},          # unknown key of a ruler mark
    {"styles": {"s": {"gutter": ""}}},                                 # an empty sign
    {"styles": {"s": {"gutter": "a\tb"}}},                            # a control character
    {"styles": {"s": {"gutter": "a sign far too long"}}},              # more than eight characters
    {"styles": {"s": {"gutter": {"text": "!", "color": "blue"}}}},     # not a colour
    {"styles": {"s": {"gutter": 1}}},                                  # wrong type
    {"styles": {"s": {"wholeLine": "yes"}}},                           # wrong type
])
def test_configurations_the_server_rejects_are_invalid(config):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft7Validator(SCHEMA).validate(config)


@pytest.mark.parametrize("style", [
    {"overviewRuler": True},
    {"overviewRuler": False},
    {"overviewRuler": "#f00"},
    {"overviewRuler": {"color": "#ff000080", "lane": "full"}},
    {"overviewRuler": {"lane": "left"}},
    {"gutter": True},
    {"gutter": "!"},
    {"gutter": "漢"},
    {"gutter": {"text": "T", "color": "#00f"}},
    {"gutter": {"color": "#00f"}},
    {"backgroundColor": "#f9a82533", "wholeLine": True},
])
def test_line_indicator_styles_are_valid(style):
    config = {"styles": {"s": style}, "rules": [{"name": "r", "words": ["R"], "style": style, "groups": {}}]}
    jsonschema.Draft7Validator(SCHEMA).validate(config)
