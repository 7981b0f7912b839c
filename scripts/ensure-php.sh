#!/usr/bin/env bash
# Makes sure a PHP command line (`php`) and PHP_CodeSniffer (`phpcs`) are installed: the WooCommerce
# plugin tests lint the plugin's PHP files with `php -l`, check them with `phpcs` against
# plugins/woocommerce/phpcs.xml, and run its gateway class in a PHP harness. Installs Debian's
# php-cli and php-codesniffer with apt-get when they are missing (needs root, or passwordless sudo);
# fails loudly when it cannot.
set -euo pipefail
source "$(dirname "$0")/apt-install.sh"

missing=()
command -v php >/dev/null 2>&1 || missing+=(php-cli)
command -v phpcs >/dev/null 2>&1 || missing+=(php-codesniffer)
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

echo "ensure-php: ${missing[*]} missing; installing with apt-get" >&2
apt_install ensure-php "${missing[@]}"

for tool in php phpcs; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "ensure-php: ERROR: ${missing[*]} installed but \`$tool\` is not on PATH" >&2
    exit 1
  fi
done

echo "ensure-php: $(php --version 2>/dev/null | head -n 1 || echo php), $(phpcs --version 2>/dev/null || echo phpcs) installed" >&2
