// Package faults is Markwell's fault suite: tests that run the real
// binaries (cmd/api, cmd/worker, cmd/fakellm) against PostgreSQL, break one
// thing in the middle of a grading batch, and check that nothing is lost,
// stuck or written twice. They build only with the faults tag:
//
//	make test-faults                                  # the full form (batches of 300)
//	go test -tags faults -count=1 ./internal/faults/  # the short form (make test runs it)
//
// FAULTS=full selects the full form. docs/faults.md describes each fault,
// what is asserted and a run's figures. The package has no other code.
package faults
