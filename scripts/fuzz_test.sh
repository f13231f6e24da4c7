#!/usr/bin/env bash
# Tests scripts/fuzz-race.sh: Go's fuzztime race is told apart from a real
# finding, so `make test` neither fails on the race nor hides a finding.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/fuzz-race.sh

fail=0
expect() { # expect race|finding NAME OUTPUT
  if deadlineRace "$3"; then got=race; else got=finding; fi
  if [ "$got" != "$1" ]; then echo "fuzz_test: $2: got $got, want $1"; fail=1; fi
}
expect race "the race" $'fuzz: elapsed: 4s, execs: 690 (0/sec), new interesting: 0 (total: 7)\n--- FAIL: FuzzPPTX (4.04s)\n    context deadline exceeded\nFAIL'
expect finding "a failing input" $'--- FAIL: FuzzPPTX (0.20s)\n    fuzz_test.go:31: boom\n    Failing input written to testdata/fuzz/FuzzPPTX/abc\nFAIL'
expect finding "a failing input at the deadline" $'--- FAIL: FuzzPPTX (4.00s)\n    context deadline exceeded\n    Failing input written to testdata/fuzz/FuzzPPTX/abc'
expect finding "a panic" $'panic: runtime error: index out of range\n--- FAIL: FuzzSplit (1.00s)\n    context deadline exceeded'
expect finding "a build error" $'# github.com/markwell/markwell/internal/extract\n./x.go:3:1: syntax error\nFAIL'
[ "$fail" = 0 ] && echo "fuzz_test: 5 cases ok"
exit "$fail"
