package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// toolError is a failed run of an external tool.
type toolError struct {
	tool     string
	exitCode int // -1 when the tool did not exit on its own
	stderr   string
	overflow bool // stdout passed its limit
	err      error
}

func (e *toolError) Error() string {
	msg := fmt.Sprintf("%s: %v", e.tool, e.err)
	if e.overflow {
		msg += " (output over the limit)"
	}
	// The last lines say why; poppler can print hundreds before them.
	lines := strings.Split(strings.TrimSpace(e.stderr), "\n")
	if s := strings.Join(lines[max(0, len(lines)-3):], "; "); s != "" {
		msg += ": " + s
	}
	return msg
}

func (e *toolError) Unwrap() error { return e.err }

// run executes a tool within Limits.ToolTimeout and returns its standard
// output, at most maxOut bytes.
func (r *Reader) run(ctx context.Context, maxOut int, tool string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, r.lim.ToolTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, tool, args...)
	stdout := &cappedBuffer{max: maxOut}
	stderr := &cappedBuffer{max: 16 << 10, truncate: true}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if err == nil {
		return stdout.Bytes(), nil
	}
	if ctx.Err() != nil {
		// A cancelled job or a tool past its time: worth another attempt.
		return nil, fmt.Errorf("%s: %w", filepath.Base(tool), ctx.Err())
	}
	te := &toolError{tool: filepath.Base(tool), exitCode: -1, stderr: stderr.String(), overflow: stdout.overflow, err: err}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		te.exitCode = ee.ExitCode()
	}
	return nil, te
}

// cappedBuffer keeps at most max bytes; past that it fails the write (which
// stops the tool) or, with truncate, drops the rest.
type cappedBuffer struct {
	bytes.Buffer
	max      int
	truncate bool
	overflow bool
}

var errOutputLimit = errors.New("output over the limit")

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if room := c.max - c.Len(); len(p) > room {
		c.overflow = true
		if !c.truncate {
			return 0, errOutputLimit
		}
		c.Buffer.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return c.Buffer.Write(p)
}
