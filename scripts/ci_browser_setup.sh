#!/usr/bin/env bash
# Install what the browser tests need: Debian's Chromium (driven by Playwright through
# executable_path; Playwright's own browser download is never used) and the Playwright
# Python package. Safe to run again: it does nothing when both are there.
#   usage: scripts/ci_browser_setup.sh [PYTHON]   (default: .venv/bin/python, else python3)
set -euo pipefail

py="${1:-}"
if [ -z "$py" ]; then
  if [ -x .venv/bin/python ]; then py=.venv/bin/python; else py=python3; fi
fi

if [ ! -x /usr/bin/chromium ]; then
  if command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    sudo_cmd=""
    if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then sudo_cmd="sudo"; fi
    $sudo_cmd apt-get update -qq
    $sudo_cmd apt-get install -y -qq chromium >/dev/null
  else
    echo "ci_browser_setup: no apt-get here; the browser tests will be skipped" >&2
  fi
fi

# fonts for the pages' Chinese text and emoji names, so screenshots show characters, not boxes
if ! dpkg -s fonts-wqy-microhei fonts-noto-color-emoji >/dev/null 2>&1 \
    && command -v apt-get >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then sudo_cmd="sudo"; fi
  { $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq fonts-wqy-microhei \
      fonts-noto-color-emoji >/dev/null; } \
    || echo "ci_browser_setup: no CJK/emoji fonts; screenshots will show boxes" >&2
fi

if ! "$py" -c "import playwright.sync_api" >/dev/null 2>&1; then
  "$py" -m pip install -q "playwright>=1.44"
fi

if [ -x /usr/bin/chromium ]; then
  /usr/bin/chromium --version 2>/dev/null || true
fi
