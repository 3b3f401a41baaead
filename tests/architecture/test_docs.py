"""The docs name only what exists, and stay short enough to read in an evening.

Every repository path README.md and docs/*.md name (`shared/...`, `functions/...`, `tests/...`,
`benchmarks/...`, `docs/...`, `web/...`, `infra/...`, `scripts/...`, `local/...`), every
`make <target>` in their code, and every Markdown link must exist; docs/ holds at most 70 KB.
The checker is shown a made-up doc with each kind of break, and its neighbours that are fine.
"""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
DOCS_LIMIT_BYTES = 70_000

FOLDERS = ("shared", "functions", "tests", "benchmarks", "docs", "web", "infra", "scripts", "local")
# A path starts a word (not `/local/login`, a route, nor `tests.web`, a module) and runs on over
# the characters a path holds; `*` is a glob, `{...}` and `<...>` a placeholder that ends it.
PATH = re.compile(r"(?<![\w./-])(?:" + "|".join(FOLDERS) + r")/[\w./*-]*")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
MAKE = re.compile(r"(?:^|[\s;&|(])make\s+((?:-\S+\s+)*)([^\s`;&|)]+)")
RULE = re.compile(r"^([^\s:#=$][^:#=\n]*?)\s*:(?!=)", re.M)


def make_targets(makefile: str) -> set[str]:
    variables = dict(re.findall(r"^(\w+)\s*:?=\s*(\S+)\s*$", makefile, re.M))
    expanded = re.sub(r"\$\((\w+)\)", lambda m: variables.get(m.group(1), m.group(0)), makefile)
    return {name for line in RULE.findall(expanded) for name in line.split()}


def code_of(text: str) -> list[str]:
    """What a doc shows as code: its fenced blocks and its code spans."""
    return FENCE.findall(text) + CODE_SPAN.findall(FENCE.sub("", text))


def _exists(path: str) -> bool:
    if "*" in path:
        return any(REPO.glob(path))
    return (REPO / path).exists()


def broken(text: str, where: Path, targets: set[str]) -> list[str]:
    """What `text` (a doc in the folder `where`) names that does not exist."""
    paths = [path.rstrip(".,:;") for path in PATH.findall(text)]
    problems = [f"no such path: {path}" for path in paths if not _exists(path)]
    for link in LINK.findall(text):
        target = link.split("#")[0]
        if target and not re.match(r"[a-z]+:", target) and not (where / target).exists():
            problems.append(f"dangling link: {link}")
    for code in code_of(text):
        for _flags, target in MAKE.findall(code):
            if target.rstrip(".,:") not in targets:
                problems.append(f"no such make target: {target}")
    return problems


TARGETS = make_targets((REPO / "Makefile").read_text())


def test_every_path_make_target_and_link_the_docs_name_exists():
    problems = {
        str(doc.relative_to(REPO)): found
        for doc in DOCS
        if (found := broken(doc.read_text(), doc.parent, TARGETS))
    }
    assert problems == {}


def test_docs_stay_under_70_kb():
    size = sum(path.stat().st_size for path in (REPO / "docs").rglob("*") if path.is_file())
    assert size <= DOCS_LIMIT_BYTES, (
        f"docs/ is {size:,} bytes: say it shorter; figures go to benchmarks/FIGURES.md"
    )


FAKE_DOC = """
# A doc with a break of each kind, and the neighbours that are fine

See `shared/game/rules.py`, shared/game/ and `tests/web/*.test.mjs`; not shared/game/no_such.py.
`POST /local/login` is a route and `tests.web` a module: neither is a path.
Read [the game](game.md) and [the spec](https://example.com/spec), not [gone](gone.md#top).
Run `make run`, `LOCAL_MODERATORS=mo make run` and `make -o .venv/.dev bench`, then `make deploy STAGE=x`,
not `make no-such-target`; to make a player a moderator is prose.

```sh
make lint && make nonsense
```
"""


def test_each_kind_of_break_is_caught_and_its_neighbours_pass():
    assert sorted(broken(FAKE_DOC, REPO / "docs", TARGETS)) == [
        "dangling link: gone.md#top",
        "no such make target: no-such-target",
        "no such make target: nonsense",
        "no such path: shared/game/no_such.py",
    ]


def test_a_glob_that_matches_nothing_or_a_placeholder_in_a_missing_folder_is_caught():
    text = "`web/js/nothing/*.js`, benchmarks/gone/<name>.py; benchmarks/<name>.py names a folder that is"
    assert broken(text, REPO, TARGETS) == [
        "no such path: web/js/nothing/*.js",
        "no such path: benchmarks/gone/",
    ]


def test_the_docs_are_read_for_paths_and_targets_at_all():
    text = "\n".join(doc.read_text() for doc in DOCS)
    named = {target for code in code_of(text) for _flags, target in MAKE.findall(code)}
    assert len(set(PATH.findall(text))) > 100
    assert named >= {"run", "test", "bench"}
