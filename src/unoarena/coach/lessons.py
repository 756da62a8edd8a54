"""Lessons: a real table set up from a scenario, a task there, and why anything else is not it.

A lesson is a YAML file under ``coach/lessons/<book>/`` (a new rule's lesson is a new file)::

    title: {en: Match the colour, zh_TW: ..., zh_CN: ...}
    goal: {en: "Play a card of the colour in force.", ...}
    learner: 0                      # the seat the player sits at
    expect: ["play R5", "play R2"]  # action patterns that complete the lesson
    success: {en: ..., ...}         # said when the player does it
    wrong:                          # first match wins: action patterns, or refusal codes
      - when: ["draw"]
        say: {en: ..., ...}
      - when: ["refused:does_not_match"]
        say: {en: ..., ...}
    otherwise: {en: ..., ...}       # any other legal action
    rules_covered: [TURN-1]
    scenario: {rules: classic, players: 2, setup: ..., steps: ...}   # SCENARIOS.md

Patterns are the engine's action syntax (``str(Action)``) with ``*`` as a wildcard (fnmatch);
a pattern without ``uno`` ignores the UNO flag of a play, one with ``uno`` requires it.
``refused`` matches any refusal, ``refused:CODE`` a DIG-4 code. Texts carry every supported
language in the file itself, so that a lesson stays one file (the i18n catalogues hold the
program's words, not the lessons').
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..engine import ERROR_CODES, Action, Game, IllegalAction, RuleSet
from ..scenarios import Scenario, ScenarioError, load_yaml_documents
from ..scenarios import parse_scenario as _parse_scenario
from ..scenarios.runner import _engine_setup, _Failed, _Run
from ..text.i18n import SUPPORTED, language

#: The rule books, in the order a learner meets them, with the preset each lesson folder uses.
BOOKS: tuple[str, ...] = ("classic", "buzz", "frozen2", "house", "attack")
LESSONS_DIR = Path(__file__).resolve().parent / "lessons"
_KEYS = {"title", "goal", "learner", "expect", "success", "wrong", "otherwise",
         "rules_covered", "scenario"}
MAX_LESSON_BYTES = 256 * 1024


class LessonError(ValueError):
    """A lesson file that does not follow the format: names the file and what is wrong."""


Texts = dict[str, str]


@dataclass(frozen=True)
class Wrong:
    """An explanation and the actions (or refusals) it answers."""

    when: tuple[str, ...]
    say: Texts


@dataclass(frozen=True)
class Lesson:
    """One lesson (see the module docstring)."""

    id: str  # "<book>/<file stem>"
    book: str
    title: Texts
    goal: Texts
    learner: int
    expect: tuple[str, ...]
    success: Texts
    wrong: tuple[Wrong, ...]
    otherwise: Texts
    rules_covered: tuple[str, ...]
    scenario: Scenario
    file: str

    def start(self, marks: list[int] | None = None) -> Game:
        """The lesson's table: the scenario's setup with its steps played (their expectations
        checked); a LessonError when the scenario does not run. ``marks`` gets the number of
        events the deal made (the steps' events follow)."""
        s = self.scenario
        try:
            rules = RuleSet.from_dict(s.rules)
            setup, scores = _engine_setup(s.setup, rules)
            game = Game(rules, s.seed, s.dealer, setup=setup, scores=list(scores))
            run = _Run(game, rules, list(scores))
            if marks is not None:
                marks.append(len(game.events))
            for step in s.steps:
                run.step(step)
        except (ValueError, IndexError, _Failed, IllegalAction) as e:
            raise LessonError(f"{self.file}: the scenario does not run: {e}") from None
        return game

    def judge(self, game: Game, action: Action | str, lang: str | None = None) -> Verdict:
        """What the lesson says of ``action`` by the learner on ``game`` (which is not
        changed): done, or the explanation of why not; in ``lang`` (default: the current
        language)."""
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except IllegalAction as e:
                return Verdict(False, self._refusal(e.code, lang), e.code)
        trial = game.clone(record_events=False)
        try:
            trial.apply(action, self.learner)
        except IllegalAction as e:
            return Verdict(False, self._refusal(e.code, lang), e.code)
        if any(matches(p, action) for p in self.expect):
            return Verdict(True, text(self.success, lang))
        for w in self.wrong:
            if any(not p.startswith("refused") and matches(p, action) for p in w.when):
                return Verdict(False, text(w.say, lang))
        return Verdict(False, text(self.otherwise, lang))

    def _refusal(self, code: str, lang: str | None) -> str:
        for w in self.wrong:
            if "refused" in w.when or f"refused:{code}" in w.when:
                return text(w.say, lang)
        from .rulehelp import refusal_help
        return text(self.otherwise, lang) + " " + refusal_help(RuleSet.from_dict(
            self.scenario.rules), code).text


@dataclass(frozen=True)
class Verdict:
    """The lesson's answer to an action: ``done``, and what to tell the learner; ``refused``
    is the engine's code when the action was not even allowed."""

    done: bool
    say: str
    refused: str = ""


def matches(pattern: str, action: Action) -> bool:
    """Does ``action`` fit ``pattern`` (see the module docstring)?"""
    wants_uno = pattern.split()[-1:] == ["uno"]
    shown = str(action) if wants_uno else str(action.without_uno())
    return fnmatch.fnmatchcase(shown, pattern)


def text(texts: Texts, lang: str | None = None) -> str:
    """A lesson text in ``lang`` (default: the current language; English when missing)."""
    return texts.get(lang or language()) or texts.get("en", "")


# ------------------------------------------------------------------------------------------------
# reading
# ------------------------------------------------------------------------------------------------
def lesson_files(book: str | None = None, root: Path = LESSONS_DIR) -> list[Path]:
    """The lesson files of a book (every book when None), in order (file names sort them)."""
    books = [book] if book else [b for b in BOOKS if (root / b).is_dir()]
    out: list[Path] = []
    for b in books:
        folder = root / b
        if not folder.is_dir():
            raise LessonError(f"no lessons for {b!r}: the books are {', '.join(BOOKS)}")
        out += sorted(folder.glob("*.yaml"))
    return out


def load_lessons(book: str | None = None, root: Path = LESSONS_DIR) -> list[Lesson]:
    """Every lesson of a book (or of every book), in order; LessonError for a bad file."""
    return [load_lesson(f) for f in lesson_files(book, root)]


def load_lesson(path: Path) -> Lesson:
    """Read and check one lesson file."""
    where = str(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise LessonError(f"cannot read {where}: {e.strerror}") from None
    if len(raw) > MAX_LESSON_BYTES:
        raise LessonError(f"{where}: larger than {MAX_LESSON_BYTES} bytes")
    try:
        docs = load_yaml_documents(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, yaml.YAMLError, RecursionError) as e:
        raise LessonError(f"{where}: not readable YAML: {' '.join(str(e).split())[:300]}"
                          ) from None
    if len(docs) != 1 or not isinstance(docs[0], dict):
        raise LessonError(f"{where}: a lesson file holds one mapping")
    return parse_lesson(docs[0], where, path.parent.name, path.stem)


def parse_lesson(doc: dict[str, Any], where: str, book: str, stem: str) -> Lesson:
    """A lesson from its parsed YAML mapping; LessonError names the key that is wrong."""
    unknown = sorted(set(map(str, doc)) - _KEYS)
    if unknown:
        raise LessonError(f"{where}: unknown key {unknown[0]!r}; the keys are "
                          f"{', '.join(sorted(_KEYS))}")
    for key in ("title", "goal", "expect", "success", "otherwise", "scenario"):
        if key not in doc:
            raise LessonError(f"{where}: {key!r} is missing")
    scen = doc["scenario"]
    if not isinstance(scen, dict):
        raise LessonError(f"{where}: 'scenario' must be a mapping in the SCENARIOS.md format")
    scen = {"name": _texts(doc["title"], where, "title")["en"], **scen}
    try:
        scenario = _parse_scenario(scen, where)
    except ScenarioError as e:
        raise LessonError(f"{where}: scenario: {e}") from None
    learner = doc.get("learner", 0)
    if not isinstance(learner, int) or isinstance(learner, bool) or learner < 0:
        raise LessonError(f"{where}: 'learner' must be a seat number, not {learner!r}")
    wrong = []
    for i, w in enumerate(_list(doc.get("wrong", []), where, "wrong")):
        if not isinstance(w, dict) or set(w) != {"when", "say"}:
            raise LessonError(f"{where}: wrong[{i}] must have exactly 'when' and 'say'")
        when = _patterns(w["when"], where, f"wrong[{i}].when")
        for p in when:
            if p.startswith("refused:") and p[8:] not in ERROR_CODES:
                raise LessonError(f"{where}: wrong[{i}]: unknown refusal {p[8:]!r}; the codes "
                                  f"are {', '.join(ERROR_CODES)}")
        wrong.append(Wrong(when, _texts(w["say"], where, f"wrong[{i}].say")))
    covered = _list(doc.get("rules_covered", []), where, "rules_covered")
    return Lesson(
        id=f"{book}/{stem}", book=book, title=_texts(doc["title"], where, "title"),
        goal=_texts(doc["goal"], where, "goal"), learner=learner,
        expect=_patterns(doc["expect"], where, "expect"),
        success=_texts(doc["success"], where, "success"), wrong=tuple(wrong),
        otherwise=_texts(doc["otherwise"], where, "otherwise"),
        rules_covered=tuple(str(r) for r in covered), scenario=scenario, file=where)


def _list(v: Any, where: str, key: str) -> list[Any]:
    if not isinstance(v, list):
        raise LessonError(f"{where}: {key!r} must be a list")
    return v


def _patterns(v: Any, where: str, key: str) -> tuple[str, ...]:
    items = _list(v, where, key)
    if not items or not all(isinstance(p, str) and p.strip() for p in items):
        raise LessonError(f"{where}: {key!r} must be a non-empty list of action patterns")
    return tuple(" ".join(p.split()) for p in items)


def _texts(v: Any, where: str, key: str) -> Texts:
    if not isinstance(v, dict) or not all(isinstance(t, str) and t.strip() for t in v.values()):
        raise LessonError(f"{where}: {key!r} must map languages ({', '.join(SUPPORTED)}) to "
                          "texts")
    missing = [lang for lang in SUPPORTED if lang not in v]
    if missing:
        raise LessonError(f"{where}: {key!r} lacks {', '.join(missing)}")
    extra = sorted(set(map(str, v)) - set(SUPPORTED))
    if extra:
        raise LessonError(f"{where}: {key!r}: unknown language {extra[0]!r}; use "
                          f"{', '.join(SUPPORTED)}")
    return {str(k): " ".join(str(t).split()) for k, t in v.items()}
