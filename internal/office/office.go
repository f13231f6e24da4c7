// Package office converts office documents with LibreOffice headless, in a
// sandbox, so that formats Markwell does not parse itself (OpenDocument,
// RTF, Word and PowerPoint 97–2003) can be read as DOCX or PPTX, and Word
// and PowerPoint files shown as PDF pages.
//
// A student's file is untrusted input to a very large program, so each
// conversion:
//   - runs with a profile and HOME of its own in a fresh temporary folder
//     (conversions share no state, and a killed one leaves nothing locked),
//     removed afterwards;
//   - has macros off, and linked content from documents outside trusted
//     places blocked (LibreOffice's "stealth mode",
//     BlockUntrustedRefererLinks): a linked picture at an address is not
//     fetched;
//   - runs in a network namespace of its own, with no interface but a
//     loopback that is down, when the process may make one (root, or
//     unprivileged user namespaces); otherwise the profile's blocks are the
//     defence (see Isolation);
//   - gets a minimal environment (PATH, HOME, TMPDIR, LANG): none of the
//     worker's secrets;
//   - is killed with its whole process group (soffice is a script that
//     starts soffice.bin) at its timeout, when the caller's context ends, or
//     as soon as what it writes passes the output cap.
//
// Package office imports nothing of Markwell's.
package office

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// Errors of a conversion. Any other error (a cancelled context, a failed
// temporary folder) may be worth another attempt.
var (
	// ErrNotInstalled is a machine without LibreOffice.
	ErrNotInstalled = errors.New("office: LibreOffice (soffice) is not installed")
	// ErrNotConverted is a file LibreOffice could not open or convert: it
	// wrote nothing (it says little more than that).
	ErrNotConverted = errors.New("office: LibreOffice wrote no converted file")
	// ErrTimeout is a conversion killed at LibreOffice.Timeout.
	ErrTimeout = errors.New("office: LibreOffice took too long")
	// ErrTooLarge is a conversion killed because its output passed
	// LibreOffice.MaxOutputBytes.
	ErrTooLarge = errors.New("office: LibreOffice's output is over the size limit")
)

// Targets of Convert: LibreOffice's --convert-to argument, the output's
// extension then its export filter.
const (
	ToPDF  = "pdf"
	ToDOCX = "docx:MS Word 2007 XML"
	ToPPTX = "pptx:Impress MS PowerPoint 2007 XML"
)

// importFilters are the import filters named for the extensions Markwell
// converts. Naming one keeps LibreOffice from guessing: a damaged .ppt
// is not read as plain text, it fails as ErrNotConverted.
var importFilters = map[string]string{
	"odt":  "writer8",
	"odp":  "impress8",
	"rtf":  "Rich Text Format",
	"doc":  "MS Word 97",
	"ppt":  "MS PowerPoint 97",
	"docx": "MS Word 2007 XML",
	"pptx": "Impress MS PowerPoint 2007 XML",
	// fodt is the flat (one XML file) OpenDocument text that Markwell's
	// feedback reports are written as (internal/report).
	"fodt": "OpenDocument Text Flat XML",
}

// Defaults of the zero LibreOffice.
const (
	DefaultTimeout        = 60 * time.Second
	DefaultMaxOutputBytes = 200 << 20
)

// LibreOffice converts files with soffice --headless. The zero value finds
// soffice in PATH with the defaults above. It is safe for concurrent use
// (each conversion has its own folder and process), but LibreOffice takes
// about 200 MB a conversion: callers bound how many run at once.
type LibreOffice struct {
	// Path is the soffice program ("" is "soffice" in PATH).
	Path string
	// TempDir holds the conversions' folders ("" is os.TempDir).
	TempDir string
	// Timeout bounds one conversion (0: DefaultTimeout).
	Timeout time.Duration
	// MaxOutputBytes caps the converted file (0: DefaultMaxOutputBytes).
	// The folder of a conversion (its profile, temporary files and output)
	// may hold at most the input, this and profileAllowance.
	MaxOutputBytes int64
	// SharedNetwork runs LibreOffice in the process's network, leaving the
	// profile's blocks as the only defence: for tests of those blocks.
	SharedNetwork bool
}

// profileAllowance is what a fresh profile and LibreOffice's temporary
// files may take beside the input and output (a new profile is ~2 MB).
const profileAllowance = 64 << 20

