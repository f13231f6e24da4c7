package original

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// ErrNoOffice is a machine without LibreOffice: Word and PowerPoint files
// cannot be shown as pages there (they can still be downloaded).
var ErrNoOffice = errors.New("original: LibreOffice (soffice) is not installed")

// LibreOffice converts Word and PowerPoint files to PDF with LibreOffice
// headless. Each conversion runs with a profile and HOME of its own in a
// fresh temporary folder (so conversions never share state, and a killed one
// leaves nothing locked), with macros off and linked content from untrusted
// places blocked, in a process group that is killed as a whole when the
// context ends. The zero value finds soffice in PATH.
type LibreOffice struct {
	// Path is the soffice program ("" is "soffice" in PATH).
	Path string
	// TempDir holds the conversions' folders ("" is os.TempDir).
	TempDir string
}

// profileSettings is the new profile's registrymodifications.xcu: no
// macros, no content fetched through links from documents (a student's
// file must not make the server fetch addresses it names).
const profileSettings = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse"><value>false</value></prop></item>
</oor:items>
`

// ToPDF converts data, a file of the given extension ("docx" or "pptx"),
// to PDF.
func (l LibreOffice) ToPDF(ctx context.Context, data []byte, ext string) ([]byte, error) {
	tool := l.Path
	if tool == "" {
		tool = "soffice"
	}
	path, err := exec.LookPath(tool)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoOffice, err)
	}
	dir, err := os.MkdirTemp(l.TempDir, "original-")
	if err != nil {
		return nil, fmt.Errorf("temporary folder for LibreOffice: %w", err)
	}
	defer os.RemoveAll(dir)
	profile := filepath.Join(dir, "profile")
	if err := os.MkdirAll(filepath.Join(profile, "user"), 0o700); err != nil {
		return nil, fmt.Errorf("LibreOffice profile: %w", err)
	}
	if err := os.WriteFile(filepath.Join(profile, "user", "registrymodifications.xcu"), []byte(profileSettings), 0o600); err != nil {
		return nil, fmt.Errorf("LibreOffice settings: %w", err)
	}
	in := filepath.Join(dir, "original."+ext)
	if err := os.WriteFile(in, data, 0o600); err != nil {
		return nil, fmt.Errorf("write the file for LibreOffice: %w", err)
	}
	out := filepath.Join(dir, "out")
	cmd := exec.CommandContext(ctx, path, "--headless", "--norestore", "--nologo", "--nodefault", "--nolockcheck",
		"-env:UserInstallation=file://"+profile, "--convert-to", "pdf", "--outdir", out, in)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	cmd.Dir = dir
	// soffice is a script that starts soffice.bin: the whole group goes.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("LibreOffice: %w", ctx.Err())
		}
		return nil, fmt.Errorf("LibreOffice: %w: %s", err, bytes.TrimSpace(output.Bytes()))
	}
	pdf, err := os.ReadFile(filepath.Join(out, "original.pdf"))
	if err != nil {
		// LibreOffice says nothing useful when it cannot open a file: it writes no PDF.
		return nil, fmt.Errorf("%w: %s", ErrNotConverted, bytes.TrimSpace(output.Bytes()))
	}
	return pdf, nil
}

// ErrNotConverted is a file LibreOffice opened and could not turn into a PDF.
var ErrNotConverted = errors.New("original: LibreOffice wrote no PDF")
