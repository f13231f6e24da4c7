package testdb

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ProcessCPU is a process's user and system CPU so far, from
// /proc/<pid>/stat (a database backend's, for benchmarks that count what
// PostgreSQL spent); 0 when it cannot be read.
func ProcessCPU(pid int) time.Duration {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(raw)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+st) * 10 * time.Millisecond // USER_HZ is 100 on Linux
}

// SelfCPU is this process's user and system CPU so far.
func SelfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
