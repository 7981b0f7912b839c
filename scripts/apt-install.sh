#!/usr/bin/env bash
# Shared by the ensure-*.sh scripts: `apt_install TAG PACKAGE...` installs Debian packages with
# apt-get (as root, or with passwordless sudo) and fails loudly, naming TAG, when it cannot.

apt_install() {
  local tag="$1"
  shift
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "$tag: ERROR: apt-get not found; install $* yourself, then rerun" >&2
    return 1
  fi
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo=(sudo -n)
    else
      echo "$tag: ERROR: installing $* needs root (run as root or with passwordless sudo):" >&2
      echo "  apt-get update && apt-get install -y --no-install-recommends $*" >&2
      return 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ! { "${sudo[@]}" apt-get update && "${sudo[@]}" apt-get install -y --no-install-recommends "$@"; }; then
    echo "$tag: ERROR: apt-get could not install $*" >&2
    return 1
  fi
}
