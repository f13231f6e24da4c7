package ocr

/*
#cgo LDFLAGS: -lgomp
int omp_get_thread_limit(void);
*/
import "C"

import (
	"fmt"
	"os"
	"strings"
	"syscall"
)

// ompReexecGuard marks a process already re-executed by
// EnsureOpenMPThreadLimit, so it never loops.
const ompReexecGuard = "MARKWELL_OMP_REEXEC"

// OpenMPThreadLimit is the thread limit libgomp applies in this process:
// how many threads one tesseract call may use.
func OpenMPThreadLimit() int { return int(C.omp_get_thread_limit()) }

// EnsureOpenMPThreadLimit makes tesseract use one thread per client. libgomp
// (which libtesseract links) reads OMP_THREAD_LIMIT once, when the program
// is loaded, so setting it from Go afterwards changes nothing: when the
// limit is not 1, this re-executes the program with OMP_THREAD_LIMIT=1 in
// its environment. Call it first thing in main of a process that runs OCR
// (and in TestMain), before starting goroutines; it returns only when the
// limit holds or an error says why it could not.
func EnsureOpenMPThreadLimit() error {
	if OpenMPThreadLimit() == 1 {
		return nil
	}
	if os.Getenv(ompReexecGuard) != "" {
		return fmt.Errorf("OpenMP thread limit is %d after re-executing with OMP_THREAD_LIMIT=1", OpenMPThreadLimit())
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find own executable: %w", err)
	}
	env := make([]string, 0, len(os.Environ())+2)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OMP_THREAD_LIMIT=") {
			env = append(env, kv)
		}
	}
	env = append(env, "OMP_THREAD_LIMIT=1", ompReexecGuard+"=1")
	if err := syscall.Exec(exe, os.Args, env); err != nil {
		return fmt.Errorf("re-execute %s with OMP_THREAD_LIMIT=1: %w", exe, err)
	}
	return nil // not reached
}
