#!/usr/bin/env bash
# Tests of bootstrap.sh's Node check and go-toolchain.sh's GOPROXY/GOSUMDB
# handling, with stub commands and a local fake proxy (no network; ~3 s):
#   scripts/bootstrap_test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT
fails=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1" >&2; fails=$((fails + 1)); }

# A PATH with only the basic tools, then the stubs of each case.
mkdir -p "$tmp/base"
for c in bash env sed grep id dirname cat tr head od chmod mkdir cut awk sort find xargs sha256sum base64 mktemp rm mv unzip curl uname tail printf; do
  p=$(command -v "$c" 2>/dev/null) && ln -sf "$p" "$tmp/base/$c"
done
stub() { # stub DIR NAME BODY
  mkdir -p "$1"
  printf '#!/bin/bash\n%s\n' "$3" >"$1/$2"
  chmod +x "$1/$2"
}
# Debian 12: every package installed, apt offers nodejs 18.
debian12() {
  stub "$1" dpkg-query 'echo "install ok installed"'
  stub "$1" apt-get 'echo "apt-get $*" >>"'"$1"'/apt.log"'
  stub "$1" apt-cache 'printf "nodejs:\n  Installed: (none)\n  Candidate: 18.19.0+dfsg-6~deb12u2\n"'
  stub "$1" sudo '"$@"'
}
# bootstrap.sh works in its checkout: give it a copy holding only go.mod, so
# nothing here touches the real .data or node_modules.
mkdir -p "$tmp/repo/scripts"
cp "$root/scripts/bootstrap.sh" "$tmp/repo/scripts/"
cp "$root/go.mod" "$tmp/repo/"
run_bootstrap() { # run_bootstrap STUBDIR: prints stderr+stdout, sets rc
  set +e
  out=$(PATH="$1:$tmp/base" HOME="$tmp" bash "$tmp/repo/scripts/bootstrap.sh" --no-browser 2>&1)
  rc=$?
  set -e
}

