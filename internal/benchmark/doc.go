// Package benchmark holds Markwell's end-to-end benchmarks: the ones that
// run a whole feature (the API's services, River workers, PostgreSQL and
// the demo model over HTTP) rather than one package's code. They live in
// its test files and run with `make bench`; docs/performance.md reports
// their figures and how they are defined. The package has no other code.
//
// The grading benchmarks (grading_test.go) press "Grade all" on a class of
// 300 submissions with the ai queue 32 wide and measure, each as a ratio,
// the time to the last result against the model's latency, the throughput
// against River's own no-op job rate, and a storm of 429s against the
// ideal under that limit. Flags tune the setup for comparisons:
//
//	go test -run '^$' -bench GradeAll ./internal/benchmark/ -args -fetch-cooldown 100ms -fetch-poll 1s -db-conns 16
package benchmark
