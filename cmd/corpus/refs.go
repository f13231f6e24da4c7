package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// refs makes the reference texts the corpus is scored against, with the
// tools a person would trust: poppler's pdftotext and MuPDF's mutool for
// PDFs, LibreOffice for office files, tesseract for images and scanned
// pages. The slow ones (LibreOffice, tesseract) are kept in a cache keyed by
// the file's SHA-256, so a rerun only redoes Markwell's side.
type refs struct {
	cache   string // directory of cached reference texts
	profile string // LibreOffice's own profile directory (sandboxed)
	work    string // scratch directory
	timeout time.Duration
}

func newRefs(cache string) (*refs, error) {
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "corpus-")
	if err != nil {
		return nil, err
	}
	return &refs{cache: cache, profile: filepath.Join(work, "lo-profile"), work: work, timeout: 3 * time.Minute}, nil
}

func (r *refs) close() { _ = os.RemoveAll(r.work) }

// run runs a tool and returns its standard output.
func (r *refs) run(ctx context.Context, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	// LibreOffice and tesseract: one thread each, no network needed.
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1", "SAL_USE_VCLPLUGIN=svp")
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if len(msg) > 300 {
			msg = msg[:300]
		}
		return out.Bytes(), fmt.Errorf("%s: %w %s", name, err, msg)
	}
	return out.Bytes(), nil
}

// pdftotext is poppler's text of a PDF and how long it took.
func (r *refs) pdftotext(ctx context.Context, path string) (string, time.Duration, error) {
	start := time.Now()
	out, err := r.run(ctx, "pdftotext", "-enc", "UTF-8", path, "-")
	return string(out), time.Since(start), err
}

// mutool is MuPDF's text of a PDF (the second reference).
func (r *refs) mutool(ctx context.Context, path string) (string, error) {
	out, err := r.run(ctx, "mutool", "draw", "-q", "-F", "txt", "-o", "-", path)
	return string(out), err
}

// cached returns the text kept under key, or makes it with make and keeps it.
func (r *refs) cached(key string, make func() (string, error)) (string, error) {
	p := filepath.Join(r.cache, key+".txt")
	if b, err := os.ReadFile(p); err == nil {
		return string(b), nil
	}
	text, err := make()
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(p+".tmp", []byte(text), 0o644); err == nil {
		_ = os.Rename(p+".tmp", p)
	}
	return text, nil
}

// soffice converts a file with LibreOffice headless, in its own profile
// directory, and returns the path of the output.
func (r *refs) soffice(ctx context.Context, path, to, ext string) (string, error) {
	out, err := os.MkdirTemp(r.work, "lo-")
	if err != nil {
		return "", err
	}
	if _, err := r.run(ctx, "soffice", "-env:UserInstallation=file://"+r.profile, "--headless", "--norestore",
		"--nolockcheck", "--convert-to", to, "--outdir", out, path); err != nil {
		return "", err
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	p := filepath.Join(out, base+"."+ext)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("LibreOffice made no %s of %s", ext, filepath.Base(path))
	}
	return p, nil
}

// officeText is the reference of a word-processor file (DOCX, ODT, RTF,
// DOC) from two LibreOffice exports: HTML, which keeps footnotes, endnotes,
// text boxes, headers and footers, and plain text, which alone writes out
// the numbers of numbered lists. Each word counts as often as the export
// with more of it has it (comments are in neither).
func (r *refs) officeText(ctx context.Context, path, sum string) (string, error) {
	raw, err := r.exported(ctx, path, sum, "html", "html")
	if err != nil {
		return "", err
	}
	plain, err := r.exported(ctx, path, sum, "txt:Text (encoded):UTF8", "txt")
	if err != nil {
		return "", err
	}
	page := htmlText(raw)
	return page + "\n" + strings.Join(surplus(words(page), words(plain)), " "), nil
}

// exported is the content of LibreOffice's export of a file to a format
// (soffice's --convert-to argument, and the extension it writes), cached.
func (r *refs) exported(ctx context.Context, path, sum, to, ext string) (string, error) {
	return r.cached(sum+".soffice-"+ext, func() (string, error) {
		p, err := r.soffice(ctx, path, to, ext)
		if err != nil {
			return "", err
		}
		b, err := os.ReadFile(p)
		return string(b), err
	})
}

// surplus is the words of b beyond those of a, as multisets: a's words
// plus surplus(a, b) hold each word as often as the larger of a and b does.
func surplus(a, b []string) []string {
	n := map[string]int{}
	for _, w := range a {
		n[w]++
	}
	var out []string
	for _, w := range b {
		if n[w] > 0 {
			n[w]--
			continue
		}
		out = append(out, w)
	}
	return out
}

var (
	htmlHidden = regexp.MustCompile(`(?is)<(head|style|script)\b.*?</(head|style|script)\s*>`)
	// Tags that end a word: blocks, line breaks, cells, and links (a
	// footnote's number is a link beside its word).
	htmlBreak = regexp.MustCompile(`(?i)</?(p|div|br|li|ul|ol|dl|dt|dd|td|th|tr|table|h[1-6]|blockquote|pre|hr|body|a)\b[^>]*>`)
	htmlTag   = regexp.MustCompile(`(?s)<[^>]*>`)
)

// htmlText is the visible text of an HTML page: the head, styles and
// scripts are dropped, block tags end a word, inline tags (a coloured letter
// inside a word) do not, and entities are decoded.
func htmlText(s string) string {
	s = htmlHidden.ReplaceAllString(s, " ")
	s = htmlBreak.ReplaceAllString(s, " ")
	s = htmlTag.ReplaceAllString(s, "")
	return html.UnescapeString(s)
}

// slidesText is pdftotext of LibreOffice's PDF export of a presentation
// (PPTX, PPT, ODP): the slides as shown, without speaker notes.
func (r *refs) slidesText(ctx context.Context, path, sum string) (string, error) {
	return r.cached(sum+".soffice-pdf-pdftotext", func() (string, error) {
		p, err := r.soffice(ctx, path, "pdf", "pdf")
		if err != nil {
			return "", err
		}
		text, _, err := r.pdftotext(ctx, p)
		return text, err
	})
}

// imageText is the tesseract command's text of an image (every frame of a
// multi-page TIFF or GIF is read by tesseract itself).
func (r *refs) imageText(ctx context.Context, path, sum string) (string, error) {
	return r.cached(sum+".tesseract", func() (string, error) {
		out, err := r.run(ctx, "tesseract", path, "-", "-l", "eng")
		return string(out), err
	})
}

// scannedText is tesseract of each page of a PDF rendered at 300 dpi in
// grey by pdftoppm: the reference for a PDF without a text layer.
func (r *refs) scannedText(ctx context.Context, path, sum string) (string, error) {
	return r.cached(sum+".pdftoppm-tesseract", func() (string, error) {
		dir, err := os.MkdirTemp(r.work, "pages-")
		if err != nil {
			return "", err
		}
		defer func() { _ = os.RemoveAll(dir) }()
		if _, err := r.run(ctx, "pdftoppm", "-r", "300", "-gray", path, filepath.Join(dir, "p")); err != nil {
			return "", err
		}
		pages, _ := filepath.Glob(filepath.Join(dir, "p*.pgm"))
		sort.Strings(pages)
		var b strings.Builder
		for _, p := range pages {
			out, err := r.run(ctx, "tesseract", p, "-", "-l", "eng")
			if err != nil {
				return "", err
			}
			b.Write(out)
			b.WriteString("\n")
		}
		return b.String(), nil
	})
}

// fileSum is the hex SHA-256 of data.
func fileSum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}
