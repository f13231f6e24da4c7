#!/usr/bin/env bash
# `make test`: installs what is missing, starts the project-local PostgreSQL
# when no database is given, then runs go vet, the Go tests (each package in
# a database of its own), the frontend unit tests and the browser suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each phase prints the seconds since make test began, so a slow run says
# where its time went.
phase() { echo "== $* (at ${SECONDS}s)"; }

scripts/bootstrap.sh
[ -x .data/go/bin/go ] && export PATH="$PWD/.data/go/bin:$PATH"

started_pg=""
cleanup() { [ -n "$started_pg" ] && scripts/pg.sh stop || true; }
trap cleanup EXIT
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  scripts/pg.sh status || started_pg=1
  scripts/pg.sh start
  export TEST_DATABASE_URL=$(scripts/pg.sh url)
fi

# versitygw: the S3-compatible server the storage tests start on loopback.
scripts/versitygw.sh

phase "bootstrap scripts (Node check, Go toolchain fetch; ~4 s)"
scripts/bootstrap_test.sh
scripts/fuzz_test.sh
phase "go vet"
go vet ./...
phase "go test"
# The binaries the fault suite and the browser suite run, built once: the
# worker's crash test runs this worker rather than linking one of its own.
mkdir -p .data/bin
go build -o .data/bin/ ./cmd/api ./cmd/worker ./cmd/fakellm
WORKER_BIN="$PWD/.data/bin/worker" go test -count=1 -timeout 10m ./...
# The fuzz targets' seed corpora (testdata/fuzz/) ran with go test above;
# exploring past them is `make test-fuzz` (a few seconds per target there
# cost 1 to 7 minutes here, most of it building each package for fuzzing).
phase "dependency audits (skipped, with one line, when offline)"
scripts/audit.sh
phase "frontend unit tests"
npm --prefix frontend test
phase "browser suite"
npm --prefix frontend run build --silent >/dev/null
phase "fault suite, short form (make test-faults runs the full one; docs/faults.md)"
FAULTS_BIN="$PWD/.data/bin" go test -tags faults -count=1 -parallel 5 -timeout 5m ./internal/faults/
node e2e/run.mjs
phase "done"
