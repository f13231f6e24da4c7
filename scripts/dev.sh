#!/usr/bin/env bash
# `make dev`: the whole product on one machine. Installs what is missing,
# starts a project-local PostgreSQL (unless DATABASE_URL is set), applies
# migrations, builds the frontend and runs the API, one worker and, unless an
# AI provider is configured (LLM_BASE_URL), the demo model. Ctrl-C stops all
# of it; the next run reuses the database and files under .data/.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f .env ] && { set -a; . ./.env; set +a; }

scripts/bootstrap.sh
[ -x .data/go/bin/go ] && export PATH="$PWD/.data/go/bin:$PATH"

pids=()
started_pg=""
cleanup() {
  trap - INT TERM EXIT
  echo; echo "Stopping Markwell…"
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  [ -n "$started_pg" ] && scripts/pg.sh stop
  echo "Stopped."
}
trap cleanup INT TERM EXIT

if [ -z "${DATABASE_URL:-}" ]; then
  scripts/pg.sh status || started_pg=1
  scripts/pg.sh start
  export DATABASE_URL=$(scripts/pg.sh url)
fi
export APP_ENV=${APP_ENV:-development}
export DEV_SIGNIN=${DEV_SIGNIN:-true}
export SECRET_KEY=${SECRET_KEY:-$(cat .data/secret)}
PORT=${PORT:-8080}
export HTTP_ADDR=${HTTP_ADDR:-127.0.0.1:$PORT}
export PUBLIC_URL=${PUBLIC_URL:-http://localhost:$PORT}
export LOG_LEVEL=${LOG_LEVEL:-info}

echo "Building…"
mkdir -p .data/bin .data/logs
go build -o .data/bin/ ./cmd/api ./cmd/worker ./cmd/fakellm
npm --prefix frontend run build --silent >/dev/null

if [ -z "${LLM_BASE_URL:-}" ]; then
  FAKELLM_ADDR=${FAKELLM_ADDR:-127.0.0.1:8090}
  export LLM_BASE_URL="http://$FAKELLM_ADDR/v1" DEMO_MODEL=true
  .data/bin/fakellm --addr "$FAKELLM_ADDR" >>.data/logs/fakellm.log 2>&1 &
  pids+=($!)
  echo "No AI provider set: using the demo model at $LLM_BASE_URL"
fi

.data/bin/api migrate >>.data/logs/api.log 2>&1
.data/bin/api >>.data/logs/api.log 2>&1 &
pids+=($!)
.data/bin/worker >>.data/logs/worker.log 2>&1 &
pids+=($!)

for _ in $(seq 1 100); do
  curl -fs "http://$HTTP_ADDR/readyz" >/dev/null 2>&1 && break
  sleep 0.2
done
if ! curl -fs "http://$HTTP_ADDR/readyz" >/dev/null 2>&1; then
  echo "The API did not become ready; see .data/logs/api.log:" >&2
  tail -n 20 .data/logs/api.log >&2
  exit 1
fi
echo
echo "  Markwell is running at $PUBLIC_URL"
echo "  Logs: .data/logs/{api,worker,fakellm}.log — press Ctrl-C to stop."
echo
# Stop everything when any process exits or on Ctrl-C.
wait -n "${pids[@]}" || true
echo "A Markwell process exited; see .data/logs/." >&2
