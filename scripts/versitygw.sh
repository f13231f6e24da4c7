#!/usr/bin/env bash
# Builds versitygw (an S3-compatible server the storage tests start on
# loopback) into .data/bin once. The tests take the same lock, so both may run.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .data/bin
[ -x .data/bin/versitygw ] && exit 0
echo "bootstrap: building versitygw v1.8.0 for the S3 tests (once, ~2 minutes)"
flock .data/bin/.versitygw.lock env GOBIN="$PWD/.data/bin" go install github.com/versity/versitygw/cmd/versitygw@v1.8.0
