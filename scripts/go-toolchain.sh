#!/usr/bin/env bash
# Fetches the Go toolchain go.mod names into a folder, the way `go` fetches
# a toolchain (GOTOOLCHAIN) itself:
#   scripts/go-toolchain.sh VERSION DEST      e.g. 1.26.8 .data/go
#   scripts/go-toolchain.sh --h1 FILE.zip     print a module zip's h1: hash
# - GOPROXY: the environment's, else the one `go env -w` saved (GOENV), else
#   https://proxy.golang.org,direct. Proxies are tried in order: the next one
#   after a 404 or 410 behind ",", after any failure behind "|". A toolchain
#   exists only on a proxy, so "direct" ends the list, and "off" forbids it.
# - GOSUMDB, GONOSUMDB, GONOSUMCHECK, GOPRIVATE: the zip's h1: hash must
#   match the checksum database's (asked through the proxy first, then
#   directly), unless GOSUMDB=off or a pattern names golang.org/toolchain.
#   (go also checks the database's signed tree; this script trusts its TLS.)
# - GOFLAGS holds nothing that changes a toolchain download.
set -euo pipefail

# h1 prints the dirhash "h1:" of a module zip: base64(sha256 of the sorted
# lines "sha256(file)  name\n"), as in go.sum.
h1() {
  local zip=$1 dir list hex
  dir=$(mktemp -d)
  unzip -q "$zip" -d "$dir"
  list=$(cd "$dir" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | tr '\n' '\0' | xargs -0 sha256sum)
  rm -rf "$dir"
  hex=$(printf '%s\n' "$list" | sha256sum | cut -d' ' -f1)
  printf 'h1:%s\n' "$(printf '%b' "$(sed 's/../\\x&/g' <<<"$hex")" | base64)"
}

if [ "${1:-}" = "--h1" ]; then
  h1 "$2"
  exit 0
fi

version=${1:?usage: go-toolchain.sh VERSION DEST}
dest=${2:?usage: go-toolchain.sh VERSION DEST}

# goenv KEY prints go's setting: the environment, else the go env file.
goenv() {
  local v=${!1:-}
  if [ -z "$v" ]; then
    local file=${GOENV:-${XDG_CONFIG_HOME:-$HOME/.config}/go/env}
    [ "$file" != off ] && [ -f "$file" ] && v=$(sed -n "s/^$1=//p" "$file" | tail -n 1)
  fi
  printf '%s' "$v"
}

# matches PATTERNS MODULE: a comma-separated glob matches a path prefix of MODULE.
matches() {
  local p prefix n
  IFS=, read -ra pats <<<"$1"
  for p in "${pats[@]}"; do
    p=${p#"${p%%[![:space:]]*}"}; p=${p%"${p##*[![:space:]]}"}
    [ -z "$p" ] && continue
    n=$(awk -F/ '{print NF}' <<<"$p")
    prefix=$(cut -d/ -f1-"$n" <<<"$2")
    # shellcheck disable=SC2053
    [[ $prefix == $p ]] && return 0
  done
  return 1
}

case "$(uname -m)" in
  x86_64 | amd64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  armv6l | armv7l) arch=armv6l ;;
  i?86) arch=386 ;;
  *) arch=$(uname -m) ;;
esac
mod=golang.org/toolchain
ver="v0.0.1-go${version}.linux-${arch}"
proxy=$(goenv GOPROXY)
proxy=${proxy:-https://proxy.golang.org,direct}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fetch URL FILE prints the HTTP status (000 when nothing answered).
fetch() { curl -sSL --retry 2 -o "$2" -w '%{http_code}' "$1" 2>/dev/null || true; }

got="" tried=() rest=$proxy
while [ -n "$rest" ]; do
  # The next entry and the separator after it.
  entry=${rest%%[,|]*}
  sep=${rest:${#entry}:1}
  rest=${rest:${#entry}+1}
  case "$entry" in
    off) echo "go-toolchain: GOPROXY=$proxy forbids downloads (off); install Go $version yourself or set GOPROXY" >&2; exit 1 ;;
    direct) break ;;
    "") continue ;;
  esac
  url="${entry%/}/$mod/@v/$ver.zip"
  code=$(fetch "$url" "$tmp/go.zip")
  if [ "$code" = 200 ]; then got=${entry%/}; break; fi
  tried+=("$url → ${code/#000/no answer}")
  if [ "$sep" != "|" ] && [ "$code" != 404 ] && [ "$code" != 410 ]; then break; fi
done
if [ -z "$got" ]; then
  echo "go-toolchain: could not fetch Go $version through GOPROXY=$proxy (${tried[*]:-no proxy before direct}); set GOPROXY to a reachable proxy or install Go $version yourself" >&2
  exit 1
fi

# The checksum database, as go asks it.
sumdb=$(goenv GOSUMDB)
sumdb=${sumdb:-sum.golang.org}
nosum=$(goenv GONOSUMDB)
[ -z "$nosum" ] && nosum=$(goenv GONOSUMCHECK)
[ -z "$nosum" ] && nosum=$(goenv GOPRIVATE)
if [ "$sumdb" = off ] || { [ -n "$nosum" ] && matches "$nosum" "$mod"; }; then
  echo "go-toolchain: not checking Go $version against a checksum database (GOSUMDB=$sumdb, GONOSUMDB=${nosum})" >&2
else
  read -r name _key dburl <<<"${sumdb//+/ }"
  dburl=${dburl:-https://$name}
  path="lookup/$mod@$ver"
  want=""
  for u in "$got/sumdb/$name/$path" "${dburl%/}/$path"; do
    if [ "$(fetch "$u" "$tmp/lookup")" = 200 ]; then
      want=$(awk -v m="$mod" -v v="$ver" '$1 == m && $2 == v {print $3}' "$tmp/lookup")
      [ -n "$want" ] && break
    fi
  done
  if [ -z "$want" ]; then
    echo "go-toolchain: the checksum database $name has no answer for $mod@$ver; set GONOSUMDB=$mod (or GOSUMDB=off) to skip the check" >&2
    exit 1
  fi
  have=$(h1 "$tmp/go.zip")
  if [ "$have" != "$want" ]; then
    echo "go-toolchain: $mod@$ver from $got has hash $have, but $name says $want: refusing it" >&2
    exit 1
  fi
fi

unzip -q "$tmp/go.zip" -d "$tmp/x"
mkdir -p "$(dirname "$dest")"
rm -rf "$dest"
mv "$tmp"/x/golang.org/toolchain@*/ "$dest"
chmod +x "$dest"/bin/* "$dest"/pkg/tool/*/* 2>/dev/null || true
echo "go-toolchain: Go $version from $got in $dest"
