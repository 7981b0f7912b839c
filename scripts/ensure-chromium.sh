#!/usr/bin/env bash
# Makes sure Debian's chromium is installed at /usr/bin/chromium: the browser tests drive it with
# playwright-core, which never downloads a browser of its own. Installs it with apt-get when it is
# missing (needs root, or passwordless sudo); fails loudly when it cannot.
#
# Also makes sure a font draws the dram sign ֏ (U+058F): DejaVu has the Armenian letters but not
# the sign, which Chromium would leave blank in the Armenian pages and their screenshots; Debian's
# fonts-noto-core brings Noto Sans Armenian, which has both.
set -euo pipefail
source "$(dirname "$0")/apt-install.sh"

CHROMIUM=/usr/bin/chromium

has_dram_font() {
  command -v fc-list >/dev/null 2>&1 && [ -n "$(fc-list ':charset=58f' family)" ]
}

if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: $CHROMIUM is missing; installing Debian's chromium with apt-get" >&2
  apt_install ensure-chromium chromium fonts-dejavu-core fonts-noto-core
  if [ ! -x "$CHROMIUM" ]; then
    echo "ensure-chromium: ERROR: chromium was installed but $CHROMIUM does not exist" >&2
    exit 1
  fi
  echo "ensure-chromium: $("$CHROMIUM" --version 2>/dev/null || echo chromium) installed" >&2
fi

if ! has_dram_font; then
  echo "ensure-chromium: no font draws the dram sign (U+058F); installing Debian's fonts-noto-core" >&2
  apt_install ensure-chromium fonts-noto-core
  if ! has_dram_font; then
    echo "ensure-chromium: ERROR: fonts-noto-core was installed but no font draws U+058F" >&2
    exit 1
  fi
fi
