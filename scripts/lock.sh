#!/usr/bin/env bash
# requirements/ci.lock: every package CI installs (the extras below), each pinned to one release,
# resolved with pip-tools for Python 3.11 on Linux. CI installs exactly these, so a new release
# of a dependency cannot change a CI run unseen; taking new releases is a commit of this file.
#
#   scripts/lock.sh                         # after editing a dependency in pyproject.toml: adds,
#                                           # drops or bumps only what the edit needs
#   scripts/lock.sh --upgrade               # take the newest release of everything
#   scripts/lock.sh --upgrade-package NAME  # ... of one package (repeatable)
#   scripts/lock.sh --check                 # does the lock match pyproject.toml? (CI runs this)
#
# The lock records a digest of pyproject.toml's dependency lists; CI refuses a lock whose digest
# differs, so a dependency added without running this script fails at once, by name.
# PYTHON (default python3.11) must be a Python 3.11; the script works in a temporary venv.
set -euo pipefail

cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3.11}"
LOCK=requirements/ci.lock
EXTRAS=(dev test web postgres rl lab cluster fast mcp docs)
PIP_TOOLS="pip-tools==7.6.2"  # pinned too: its output format is part of the lock

digest() {
    "$1" - "${EXTRAS[@]}" <<'PY'
import hashlib, json, sys, tomllib
project = tomllib.load(open("pyproject.toml", "rb"))["project"]
extras = project.get("optional-dependencies", {})
deps = {"python": project.get("requires-python"), "dependencies": project.get("dependencies"),
        "extras": {name: extras.get(name) for name in sys.argv[1:]}}
print(hashlib.sha256(json.dumps(deps, sort_keys=True).encode()).hexdigest()[:16])
PY
}

if [ "${1:-}" = "--check" ]; then
    want="# pyproject dependencies digest: $(digest "${2:-$PYTHON}")"
    if ! grep -qxF "$want" "$LOCK"; then
        echo "$LOCK does not match the dependencies in pyproject.toml: run scripts/lock.sh" \
             "and commit $LOCK" >&2
        exit 1
    fi
    exit 0
fi

"$PYTHON" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11) and
    f"scripts/lock.sh pins for Python 3.11; {sys.executable} is {sys.version.split()[0]} "
    "(set PYTHON=python3.11)")'

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$PYTHON" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$PIP_TOOLS"

mkdir -p "$(dirname "$LOCK")"
extra_args=()
for e in "${EXTRAS[@]}"; do extra_args+=(--extra "$e"); done
# no index or find-links lines: the lock names releases, wherever pip is configured to find them
CUSTOM_COMPILE_COMMAND="scripts/lock.sh" "$work/venv/bin/python" -m piptools compile \
    --quiet --strip-extras --no-emit-index-url --no-emit-find-links --no-emit-trusted-host \
    "${extra_args[@]}" --output-file "$LOCK" "$@" pyproject.toml

sed -i '/^# pyproject dependencies digest: /d' "$LOCK"
# the project itself comes in through its self-referring extras (dev = unoarena[test], ...) as a
# path on this machine: CI installs it from its own checkout, so it is no pin
"$PYTHON" - "$LOCK" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
open(path, "w").write(re.sub(r"^unoarena @ [^\n]*\n(?:    #[^\n]*\n)*", "", text, flags=re.M))
PY
echo "# pyproject dependencies digest: $(digest "$PYTHON")" >> "$LOCK"
echo "wrote $LOCK ($(grep -c '==' "$LOCK") packages)"
