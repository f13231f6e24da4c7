# Sourced by scripts/fuzz.sh (and tested by scripts/fuzz_test.sh).
# deadlineRace reports whether a failed run is Go's own race at the end of
# -fuzztime (golang/go#75804, fixed in Go 1.27; this repository is on 1.26):
# the coordinator reports "context deadline exceeded" as the target's failure
# though no input failed. A real finding always writes its input
# ("Failing input written to …") or shows a panic or a test error.
deadlineRace() {
  grep -q 'context deadline exceeded' <<<"$1" &&
    ! grep -qE 'Failing input written|panic:|_test\.go:[0-9]+:' <<<"$1"
}
