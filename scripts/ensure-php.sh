#!/usr/bin/env bash
# Makes sure a PHP command line (`php`) is installed: the WooCommerce plugin tests lint the plugin's
# PHP files with `php -l` and run its gateway class in a PHP harness. Installs Debian's php-cli with
# apt-get when `php` is missing (needs root, or passwordless sudo); fails loudly when it cannot.
set -euo pipefail
source "$(dirname "$0")/apt-install.sh"

if command -v php >/dev/null 2>&1; then
  exit 0
fi

echo "ensure-php: php is missing; installing Debian's php-cli with apt-get" >&2
apt_install ensure-php php-cli

if ! command -v php >/dev/null 2>&1; then
  echo "ensure-php: ERROR: php-cli was installed but \`php\` is not on PATH" >&2
  exit 1
fi

echo "ensure-php: $(php --version 2>/dev/null | head -n 1 || echo php) installed" >&2
