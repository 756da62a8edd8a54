"""Bots by name: ``make_bot("random")``, ``make_bot("ismcts:iterations=2000,c=1.4", seed=7)``.

A spec is ``NAME`` or ``NAME:key=value,key=value``. Names are what command lines, tournament
files and web lobbies use, so a new bot becomes available everywhere by one :func:`register`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..engine.errors import suggest
from .base import Bot

#: Builds a bot from its options (raw strings, see :class:`~unoarena.bots.base.Options`) and
#: a seed for its own generator.
BotFactory = Callable[[Mapping[str, str], int], Bot]

_NAME = re.compile(r"[a-z][a-z0-9_\-]*")


@dataclass(frozen=True)
class Entry:
    """A registered bot: its name, the factory that builds it from options and a seed, and the
    one-line summary :func:`describe` returns."""

    name: str
    factory: BotFactory
    summary: str


_REGISTRY: dict[str, Entry] = {}


def register(name: str, factory: BotFactory, summary: str = "", *,
             replace: bool = False) -> None:
    """Make a bot available by ``name``. Registering a taken name is an error unless
    ``replace`` is true (so two plug-ins cannot silently shadow each other)."""
    if not _NAME.fullmatch(name):
        raise ValueError(f"bad bot name {name!r}: use lower-case letters, digits, '_' or '-', "
                         "starting with a letter")
    if name in _REGISTRY and not replace:
        raise ValueError(f"a bot named {name!r} is already registered")
    _REGISTRY[name] = Entry(name, factory, summary)


def available() -> list[str]:
    """The registered bot names, sorted."""
    return sorted(_REGISTRY)


def describe(name: str) -> str:
    """The one-line summary a bot was registered with."""
    return _entry(name).summary


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"ismcts:iterations=2000,c=1.4"`` -> ``("ismcts", {"iterations": "2000", "c": "1.4"})``."""
    name, _sep, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if not name:
        raise ValueError(f"empty bot name in {spec!r}: write NAME or NAME:key=value,...")
    options: dict[str, str] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise ValueError(f"bad option {item!r} in bot spec {spec!r}: write key=value")
        if key in options:
            raise ValueError(f"option {key!r} given twice in bot spec {spec!r}")
        options[key] = value.strip()
    return name, options


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of specs. Options also use commas, so an item holding
    ``=`` but no ``:`` continues the previous spec:
    ``"basic,ismcts:iterations=9,c=1.4"`` -> ``["basic", "ismcts:iterations=9,c=1.4"]``."""
    out: list[str] = []
    for item in (p.strip() for p in text.split(",")):
        if not item:
            continue
        if "=" in item and ":" not in item and out:
            out[-1] += "," + item
        else:
            out.append(item)
    return out


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A new bot from a spec; ``ValueError`` names the problem and what is allowed."""
    name, options = parse_spec(spec)
    return _entry(name).factory(options, seed)


def _entry(name: str) -> Entry:
    try:
        return _REGISTRY[name]
    except KeyError:
        match = suggest(name, available())
        hint = f" (did you mean {match}?)" if match else ""
        raise ValueError(f"unknown bot {name!r}{hint}: available "
                         f"{', '.join(available())}") from None
