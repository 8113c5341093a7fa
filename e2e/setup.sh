#!/usr/bin/env bash
# Installs what the end-to-end tests need on a fresh Debian machine, offline
# apart from the npm registry and Debian's packages: Chromium (the browser
# that shows code-server's workbench), ripgrep (code-server's search, also
# seeded into @vscode/ripgrep's download cache, which would otherwise fetch
# it from GitHub) and libkrb5-dev (a native dependency of code-server), then
# this folder's npm packages. Idempotent: skips what is already there.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
[ -e /usr/include/krb5.h ] || [ -e /usr/include/krb5/krb5.h ] || missing+=(libkrb5-dev)
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ ! -d "$HERE/node_modules/code-server" ]; then
  export TMPDIR="$HERE/.tmp"
  cache="$TMPDIR/vscode-ripgrep-cache-1.15.11"
  mkdir -p "$cache"
  tar czf "$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$(dirname "$(command -v rg)")" rg
  cd "$HERE"
  # code-server's postinstall refuses root without unsafe_perm; node-pty's runs `npx node-gyp`.
  npm_config_unsafe_perm=true npm_config_yes=true npm ci --no-audit --no-fund
fi
