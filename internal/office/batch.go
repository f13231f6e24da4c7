package office

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// DefaultPerFileTimeout is what a batch's timeout grows by for each file
// (BatchFile) beyond the first: a report of a few pages takes LibreOffice
// well under a second once it is started, so this is generous.
const DefaultPerFileTimeout = 10 * time.Second

// MaxBatchFiles bounds one ConvertMany: LibreOffice keeps what it opened in
// memory until it exits, so a huge batch is a huge process.
const MaxBatchFiles = 50

// BatchFile is one file of a ConvertMany.
type BatchFile struct {
	// Data is the file; Ext its extension ("docx", "fodt", …).
	Data []byte
	Ext  string
}

// ConvertMany converts several files to toFilter in ONE LibreOffice run:
// starting soffice (a fresh profile, about two seconds) dominates the
// conversion of a short document, so a class's reports are converted in
// batches rather than one process each. The sandbox is Convert's: a
// profile and HOME of their own, no network, a minimal environment. The
// batch's timeout is Timeout plus PerFileTimeout for each file after the
// first; its folder may hold the inputs, MaxOutputBytes per file and
// profileAllowance.
//
// It returns one output per file, in order; a file LibreOffice could not
// convert has nil there and an error wrapping ErrNotConverted in errs
// (same index). err is for the whole batch (ErrNotInstalled, ErrTimeout,
// ErrTooLarge, the context's error, a bad extension): then no output is
// returned.
func (l LibreOffice) ConvertMany(ctx context.Context, files []BatchFile, toFilter string, perFile time.Duration) (out [][]byte, errs []error, err error) {
	if len(files) == 0 {
		return nil, nil, nil
	}
	if len(files) > MaxBatchFiles {
		return nil, nil, fmt.Errorf("office: %d files in one batch, at most %d", len(files), MaxBatchFiles)
	}
	tool := l.Path
	if tool == "" {
		tool = "soffice"
	}
	path, err := exec.LookPath(tool)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrNotInstalled, err)
	}
	outExt, _, _ := strings.Cut(toFilter, ":")
	if !safeExt(outExt) {
		return nil, nil, fmt.Errorf("office: bad target %q", toFilter)
	}
	for _, f := range files {
		if !safeExt(f.Ext) {
			return nil, nil, fmt.Errorf("office: bad extension %q", f.Ext)
		}
	}
	dir, profile, tmp, err := l.sandbox()
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	inDir, outDir := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	if err := os.Mkdir(inDir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("LibreOffice input folder: %w", err)
	}
	maxOut := l.MaxOutputBytes
	if maxOut <= 0 {
		maxOut = DefaultMaxOutputBytes
	}
	var inBytes int64
	args := []string{"--convert-to", toFilter, "--outdir", outDir}
	if f, ok := importFilters[files[0].Ext]; ok && sameExt(files) {
		args = append([]string{"--infilter=" + f}, args...)
	}
	for i, f := range files {
		// Names of our own: nothing of the caller's reaches a path.
		name := filepath.Join(inDir, fmt.Sprintf("doc%04d.%s", i, f.Ext))
		if err := os.WriteFile(name, f.Data, 0o600); err != nil {
			return nil, nil, fmt.Errorf("write the file for LibreOffice: %w", err)
		}
		inBytes += int64(len(f.Data))
		args = append(args, name)
	}
	timeout := l.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if perFile <= 0 {
		perFile = DefaultPerFileTimeout
	}
	timeout += time.Duration(len(files)-1) * perFile
	said, err := l.run(ctx, path, dir, profile, tmp, args, timeout, inBytes+maxOut*int64(len(files))+profileAllowance, maxOut)
	if err != nil {
		return nil, nil, err
	}
	out, errs = make([][]byte, len(files)), make([]error, len(files))
	for i := range files {
		name := filepath.Join(outDir, fmt.Sprintf("doc%04d.%s", i, outExt))
		st, err := os.Stat(name)
		switch {
		case err != nil:
			errs[i] = fmt.Errorf("%w: %s", ErrNotConverted, said)
			continue
		case st.Size() > maxOut:
			errs[i] = fmt.Errorf("%w (%s)", ErrTooLarge, megabytes(maxOut))
			continue
		}
		if out[i], err = os.ReadFile(name); err != nil {
			errs[i] = fmt.Errorf("read LibreOffice's output: %w", err)
		}
	}
	return out, errs, nil
}

// sameExt reports whether every file has the first one's extension (one
// import filter then names them all).
func sameExt(files []BatchFile) bool {
	for _, f := range files {
		if f.Ext != files[0].Ext {
			return false
		}
	}
	return true
}
