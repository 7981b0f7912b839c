#!/usr/bin/env bash
# Makes sure Debian's chromium is installed at /usr/bin/chromium: the browser tests drive it with
# playwright-core, which never downloads a browser of its own. Installs it with apt-get when it is
# missing (needs root, or passwordless sudo); fails loudly when it cannot.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  exit 0
fi

echo "ensure-chromium: $CHROMIUM is missing; installing Debian's chromium with apt-get" >&2

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: ERROR: apt-get not found; install chromium so that $CHROMIUM exists, then rerun" >&2
  exit 1
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
  else
    echo "ensure-chromium: ERROR: installing chromium needs root (run as root or with passwordless sudo):" >&2
    echo "  apt-get update && apt-get install -y --no-install-recommends chromium fonts-dejavu-core" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
if ! { "${SUDO[@]}" apt-get update && "${SUDO[@]}" apt-get install -y --no-install-recommends chromium fonts-dejavu-core; }; then
  echo "ensure-chromium: ERROR: apt-get could not install chromium" >&2
  exit 1
fi

if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: ERROR: chromium was installed but $CHROMIUM does not exist" >&2
  exit 1
fi

echo "ensure-chromium: $("$CHROMIUM" --version 2>/dev/null || echo chromium) installed" >&2
