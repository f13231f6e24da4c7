#!/usr/bin/env bash
# Installs what `make dev` and `make test` need and is missing: Debian
# packages, Go modules, npm packages. Safe to run again; it only acts on what
# is missing. Set MARKWELL_SKIP_APT=1 to skip the package step.
set -euo pipefail
cd "$(dirname "$0")/.."

# libreoffice-writer-nogui (about 90 MB) opens the Word export in the docx round-trip test;
# with libreoffice-impress-nogui it also shows Word and PowerPoint submissions as their pages.
# libreoffice-calc-nogui (tests only) reads the XLSX export back as a spreadsheet program would.
# libheif-examples (heif-convert) reads HEIC photos; from Debian 13 its HEVC decoder is a plugin package.
want_pkgs=(curl ca-certificates postgresql poppler-utils tesseract-ocr tesseract-ocr-eng libtesseract-dev libleptonica-dev chromium fonts-dejavu-core libreoffice-writer-nogui libreoffice-impress-nogui libreoffice-calc-nogui libheif-examples fonts-noto-core fonts-noto-cjk)
if command -v apt-cache >/dev/null && apt-cache show libheif-plugin-libde265 >/dev/null 2>&1; then want_pkgs+=(libheif-plugin-libde265); fi
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

# Node 20+ for the frontend, checked before the long steps. Debian 12 and
# Ubuntu 24.04 ship Node 18, so their nodejs is installed only when apt's
# candidate is new enough; otherwise one line says what to run, and stops.
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
apt_ok() { [ -z "${MARKWELL_SKIP_APT:-}" ] && command -v apt-get >/dev/null; }
if ! command -v node >/dev/null && apt_ok; then
  cand=$(apt-cache policy nodejs 2>/dev/null | sed -n 's/^ *Candidate: *\([0-9]*:\)\{0,1\}\([0-9][0-9]*\).*/\2/p')
  if [ "${cand:-0}" -ge 20 ]; then
    echo "bootstrap: installing nodejs and npm"
    sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
  fi
fi
if ! command -v node >/dev/null || [ "$(node_major)" -lt 20 ]; then
  have=$(command -v node >/dev/null && node --version || echo "no Node.js")
  if apt_ok; then
    su=$([ "$(id -u)" = 0 ] || echo "sudo ")
    echo "bootstrap: Markwell needs Node.js 20 or newer (found $have); run: curl -fsSL https://deb.nodesource.com/setup_22.x | ${su}bash - && ${su}apt-get install -y nodejs — then run make again" >&2
  else
    echo "bootstrap: Markwell needs Node.js 20 or newer (found $have); install Node.js 22 (e.g. nvm install 22, or brew install node) and run make again" >&2
  fi
  exit 1
fi
if ! command -v npm >/dev/null; then
  if apt_ok; then
    sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null
  else
    echo "bootstrap: Node.js $(node --version) has no npm; install npm for it and run make again" >&2
    exit 1
  fi
fi

# Go: when no go (or one older than 1.21) is installed, fetch the toolchain
# go.mod names into .data/go (the Makefile puts it on PATH) through GOPROXY
# and checked against GOSUMDB, as go itself would (scripts/go-toolchain.sh).
# A newer go switches to that toolchain by itself (GOTOOLCHAIN=auto).
gover=$(sed -n 's/^go //p' go.mod)
have_go() { command -v go >/dev/null && go version | grep -qE 'go1\.(2[1-9]|[3-9][0-9])'; }
if ! have_go && [ ! -x .data/go/bin/go ]; then
  command -v curl >/dev/null && command -v unzip >/dev/null || sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl unzip >/dev/null
  scripts/go-toolchain.sh "$gover" .data/go
fi
[ -x .data/go/bin/go ] && export PATH="$PWD/.data/go/bin:$PATH"
go mod download

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
