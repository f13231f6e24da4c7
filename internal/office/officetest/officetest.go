// Package officetest helps tests of LibreOffice conversions: skipping where
// LibreOffice is not installed, a fake soffice, and whether a process of a
// killed conversion still runs.
package officetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// NeedSoffice skips a test on a machine without LibreOffice (what such a
// machine says is tested with a missing soffice path).
func NeedSoffice(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("soffice"); err != nil {
		t.Skip("LibreOffice (soffice) is not installed")
	}
}

// FakeSoffice writes a shell script standing in for soffice and returns its
// path.
func FakeSoffice(t testing.TB, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "soffice")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

// HangingSoffice is a fake soffice that, like the real one, starts a child
// and waits for it, for ever; it writes both process ids to pidFile.
func HangingSoffice(t testing.TB, pidFile string) string {
	return FakeSoffice(t, "sleep 300 & echo $$ $! > "+pidFile+"; wait")
}

// Alive reports whether a process runs (a zombie waiting for its parent
// does not).
func Alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) > 0 && fields[0] != "Z"
}

// PIDs reads the process ids a HangingSoffice wrote.
func PIDs(t testing.TB, pidFile string) []int {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the fake soffice did not run: %v", err)
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, pid)
	}
	return out
}
