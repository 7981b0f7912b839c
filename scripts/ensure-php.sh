#!/usr/bin/env bash
# Makes sure a PHP command line (`php`) is installed: the WooCommerce plugin tests lint the plugin's
# PHP files with `php -l` and run its gateway class in a PHP harness. Installs Debian's php-cli with
# apt-get when `php` is missing (needs root, or passwordless sudo); fails loudly when it cannot.
set -euo pipefail

if command -v php >/dev/null 2>&1; then
  exit 0
fi

echo "ensure-php: php is missing; installing Debian's php-cli with apt-get" >&2

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-php: ERROR: apt-get not found; install a PHP command line (7.4 or later) so that \`php\` is on PATH, then rerun" >&2
  exit 1
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
  else
    echo "ensure-php: ERROR: installing php needs root (run as root or with passwordless sudo):" >&2
    echo "  apt-get update && apt-get install -y --no-install-recommends php-cli" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
if ! { "${SUDO[@]}" apt-get update && "${SUDO[@]}" apt-get install -y --no-install-recommends php-cli; }; then
  echo "ensure-php: ERROR: apt-get could not install php-cli" >&2
  exit 1
fi

if ! command -v php >/dev/null 2>&1; then
  echo "ensure-php: ERROR: php-cli was installed but \`php\` is not on PATH" >&2
  exit 1
fi

echo "ensure-php: $(php --version 2>/dev/null | head -n 1 || echo php) installed" >&2
