#!/usr/bin/env bash
# Installs what `make dev` and `make test` need and is missing: Debian
# packages, Go modules, npm packages. Safe to run again; it only acts on what
# is missing. Set MARKWELL_SKIP_APT=1 to skip the package step.
set -euo pipefail
cd "$(dirname "$0")/.."

# libreoffice-writer-nogui (about 90 MB) opens the Word export in the docx round-trip test.
want_pkgs=(curl ca-certificates postgresql poppler-utils tesseract-ocr tesseract-ocr-eng libtesseract-dev libleptonica-dev chromium fonts-dejavu-core libreoffice-writer-nogui)
[ "${1:-}" = "--no-browser" ] && want_pkgs=("${want_pkgs[@]/chromium}")

sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if [ -z "${MARKWELL_SKIP_APT:-}" ] && command -v dpkg-query >/dev/null; then
  missing=()
  for p in "${want_pkgs[@]}"; do
    [ -z "$p" ] && continue
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "bootstrap: installing ${missing[*]}"
    sudo_ apt-get update -qq
    sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
elif [ -z "${MARKWELL_SKIP_APT:-}" ]; then
  echo "bootstrap: not a Debian/Ubuntu system; install PostgreSQL, poppler, tesseract, chromium and LibreOffice Writer yourself (see README)" >&2
fi

# Go: when no go (or one older than 1.21) is installed, fetch the toolchain
# go.mod names from the Go module proxy into .data/go (the Makefile puts it
# on PATH). A newer go switches to that toolchain by itself (GOTOOLCHAIN=auto).
gover=$(sed -n 's/^go //p' go.mod)
have_go() { command -v go >/dev/null && go version | grep -qE 'go1\.(2[1-9]|[3-9][0-9])'; }
if ! have_go && [ ! -x .data/go/bin/go ]; then
  arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)
  echo "bootstrap: fetching Go $gover from the Go module proxy"
  command -v curl >/dev/null && command -v unzip >/dev/null || sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl unzip >/dev/null
  tmp=$(mktemp -d)
  curl -fsSL "https://proxy.golang.org/golang.org/toolchain/@v/v0.0.1-go${gover}.linux-${arch}.zip" -o "$tmp/go.zip"
  unzip -q "$tmp/go.zip" -d "$tmp"
  mkdir -p .data && mv "$tmp"/golang.org/toolchain@*/ .data/go && chmod +x .data/go/bin/* .data/go/pkg/tool/*/* 2>/dev/null || true
  rm -rf "$tmp"
fi
[ -x .data/go/bin/go ] && export PATH="$PWD/.data/go/bin:$PATH"
go mod download

# Node 20+ for the frontend.
if ! command -v node >/dev/null; then
  echo "bootstrap: installing Debian's nodejs and npm"
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 20 ]; then
  echo "bootstrap: Node $(node --version) is too old; Markwell's frontend needs Node 20 or newer (see README)" >&2
  exit 1
fi
# npm ci only when the lock file changed since the last install.
for dir in frontend e2e; do
  [ -f "$dir/package-lock.json" ] || continue
  stamp="$dir/node_modules/.markwell-lock"
  if [ ! -f "$stamp" ] || ! cmp -s "$dir/package-lock.json" "$stamp"; then
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$dir/package-lock.json" "$stamp"
  fi
done

# A secret for signed URLs, made once per checkout.
mkdir -p .data
[ -s .data/secret ] || { head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > .data/secret; chmod 600 .data/secret; }
