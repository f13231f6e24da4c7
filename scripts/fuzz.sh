#!/usr/bin/env bash
# Runs every Go fuzz target for a bounded time, one after another (the fuzzer
# uses every core). `make test` runs this with the default 3 s per target
# (about a minute in all); `make test-fuzz FUZZTIME=2m` explores longer.
# The seed corpora live in each package's testdata/fuzz/<Target>/ and also
# run with plain `go test`. A failing input is written there by Go: commit it
# with the fix.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .data/go/bin/go ] && export PATH="$PWD/.data/go/bin:$PATH"

FUZZTIME=${FUZZTIME:-3s}
targets=(
  "./internal/highlight FuzzParse"
  "./internal/highlight FuzzBuildParse"
  "./internal/chatdoc FuzzSplit"
  "./internal/chatdoc FuzzStreamer"
  "./internal/csvimport FuzzParse"
  "./internal/blob FuzzSanitizeFileName"
  "./internal/blob FuzzKeyFromURL"
  "./internal/extract FuzzDOCX"
  "./internal/extract FuzzDOCXBody"
  "./internal/extract FuzzPPTX"
  "./internal/extract FuzzPPTXSlide"
  "./internal/docx FuzzRender"
  "./internal/llm FuzzExtractJSON"
  "./internal/grading FuzzMayAddressGrader"
)
# shellcheck source=scripts/fuzz-race.sh
. scripts/fuzz-race.sh

start=$SECONDS
for t in "${targets[@]}"; do
  read -r pkg name <<<"$t"
  printf '  %-22s %-22s ' "$pkg" "$name"
  for try in 1 2; do
    if out=$(go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "$pkg" 2>&1); then
      break
    fi
    if deadlineRace "$out"; then
      # Run it again; a second race in a row is still not a finding.
      [ "$try" = 1 ] && continue
      echo "stopped by Go's fuzztime race twice (golang/go#75804), no failing input"
      continue 2
    fi
    echo "FAIL"
    echo "$out"
    exit 1
  done
  echo "$out" | grep -o 'execs: [0-9]*' | tail -1 || echo ok
done
echo "  fuzzing took $((SECONDS - start)) s"
