#!/usr/bin/env bash
# Checks that the tests' PostgreSQL starts from a checkout inside a private directory (mode 0700,
# like /root or a `mktemp -d`), as it must for someone who clones into their home directory. As
# root, embedded-postgres runs the server as the postgres user, who cannot enter such a directory;
# test/support/postgres-global-setup.ts runs it from a copy that user can reach.
#
# Copies this checkout's files (node_modules hard-linked, so it takes a second) into a new 0700
# directory under .tmp/, runs one small PostgreSQL test file there, and removes the copy. About
# 15 seconds; gives up after 120.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

if [ ! -d node_modules ]; then
  echo "check-private-checkout: ERROR: node_modules is missing; run npm ci first" >&2
  exit 1
fi

# Under the checkout, on the same file system, so that node_modules can be hard-linked. Hard links,
# not a symbolic link: node resolves a symbolic link back to this checkout, which may be reachable.
mkdir -p .tmp
private="$(mktemp -d "$root/.tmp/private-checkout.XXXXXX")"
cleanup() {
  rm -rf "$private"
  rmdir "$root/.tmp" 2>/dev/null || true
}
trap cleanup EXIT
chmod 0700 "$private"
checkout="$private/checkout"
mkdir "$checkout"

tar -C "$root" --exclude=./.git --exclude=./node_modules --exclude=./.tmp --exclude=./data --exclude=./coverage \
  -cf - . | tar -C "$checkout" -xf -
cp -al node_modules "$checkout/node_modules"
# vitest rewrites its results cache in place: keep this checkout's copy out of the hard links.
rm -rf "$checkout/node_modules/.vite"

echo "check-private-checkout: running test/storage/postgres-server.test.ts from $checkout (mode 0700) as $(id -un)" >&2
if ! (cd "$checkout" && env -u TEST_DATABASE_URL timeout --kill-after=10 120 \
  node_modules/.bin/vitest run test/storage/postgres-server.test.ts); then
  echo "check-private-checkout: FAILED: the tests' PostgreSQL did not start, or the test failed, from a checkout" \
    "in a private (0700) directory, so \`npm test\` fails for anyone who clones into their home directory" \
    "(see test/support/postgres-global-setup.ts and the output above)" >&2
  exit 1
fi
echo "check-private-checkout: ok, the tests' PostgreSQL starts from a checkout in a private directory" >&2