# 1. Debian 12 with its own Node 18: one line naming the command, exit 1.
s="$tmp/node18"; debian12 "$s"; stub "$s" node 'case "$1" in --version) echo v18.19.0;; -p) echo 18;; esac'
run_bootstrap "$s"
echo "     $out"
[ "$rc" = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q 'found v18.19.0.*deb.nodesource.com/setup_22.x' <<<"$out" \
  && pass "Node 18: one actionable line, stops" || fail "Node 18 (rc=$rc): $out"

# 2. Fresh Debian 12, no Node at all: Debian's 18 is not installed, same line.
s="$tmp/nonode"; debian12 "$s"
run_bootstrap "$s"
echo "     $out"
[ "$rc" = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q 'found no Node.js.*setup_22.x' <<<"$out" && ! grep -q nodejs "$s/apt.log" 2>/dev/null \
  && pass "no Node: Debian's Node 18 not installed, one line" || fail "no Node (rc=$rc): $out"

# 3. apt offers Node 22 (Debian 13, NodeSource): it is installed and used.
s="$tmp/apt22"; debian12 "$s"
stub "$s" apt-cache 'printf "nodejs:\n  Candidate: 22.12.0-1nodesource1\n"'
stub "$s" apt-get 'echo "apt-get $*" >>"'"$s"'/apt.log"; [[ " $* " == *" nodejs "* ]] && printf "#!/bin/bash\necho 22\n" >"'"$s"'/node" && chmod +x "'"$s"'/node"; exit 0'
stub "$s" go '[ "$1" = version ] && echo "go version go1.26.8 linux/amd64"; exit 0'
stub "$s" npm 'exit 0'
run_bootstrap "$s"
[ "$rc" = 0 ] && grep -q "install -y -qq nodejs npm" "$s/apt.log" && ! grep -q "Node.js 20 or newer" <<<"$out" \
  && pass "Node 22 from apt: installed, no refusal" || fail "apt Node 22 (rc=$rc): $out"

# --- go-toolchain.sh against a fake proxy (python3 serves it) -------------
if ! command -v python3 >/dev/null; then
  echo "skip go-toolchain.sh tests: python3 is not installed (apt-get install python3-minimal)"
  [ "$fails" = 0 ] && exit 0 || exit 1
fi
arch=$(case "$(uname -m)" in x86_64 | amd64) echo amd64 ;; aarch64 | arm64) echo arm64 ;; *) uname -m ;; esac)
ver="v0.0.1-go9.9.9.linux-$arch"
mk_proxy() { # mk_proxy DIR SUM: a proxy holding the toolchain, its sumdb answering SUM ("" = right one)
  local d=$1 z
  mkdir -p "$d/golang.org/toolchain/@v" "$d/sumdb/sum.golang.org/lookup/golang.org" "$tmp/src/golang.org/toolchain@$ver/bin"
  printf '#!/bin/sh\necho go9.9.9\n' >"$tmp/src/golang.org/toolchain@$ver/bin/go"
  z="$d/golang.org/toolchain/@v/$ver.zip"
  (cd "$tmp/src" && python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], "w"); [z.write(p) for p in sys.argv[2:]]' "$z" "golang.org/toolchain@$ver/bin/go")
  printf '1\ngolang.org/toolchain %s %s\ngolang.org/toolchain %s/go.mod h1:x=\n' "$ver" "${2:-$("$root/scripts/go-toolchain.sh" --h1 "$z")}" "$ver" \
    >"$d/sumdb/sum.golang.org/lookup/golang.org/toolchain@$ver"
}
mkdir -p "$tmp/www/empty"
mk_proxy "$tmp/www/good" ""
mk_proxy "$tmp/www/bad" "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$tmp/www" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
deadport=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
P="http://127.0.0.1:$port"
fetch() { # fetch: env assignments..., prints output, sets rc
  rm -rf "$tmp/dest"
  set +e
  out=$(env -u GOPROXY -u GOSUMDB -u GONOSUMDB -u GONOSUMCHECK -u GOPRIVATE GOENV="$tmp/goenv" HOME="$tmp" "$@" "$root/scripts/go-toolchain.sh" 9.9.9 "$tmp/dest" 2>&1)
  rc=$?
  set -e
}
fetch GOPROXY="$P/empty,$P/good"
[ "$rc" = 0 ] && [ "$("$tmp/dest/bin/go")" = go9.9.9 ] && pass "GOPROXY: 404 on the first, fetched from the second" || fail "404 fallback (rc=$rc): $out"
fetch GOPROXY="http://127.0.0.1:$deadport,$P/good"
[ "$rc" = 1 ] && grep -q "no answer" <<<"$out" && pass "GOPROXY ',': a proxy that does not answer ends the list" || fail "comma (rc=$rc): $out"
fetch GOPROXY="http://127.0.0.1:$deadport|$P/good"
[ "$rc" = 0 ] && pass "GOPROXY '|': any failure tries the next" || fail "pipe (rc=$rc): $out"
fetch GOPROXY=off
[ "$rc" = 1 ] && grep -q "forbids downloads" <<<"$out" && pass "GOPROXY=off refuses" || fail "off (rc=$rc): $out"
fetch GOPROXY="direct"
[ "$rc" = 1 ] && grep -q "set GOPROXY to a reachable proxy" <<<"$out" && pass "GOPROXY=direct: says a proxy is needed" || fail "direct (rc=$rc): $out"
echo "GOPROXY=$P/good" >"$tmp/goenv"
fetch
[ "$rc" = 0 ] && grep -q "from $P/good" <<<"$out" && pass "GOPROXY from the go env file (go env -w)" || fail "GOENV (rc=$rc): $out"
rm -f "$tmp/goenv"
fetch GOPROXY="$P/bad"
[ "$rc" = 1 ] && grep -q "refusing it" <<<"$out" && [ ! -e "$tmp/dest" ] && pass "a hash the checksum database disowns is refused" || fail "bad sum (rc=$rc): $out"
fetch GOPROXY="$P/bad" GONOSUMDB="golang.org"
[ "$rc" = 0 ] && pass "GONOSUMDB=golang.org skips the check" || fail "GONOSUMDB (rc=$rc): $out"
fetch GOPROXY="$P/bad" GOSUMDB=off
[ "$rc" = 0 ] && pass "GOSUMDB=off skips the check" || fail "GOSUMDB=off (rc=$rc): $out"

[ "$fails" = 0 ] && echo "bootstrap tests: all passed" || { echo "bootstrap tests: $fails failed" >&2; exit 1; }
