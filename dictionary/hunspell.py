"""The second word source (SPEC §2): the LibreOffice British English Hunspell dictionary, from
Debian's pinned `hunspell-en-gb` package, its stems expanded by their affix rules.

SCOWL (the first source) is frozen at 2020; this list is maintained for current use
(`gameplay`, `cyber`, `livestream`). Only its lowercase a-z forms are read; build.py takes in
the frequent ones. Standard library only.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

PACKAGE = "hunspell-en-gb"
VERSION = "1:7.5.0-1"
SHA256 = "02d7e794bf14a644e3083e61fc8f10351133a27403cb653eb43c3145e35d9b3e"
DIC_FILE = Path("usr/share/hunspell/en_GB.dic")
AFF_FILE = Path("usr/share/hunspell/en_GB.aff")
COPYRIGHT_FILE = Path("usr/share/doc/hunspell-en-gb/copyright")


class Affix(NamedTuple):
    """One rule of an affix flag: strip STRIP, add ADD, where CONDITION matches the stem."""

    strip: str
    add: str
    condition: re.Pattern[str]


class AffixFlag(NamedTuple):
    prefix: bool
    cross: bool  # a prefix and a suffix may both apply
    rules: list[Affix]


def read_affixes(text: str) -> dict[str, AffixFlag]:
    """The PFX and SFX flags of an .aff file (one-character flags, no continuation classes)."""
    flags: dict[str, AffixFlag] = {}
    for line in text.split("\n"):
        fields = line.split()
        if len(fields) < 4 or fields[0] not in ("PFX", "SFX"):
            continue
        kind, flag = fields[0], fields[1]
        if flag not in flags:  # the header: PFX flag Y|N count
            flags[flag] = AffixFlag(kind == "PFX", fields[2] == "Y", [])
            continue
        strip = "" if fields[2] == "0" else fields[2]
        add = "" if fields[3] == "0" else fields[3]
        condition = fields[4] if len(fields) > 4 else "."
        pattern = "^" + condition if kind == "PFX" else condition + "$"
        flags[flag].rules.append(Affix(strip, add, re.compile(pattern)))
    return flags


def _apply(stem: str, flag: AffixFlag) -> list[str]:
    forms = []
    for rule in flag.rules:
        if not rule.condition.search(stem):
            continue
        if flag.prefix and stem.startswith(rule.strip):
            forms.append(rule.add + stem[len(rule.strip) :])
        elif not flag.prefix and stem.endswith(rule.strip):
            forms.append(stem[: len(stem) - len(rule.strip)] + rule.add)
    return forms


def expand(dic_text: str, aff_text: str) -> dict[str, str]:
    """Every form of the dictionary (its stems and their affixed forms), each with the .dic
    entry it comes from (`millennials` -> `millennial/SM3`)."""
    flags = read_affixes(aff_text)
    forms: dict[str, str] = {}
    for line in dic_text.split("\n")[1:]:  # the first line is the entry count
        entry = line.split("\t")[0].strip()
        if not entry:
            continue
        stem, _, marks = entry.partition("/")
        own = [flags[m] for m in marks if m in flags]
        found = [stem]
        suffixed = []
        for flag in own:
            if not flag.prefix:
                suffixed += [(form, flag.cross) for form in _apply(stem, flag)]
        found += [form for form, _ in suffixed]
        for flag in own:
            if flag.prefix:
                found += _apply(stem, flag)
                if flag.cross:
                    found += [p for form, cross in suffixed if cross for p in _apply(form, flag)]
        for form in found:
            forms.setdefault(form, entry)
    return forms


def lowercase_forms(root: Path) -> dict[str, str]:
    """The lowercase a-z forms of the extracted package at ROOT, each with its .dic entry."""
    dic = (root / DIC_FILE).read_bytes().decode("utf-8").lstrip("\ufeff")
    aff = (root / AFF_FILE).read_bytes().decode("utf-8").lstrip("\ufeff")
    return {form: entry for form, entry in expand(dic, aff).items() if re.fullmatch(r"[a-z]+", form)}
