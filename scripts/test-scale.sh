#!/usr/bin/env bash
# `make test-scale`: the multi-process layout proven on one machine
# (docs/operations.md, "Running more than one process"). Installs what is
# missing (nginx and PgBouncer from Debian besides bootstrap.sh's packages),
# starts the project-local PostgreSQL unless TEST_DATABASE_URL names a server,
# builds the binaries and runs `cmd/bench -phases scale`: PgBouncer in
# transaction mode, two API replicas behind nginx, two ai workers and one ocr
# worker, the demo model, all on loopback under .data/scale/<time>/; the
# Monday-morning scenario through the proxy, a sign-out and a team removal
# watched across replicas, one API replica and one worker SIGKILLed mid-run.
# Exits non-zero on any failed request or check. Extra arguments
# (SCALE_FLAGS under make) go to cmd/bench, e.g. -out somewhere.json.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bootstrap.sh --no-browser
[ -x .data/go/bin/go ] && export PATH="$PWD/.data/go/bin:$PATH"

sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
if [ -z "${MARKWELL_SKIP_APT:-}" ] && command -v dpkg-query >/dev/null; then
  missing=()
  for p in nginx pgbouncer; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "test-scale: installing ${missing[*]}"
    sudo_ apt-get update -qq
    # Only the programs are used: each run starts its own nginx and PgBouncer
    # with rendered configurations; the system services are left as Debian sets them.
    sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi
# Debian puts nginx and pgbouncer in /usr/sbin, not always on a user's PATH.
export PATH="$PATH:/usr/sbin:/sbin"
for p in nginx pgbouncer; do
  command -v "$p" >/dev/null || { echo "test-scale: $p is missing; install it (apt-get install $p)" >&2; exit 1; }
done

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  admin=$TEST_DATABASE_URL
else
  scripts/pg.sh start
  admin=$(scripts/pg.sh url)
fi

mkdir -p .data/bin .data/scale
go build -o .data/bin/ ./cmd/api ./cmd/worker ./cmd/fakellm
go run ./cmd/bench -phases scale -db "$admin" -out .data/scale/results.json "$@"
