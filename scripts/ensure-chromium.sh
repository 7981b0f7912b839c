#!/usr/bin/env bash
# Makes sure Debian's chromium is installed at /usr/bin/chromium: the browser tests drive it with
# playwright-core, which never downloads a browser of its own. Installs it with apt-get when it is
# missing (needs root, or passwordless sudo); fails loudly when it cannot.
set -euo pipefail
source "$(dirname "$0")/apt-install.sh"

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  exit 0
fi

echo "ensure-chromium: $CHROMIUM is missing; installing Debian's chromium with apt-get" >&2
apt_install ensure-chromium chromium fonts-dejavu-core

if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: ERROR: chromium was installed but $CHROMIUM does not exist" >&2
  exit 1
fi

echo "ensure-chromium: $("$CHROMIUM" --version 2>/dev/null || echo chromium) installed" >&2