// profileSettings is the new profile's registrymodifications.xcu: no
// macros; no content fetched through links from documents (a student's
// file must not make the server fetch addresses it names: with
// BlockUntrustedRefererLinks, documents outside trusted locations, which a
// conversion's temporary folder never is, load no linked pictures); no
// first-start work.
const profileSettings = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse"><value>false</value></prop></item>
</oor:items>
`

// ToPDF converts data, a file of the given extension ("docx", "odt",
// "ppt", …), to PDF.
func (l LibreOffice) ToPDF(ctx context.Context, data []byte, ext string) ([]byte, error) {
	return l.Convert(ctx, data, ext, ToPDF)
}

// Convert converts data, a file of extension fromExt ("odt", "rtf", "doc",
// "odp", "ppt", "docx", …, each opened with its import filter named: see
// importFilters), to the target toFilter (ToDOCX, ToPPTX, ToPDF, or any
// "ext:Filter" LibreOffice knows).
//
// Errors: ErrNotInstalled, ErrNotConverted, ErrTimeout, ErrTooLarge, or
// the context's error when ctx ended first.
func (l LibreOffice) Convert(ctx context.Context, data []byte, fromExt, toFilter string) ([]byte, error) {
	tool := l.Path
	if tool == "" {
		tool = "soffice"
	}
	path, err := exec.LookPath(tool)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotInstalled, err)
	}
	outExt, _, _ := strings.Cut(toFilter, ":")
	if !safeExt(fromExt) || !safeExt(outExt) {
		return nil, fmt.Errorf("office: bad extension %q or target %q", fromExt, toFilter)
	}
	dir, profile, tmp, err := l.sandbox()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "document."+fromExt)
	if err := os.WriteFile(in, data, 0o600); err != nil {
		return nil, fmt.Errorf("write the file for LibreOffice: %w", err)
	}
	outDir := filepath.Join(dir, "out")
	timeout := l.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	maxOut := l.MaxOutputBytes
	if maxOut <= 0 {
		maxOut = DefaultMaxOutputBytes
	}
	args := []string{}
	if f, ok := importFilters[fromExt]; ok {
		args = append(args, "--infilter="+f)
	}
	args = append(args, "--convert-to", toFilter, "--outdir", outDir, in)
	said, err := l.run(ctx, path, dir, profile, tmp, args, timeout, int64(len(data))+maxOut+profileAllowance, maxOut)
	if err != nil {
		return nil, err
	}
	name := filepath.Join(outDir, "document."+outExt)
	st, err := os.Stat(name)
	if err != nil {
		// LibreOffice exits 0 and writes nothing when it cannot open a file.
		return nil, fmt.Errorf("%w: %s", ErrNotConverted, said)
	}
	if st.Size() > maxOut {
		return nil, fmt.Errorf("%w (%s)", ErrTooLarge, megabytes(maxOut))
	}
	out, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("read LibreOffice's output: %w", err)
	}
	return out, nil
}

// sandbox makes a conversion's folder: a fresh profile with
// profileSettings and a temporary folder of its own. The caller removes
// dir.
func (l LibreOffice) sandbox() (dir, profile, tmp string, err error) {
	dir, err = os.MkdirTemp(l.TempDir, "office-")
	if err != nil {
		return "", "", "", fmt.Errorf("temporary folder for LibreOffice: %w", err)
	}
	profile = filepath.Join(dir, "profile")
	if err := os.MkdirAll(filepath.Join(profile, "user"), 0o700); err != nil {
		os.RemoveAll(dir)
		return "", "", "", fmt.Errorf("LibreOffice profile: %w", err)
	}
	if err := os.WriteFile(filepath.Join(profile, "user", "registrymodifications.xcu"), []byte(profileSettings), 0o600); err != nil {
		os.RemoveAll(dir)
		return "", "", "", fmt.Errorf("LibreOffice settings: %w", err)
	}
	tmp = filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		os.RemoveAll(dir)
		return "", "", "", fmt.Errorf("LibreOffice temporary folder: %w", err)
	}
	return dir, profile, tmp, nil
}

// run runs soffice (path) headless with the sandbox's profile and the
// conversion arguments args, killing its process group at timeout, when ctx
// ends, or when dir grows past limit bytes (maxOut is named in that error).
// It returns what LibreOffice printed (the first 16 KB), trimmed.
func (l LibreOffice) run(ctx context.Context, path, dir, profile, tmp string, args []string, timeout time.Duration, limit, maxOut int64) (string, error) {
	runCtx, cancel := context.WithTimeoutCause(ctx, timeout, ErrTimeout)
	defer cancel()
	args = append([]string{"--headless", "--invisible", "--norestore", "--nologo", "--nodefault", "--nolockcheck",
		"-env:UserInstallation=file://" + profile}, args...)
	var output bytes.Buffer
	newCmd := func() *exec.Cmd {
		cmd := exec.CommandContext(runCtx, path, args...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMPDIR=" + tmp, "LANG=" + lang()}
		cmd.Dir = dir
		// soffice is a script that starts soffice.bin: the whole group goes.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		cmd.WaitDelay = 5 * time.Second
		output.Reset()
		w := &capped{buf: &output, max: 16 << 10} // one writer: exec shares one pipe
		cmd.Stdout, cmd.Stderr = w, w
		return cmd
	}
	cmd, err := l.start(newCmd)
	if err != nil {
		return "", fmt.Errorf("start LibreOffice: %w", err)
	}
	// Kill the group as soon as the folder grows past what a real
	// conversion writes.
	var tooLarge atomic.Bool
	stopWatch := watchSize(dir, limit, func() {
		tooLarge.Store(true)
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	})
	err = cmd.Wait()
	stopWatch()
	// Whatever LibreOffice left running in its group (it should be none)
	// goes with it.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	said := string(bytes.TrimSpace(output.Bytes()))
	switch {
	case tooLarge.Load():
		return said, fmt.Errorf("%w (%s)", ErrTooLarge, megabytes(maxOut))
	case ctx.Err() != nil:
		return said, fmt.Errorf("LibreOffice: %w", ctx.Err())
	case errors.Is(context.Cause(runCtx), ErrTimeout):
		return said, fmt.Errorf("%w (%s)", ErrTimeout, timeout)
	case err != nil:
		return said, fmt.Errorf("%w: %w: %s", ErrNotConverted, err, said)
	}
	return said, nil
}

// noNamespace is set once making a network namespace has failed: the
// process may not (not root, user namespaces off), and will not later.
var noNamespace atomic.Bool

// Isolation says how conversions in this process are kept off the network:
// "network namespace" once one was made, "profile settings only" once
// making one failed, "" before the first conversion.
func Isolation() string {
	switch {
	case noNamespace.Load():
		return "profile settings only"
	case namespaced.Load():
		return "network namespace"
	}
	return ""
}

var namespaced atomic.Bool

// CheckIsolation finds out, by starting "true" in a network namespace of
// its own, whether this process's conversions will get one, and returns
// Isolation: for a worker to say at start-up.
func CheckIsolation() string {
	if Isolation() == "" {
		if tool, err := exec.LookPath("true"); err == nil {
			cmd, err := LibreOffice{}.start(func() *exec.Cmd {
				cmd := exec.Command(tool)
				cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
				return cmd
			})
			if err == nil {
				_ = cmd.Wait()
			}
		}
	}
	return Isolation()
}

// start starts a command from newCmd in a network namespace of its own
// when the process may make one, and silently without one otherwise.
func (l LibreOffice) start(newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	if !l.SharedNetwork && !noNamespace.Load() {
		cmd := newCmd()
		isolate(cmd.SysProcAttr)
		err := cmd.Start()
		if err == nil {
			namespaced.Store(true)
			return cmd, nil
		}
		if !errors.Is(err, syscall.EPERM) && !errors.Is(err, syscall.EINVAL) &&
			!errors.Is(err, syscall.ENOSPC) && !errors.Is(err, syscall.EACCES) && !errors.Is(err, syscall.ENOSYS) {
			return nil, err
		}
		noNamespace.Store(true)
	}
	cmd := newCmd()
	return cmd, cmd.Start()
}

// isolate asks for a new network namespace: directly as root, inside a user
// namespace (mapping only the process's own user and group) otherwise.
func isolate(attr *syscall.SysProcAttr) {
	attr.Cloneflags = syscall.CLONE_NEWNET
	if uid := os.Geteuid(); uid != 0 {
		gid := os.Getegid()
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
		attr.GidMappingsEnableSetgroups = false
	}
}

// watchSize calls kill once the files under dir pass limit bytes, checking
// every quarter second until the returned stop is called.
func watchSize(dir string, limit int64, kill func()) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if dirSize(dir) > limit {
					kill()
					return
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}

// dirSize is the size of the regular files under dir.
func dirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil //nolint:nilerr // a file LibreOffice just removed is no size
		}
		if d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// safeExt accepts a short extension of letters and digits.
func safeExt(ext string) bool {
	if ext == "" || len(ext) > 8 {
		return false
	}
	for _, c := range ext {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// lang is the process's LANG, or C.UTF-8.
func lang() string {
	if l := os.Getenv("LANG"); l != "" {
		return l
	}
	return "C.UTF-8"
}

func megabytes(n int64) string { return fmt.Sprintf("%d MB", n>>20) }

// capped keeps at most max bytes of what a program prints.
type capped struct {
	buf *bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
