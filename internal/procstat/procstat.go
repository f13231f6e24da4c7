// Package procstat reads CPU time from Linux's /proc: what the bench and the
// Go benchmarks use to count a process's (the API's, a PostgreSQL
// backend's) CPU rather than wall time on a shared machine.
package procstat

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

var errFormat = errors.New("unexpected /proc stat format")

// CPU is a process's user + system CPU so far, from /proc/<pid>/stat.
func CPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces: fields after its ")".
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, errFormat
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (state); utime and stime are fields 14 and 15.
	if len(f) < 13 {
		return 0, errFormat
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	// Clock ticks are 100 per second on Linux (sysconf(_SC_CLK_TCK)).
	return time.Duration(ut+st) * (time.Second / 100), nil
}

// Self is this process's user + system CPU so far.
func Self() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
