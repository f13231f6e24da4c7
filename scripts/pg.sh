#!/usr/bin/env bash
# A project-local PostgreSQL cluster under .data/postgres on its own port.
#   scripts/pg.sh start   init (first time) and start; prints nothing else
#   scripts/pg.sh stop    stop it
#   scripts/pg.sh url     the admin connection URL
#   scripts/pg.sh status  exit 0 when running
# As root the cluster runs as the `postgres` OS user (initdb refuses root).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
data="$root/.data/postgres"
log="$root/.data/postgres.log"
portfile="$root/.data/postgres.port"

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# The cluster's port: PG_PORT when given; else the one this checkout chose
# before; else 54329, or the next free port when another checkout's cluster
# (or anything else) already listens there.
if [ -n "${PG_PORT:-}" ]; then
  :
elif [ -s "$portfile" ]; then
  PG_PORT=$(cat "$portfile")
elif grep -qE '^port = [0-9]+' "$data/postgresql.conf" 2>/dev/null; then
  PG_PORT=$(sed -nE 's/^port = ([0-9]+).*/\1/p' "$data/postgresql.conf" | tail -n 1)   # clusters made before the port file
else
  PG_PORT=54329
  while port_busy "$PG_PORT"; do PG_PORT=$((PG_PORT + 1)); done
fi

bindir() {
  if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ] && [ -x "$(pg_config --bindir)/postgres" ]; then
    pg_config --bindir; return
  fi
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -z "$d" ]; then echo "pg.sh: PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; fi
  echo "$d"
}
BIN=$(bindir)

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# As root, the postgres user must reach the data directory. When the checkout
# lives somewhere it cannot enter (e.g. /root), keep the cluster under
# /var/lib/markwell/<hash> and link it from .data/postgres.
prepare_dir() {
  mkdir -p "$root/.data"
  if [ "$(id -u)" != 0 ] || [ -e "$data" ]; then
    mkdir -p "$data"; return
  fi
  if runuser -u postgres -- test -x "$root/.data" 2>/dev/null; then
    mkdir -p "$data"
  else
    local elsewhere="/var/lib/markwell/$(echo -n "$root" | sha256sum | cut -c1-12)/postgres"
    mkdir -p "$elsewhere"
    ln -s "$elsewhere" "$data"
  fi
}

running() { as_owner "$BIN/pg_ctl" -D "$data" status >/dev/null 2>&1; }

case "${1:-}" in
  start)
    prepare_dir
    if [ "$(id -u)" = 0 ]; then
      chown -R postgres:postgres "$(readlink -f "$data")"
      touch "$log"; chown postgres:postgres "$log"
    fi
    chmod 700 "$(readlink -f "$data")"
    mkdir -p "$root/.data" && echo "$PG_PORT" > "$portfile"
    if [ ! -f "$data/PG_VERSION" ]; then
      as_owner "$BIN/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
      cat >> "$data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
max_connections = 300
fsync = off
synchronous_commit = off
full_page_writes = off
CONF
    fi
    if ! running; then
      as_owner "$BIN/pg_ctl" -D "$data" -l "$log" -o "-p $PG_PORT" -w -t 60 start >/dev/null
    fi
    url="postgres://postgres@127.0.0.1:$PG_PORT/markwell?sslmode=disable"
    "$BIN/psql" "postgres://postgres@127.0.0.1:$PG_PORT/postgres?sslmode=disable" -tAc \
      "SELECT 1 FROM pg_database WHERE datname='markwell'" | grep -q 1 ||
      "$BIN/psql" "postgres://postgres@127.0.0.1:$PG_PORT/postgres?sslmode=disable" -qc "CREATE DATABASE markwell" >/dev/null
    ;;
  stop)
    if [ -f "$data/PG_VERSION" ] && running; then as_owner "$BIN/pg_ctl" -D "$data" -m fast -w stop >/dev/null; fi
    ;;
  status) [ -f "$data/PG_VERSION" ] && running ;;
  url) echo "postgres://postgres@127.0.0.1:$PG_PORT/markwell?sslmode=disable" ;;
  *) echo "usage: $0 start|stop|status|url" >&2; exit 2 ;;
esac
