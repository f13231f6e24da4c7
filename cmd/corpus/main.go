// Command corpus scores Markwell's reader on real documents: every file of
// scripts/corpus/manifest.tsv (fetched by scripts/corpus/fetch.sh into
// .data/corpus/files) is read by the reader the worker runs (extract.New
// with the tesseract OCR pool) and its words are compared with a reference
// text made by the tools a person would trust:
//
//	PDF          pdftotext -enc UTF-8 (mutool draw -F txt reported beside it);
//	             a PDF whose pdftotext text has < 20 words is "scanned" and
//	             scored against tesseract of its pages rendered at 300 dpi
//	DOCX/ODT/RTF/DOC   LibreOffice's HTML export (it keeps footnotes) with
//	             the list numbers only its plain-text export writes
//	PPTX/PPT/ODP pdftotext of LibreOffice's PDF export (slides without notes)
//	images       the tesseract command
//
// It prints a table per type, the worst files and every refusal, writes the
// whole report as JSON (-out), and exits 1 when a gated file (a text-layer
// PDF, DOCX or PPTX whose reference has at least 20 words) keeps less than
// 0.97 of the reference's words or has precision under 0.95. See
// docs/performance.md, "Real documents".
//
//	go run ./cmd/corpus [-only SUBSTRING] [-out FILE]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/extract/ocr"
)

// The bar of issue 20 for a gated file, and the reference size under which
// a file is reported but not gated.
const (
	minRecall    = 0.97
	minPrecision = 0.95
	minRefWords  = 20
)

func main() {
	code, err := run()
	if err != nil {
		fmt.Fprintln(os.Stderr, "corpus:", err)
		os.Exit(2)
	}
	os.Exit(code)
}

// entry is one line of the manifest.
type entry struct {
	Source, Package, Version, Path string
	File                           string // where fetch.sh put it
}

// fileReport is what the corpus says of one file.
type fileReport struct {
	File    string `json:"file"`
	From    string `json:"from"`
	Type    string `json:"type"`  // pdf, pdf-scanned, docx, pptx, odt, rtf, doc, ppt, image
	Gated   bool   `json:"gated"` // held to the bar
	Pass    bool   `json:"pass"`
	Pages   int    `json:"pages,omitempty"`
	Sources string `json:"page_sources,omitempty"` // how Markwell got each page's text, e.g. "file×12 ocr×1"

	Reference        string  `json:"reference"`
	Score            *score  `json:"score,omitempty"`
	Mutool           *score  `json:"mutool,omitempty"` // the same text against MuPDF's, for PDFs
	Excluded         int     `json:"excluded_from_precision,omitempty"`
	Seconds          float64 `json:"seconds"`
	PdftotextSeconds float64 `json:"pdftotext_seconds,omitempty"`

	Refused  string `json:"refused,omitempty"`   // Markwell's sentence for the teacher
	Error    string `json:"error,omitempty"`     // any other failure of Markwell's reader
	RefError string `json:"ref_error,omitempty"` // the reference tool failed
}

type report struct {
	When   time.Time     `json:"when"`
	Files  []*fileReport `json:"files"`
	Types  []typeRow     `json:"types"`
	Speed  speed         `json:"text_pdf_speed"`
	Failed []string      `json:"below_bar"`
}

type typeRow struct {
	Type          string  `json:"type"`
	Files         int     `json:"files"`
	Scored        int     `json:"scored"` // reference ≥ 20 words
	Gated         int     `json:"gated"`
	Failing       int     `json:"below_bar"`
	Refused       int     `json:"refused_or_failed"`
	MeanRecall    float64 `json:"mean_recall"`
	MinRecall     float64 `json:"min_recall"`
	MeanPrecision float64 `json:"mean_precision"`
	MinPrecision  float64 `json:"min_precision"`
	MeanMutool    float64 `json:"mean_recall_vs_mutool,omitempty"`
}

type speed struct {
	Files            int     `json:"files"`
	Pages            int     `json:"pages"`
	Markwell         float64 `json:"markwell_seconds"`
	Pdftotext        float64 `json:"pdftotext_seconds"`
	MarkwellPagesPS  float64 `json:"markwell_pages_per_second"`
	PdftotextPagesPS float64 `json:"pdftotext_pages_per_second"`
}

func run() (int, error) {
	manifest := flag.String("manifest", "scripts/corpus/manifest.tsv", "the corpus's manifest")
	dir := flag.String("dir", ".data/corpus/files", "where scripts/corpus/fetch.sh put the files")
	out := flag.String("out", ".data/corpus/report.json", "the JSON report")
	refCache := flag.String("refs", ".data/corpus/refs", "cache of the slow reference texts")
	only := flag.String("only", "", "score only files whose path contains this")
	ocrSize := flag.Int("ocr", 1, "tesseract clients in the OCR pool")
	flag.Parse()

	// As the worker does, before anything else: it may re-execute the program.
	if err := ocr.EnsureOpenMPThreadLimit(); err != nil {
		return 0, err
	}
	entries, err := readManifest(*manifest, *dir)
	if err != nil {
		return 0, err
	}
	pool, err := ocr.NewPool(*ocrSize)
	if err != nil {
		return 0, err
	}
	defer func() { _ = pool.Close() }()
	tmp, err := os.MkdirTemp("", "corpus-reader-")
	if err != nil {
		return 0, err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	// The worker's reader: its OCR pool and the upload limit (MAX_UPLOAD_BYTES, 50 MB).
	reader := extract.New(extract.Options{OCR: pool, TempDir: tmp, Limits: extract.Limits{MaxFileBytes: 50 << 20}})
	rf, err := newRefs(*refCache)
	if err != nil {
		return 0, err
	}
	defer rf.close()

	ctx := context.Background()
	rep := &report{When: time.Now().UTC()}
	for _, e := range entries {
		if *only != "" && !strings.Contains(e.File, *only) {
			continue
		}
		fr := scoreFile(ctx, reader, rf, e, *dir)
		rep.Files = append(rep.Files, fr)
		fmt.Fprintf(os.Stderr, "%-70s %s\n", shorten(fr.File, 70), oneLine(fr))
	}
	rep.summarise()
	rep.print(os.Stdout)
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return 0, err
	}
	b, _ := json.MarshalIndent(rep, "", "  ")
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		return 0, err
	}
	fmt.Printf("\nreport: %s\n", *out)
	if len(rep.Failed) > 0 {
		fmt.Printf("%d gated files are below the bar (recall ≥ %.2f, precision ≥ %.2f)\n", len(rep.Failed), minRecall, minPrecision)
		return 1, nil
	}
	fmt.Printf("every gated file meets the bar (recall ≥ %.2f, precision ≥ %.2f)\n", minRecall, minPrecision)
	return 0, nil
}

func readManifest(path, dir string) ([]entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	var out []entry
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) != 6 {
			return nil, fmt.Errorf("%s: %q has %d columns, want 6", path, line, len(c))
		}
		pkg := c[1][strings.LastIndex(c[1], "/")+1:]
		out = append(out, entry{Source: c[0], Package: c[1], Version: c[2], Path: c[4],
			File: filepath.Join(c[0], pkg, c[4])})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s lists no file", path)
	}
	return out, sc.Err()
}

// fileType is the file's type from its name, the way the corpus groups it.
func fileType(name string) string {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(name), "."))
	switch ext {
	case "png", "jpg", "jpeg", "tif", "tiff", "gif", "webp", "heic", "heif":
		return "image"
	}
	return ext
}

func scoreFile(ctx context.Context, reader *extract.Reader, rf *refs, e entry, dir string) *fileReport {
	fr := &fileReport{File: e.File, From: e.Source + " " + e.Package + "@" + e.Version, Type: fileType(e.Path)}
	path := filepath.Join(dir, e.File)
	data, err := os.ReadFile(path)
	if err != nil {
		fr.Error = err.Error()
		return fr
	}
	sum := fileSum(data)

	// Markwell's side, timed.
	rctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	start := time.Now()
	res, err := reader.ExtractBytes(rctx, data, filepath.Base(path), "")
	fr.Seconds = time.Since(start).Seconds()
	cancel()
	if err != nil {
		if reason, ok := extract.Reason(err); ok {
			fr.Refused = reason
		} else {
			fr.Error = err.Error()
		}
	}

	// The reference.
	var ref string
	var refErr error
	switch fr.Type {
	case "pdf":
		var d time.Duration
		ref, d, refErr = rf.pdftotext(ctx, path)
		fr.PdftotextSeconds = d.Seconds()
		fr.Reference = "pdftotext"
		if refErr == nil && len(words(ref)) < minRefWords {
			fr.Type = "pdf-scanned"
			fr.Reference = "pdftoppm 300 dpi + tesseract"
			ref, refErr = rf.scannedText(ctx, path, sum)
		}
	case "docx", "odt", "rtf", "doc":
		fr.Reference = "LibreOffice html ∪ txt"
		ref, refErr = rf.officeText(ctx, path, sum)
	case "pptx", "ppt", "odp":
		fr.Reference = "LibreOffice pdf + pdftotext"
		ref, refErr = rf.slidesText(ctx, path, sum)
	case "image":
		fr.Reference = "tesseract"
		ref, refErr = rf.imageText(ctx, path, sum)
	default:
		fr.Reference = "none"
		refErr = errors.New("no reference tool for this type")
	}
	if refErr != nil {
		fr.RefError, _, _ = strings.Cut(refErr.Error(), "\n")
	}
	refWords := words(ref)
	fr.Gated = refErr == nil && len(refWords) >= minRefWords &&
		(fr.Type == "pdf" || fr.Type == "docx" || fr.Type == "pptx")

	all, precise, excluded := markwellText(res, fr.Type)
	fr.Excluded = excluded
	if res.Pages != nil {
		fr.Pages = len(res.Pages)
		fr.Sources = pageSources(res.Pages)
	}
	s := compare(refWords, words(all))
	if excluded > 0 {
		s.Precision = compare(refWords, words(precise)).Precision
	}
	if refErr == nil {
		fr.Score = &s
	}
	if fr.Type == "pdf" && fr.Score != nil {
		if mt, err := rf.mutool(ctx, path); err == nil {
			m := compare(words(mt), words(all))
			m.Missing, m.Extra = nil, nil
			fr.Mutool = &m
		}
	}
	fr.Pass = !fr.Gated || (fr.Score != nil && fr.Score.Recall >= minRecall && fr.Score.Precision >= minPrecision)
	return fr
}

// markwellText is the text Markwell found, for recall (all), and for
// precision (precise) without what the reference cannot contain: speaker
// notes in a presentation (LibreOffice's PDF export shows slides only) and
// the pages Markwell read by OCR in a text-layer PDF (pdftotext reads no
// image). excluded counts the words left out of precise.
func markwellText(res extract.Result, typ string) (all, precise string, excluded int) {
	var a, p strings.Builder
	for _, pg := range res.Pages {
		a.WriteString(pg.Text)
		a.WriteString("\n\n")
		keep := pg.Text
		switch {
		case typ == "pptx" || typ == "ppt" || typ == "odp":
			if i := strings.Index(keep, "Notes: "); i >= 0 && (i == 0 || keep[i-1] == '\n') {
				excluded += len(words(keep[i:]))
				keep = keep[:i]
			}
		case typ == "pdf" && pg.Source == extract.SourceOCR:
			excluded += len(words(keep))
			keep = ""
		case typ == "pdf":
			// Ticks, choices and answers the form's appearance does not
			// print: pdftotext cannot hold them.
			if i := strings.Index(keep, "\n\n"+extract.FormFieldsHeading+"\n"); i >= 0 {
				excluded += len(words(keep[i:]))
				keep = keep[:i]
			} else if strings.HasPrefix(keep, extract.FormFieldsHeading+"\n") {
				excluded += len(words(keep))
				keep = ""
			}
		}
		p.WriteString(keep)
		p.WriteString("\n\n")
	}
	return a.String(), p.String(), excluded
}

func pageSources(pages []extract.Page) string {
	n := map[string]int{}
	for _, p := range pages {
		s := string(p.Source)
		if s == "" {
			s = "empty"
		}
		n[s]++
	}
	keys := make([]string, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s×%d", k, n[k]))
	}
	return strings.Join(parts, " ")
}

func oneLine(fr *fileReport) string {
	switch {
	case fr.Refused != "":
		return "refused: " + fr.Refused
	case fr.Error != "":
		return "error: " + fr.Error
	case fr.Score == nil:
		return "no reference: " + fr.RefError
	}
	mark := ""
	if !fr.Pass {
		mark = "  BELOW BAR"
	}
	return fmt.Sprintf("%-11s ref %6d  recall %.3f  precision %.3f  %.1fs%s", fr.Type, fr.Score.RefWords, fr.Score.Recall, fr.Score.Precision, fr.Seconds, mark)
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n+1:]
}

func (rep *report) summarise() {
	byType := map[string][]*fileReport{}
	for _, f := range rep.Files {
		byType[f.Type] = append(byType[f.Type], f)
		if !f.Pass {
			rep.Failed = append(rep.Failed, f.File)
		}
		if f.Type == "pdf" && f.Score != nil && f.Error == "" && f.Refused == "" && !strings.Contains(f.Sources, "ocr") {
			rep.Speed.Files++
			rep.Speed.Pages += f.Pages
			rep.Speed.Markwell += f.Seconds
			rep.Speed.Pdftotext += f.PdftotextSeconds
		}
	}
	if rep.Speed.Markwell > 0 {
		rep.Speed.MarkwellPagesPS = float64(rep.Speed.Pages) / rep.Speed.Markwell
	}
	if rep.Speed.Pdftotext > 0 {
		rep.Speed.PdftotextPagesPS = float64(rep.Speed.Pages) / rep.Speed.Pdftotext
	}
	order := []string{"pdf", "pdf-scanned", "docx", "pptx", "odt", "rtf", "doc", "ppt", "odp", "image"}
	for t := range byType {
		if !contains(order, t) {
			order = append(order, t)
		}
	}
	for _, t := range order {
		fs := byType[t]
		if len(fs) == 0 {
			continue
		}
		row := typeRow{Type: t, Files: len(fs), MinRecall: math.NaN(), MinPrecision: math.NaN()}
		var mut int
		for _, f := range fs {
			if f.Gated {
				row.Gated++
			}
			if !f.Pass {
				row.Failing++
			}
			if f.Refused != "" || f.Error != "" {
				row.Refused++
			}
			if f.Score == nil || f.Score.RefWords < minRefWords {
				continue
			}
			row.Scored++
			row.MeanRecall += f.Score.Recall
			row.MeanPrecision += f.Score.Precision
			row.MinRecall = minNaN(row.MinRecall, f.Score.Recall)
			row.MinPrecision = minNaN(row.MinPrecision, f.Score.Precision)
			if f.Mutool != nil {
				row.MeanMutool += f.Mutool.Recall
				mut++
			}
		}
		if row.Scored > 0 {
			row.MeanRecall /= float64(row.Scored)
			row.MeanPrecision /= float64(row.Scored)
		} else {
			row.MinRecall, row.MinPrecision = 0, 0
		}
		if mut > 0 {
			row.MeanMutool /= float64(mut)
		}
		rep.Types = append(rep.Types, row)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func minNaN(a, b float64) float64 {
	if math.IsNaN(a) || b < a {
		return b
	}
	return a
}

func (rep *report) print(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "type\tfiles\tscored\tgated\tbelow bar\trefused\tmean recall\tmin recall\tmean precision\tmin precision\tmean recall vs mutool\t")
	for _, r := range rep.Types {
		mut := "–"
		if r.MeanMutool > 0 {
			mut = fmt.Sprintf("%.3f", r.MeanMutool)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%s\t\n", r.Type, r.Files, r.Scored, r.Gated, r.Failing, r.Refused,
			r.MeanRecall, r.MinRecall, r.MeanPrecision, r.MinPrecision, mut)
	}
	_ = tw.Flush()

	var scored []*fileReport
	for _, f := range rep.Files {
		if f.Score != nil && f.Score.RefWords >= minRefWords && f.Refused == "" && f.Error == "" {
			scored = append(scored, f)
		}
	}
	sort.SliceStable(scored, func(i, j int) bool { return worst(scored[i]) < worst(scored[j]) })
	fmt.Fprintln(w, "\nthe 10 worst files read (lower of recall and precision; refusals are listed below):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "file\ttype\tref words\trecall\tprecision\tvs mutool\tpages\tmissing (most often)\t")
	for i, f := range scored {
		if i == 10 {
			break
		}
		mut := "–"
		if f.Mutool != nil {
			mut = fmt.Sprintf("%.3f", f.Mutool.Recall)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.3f\t%.3f\t%s\t%s\t%s\t\n", shorten(f.File, 60), f.Type, f.Score.RefWords, f.Score.Recall,
			f.Score.Precision, mut, f.Sources, shorten(strings.Join(f.Score.Missing, " "), 50))
	}
	_ = tw.Flush()

	fmt.Fprintln(w, "\nrefused or failed:")
	n := 0
	for _, f := range rep.Files {
		if f.Refused != "" || f.Error != "" {
			n++
			ref := ""
			if f.Score != nil {
				ref = fmt.Sprintf(" (reference: %d words)", f.Score.RefWords)
			}
			fmt.Fprintf(w, "  %s%s: %s%s\n", f.File, ref, f.Refused, f.Error)
		}
	}
	if n == 0 {
		fmt.Fprintln(w, "  none")
	}
	var refFail []string
	for _, f := range rep.Files {
		if f.RefError != "" {
			refFail = append(refFail, f.File+": "+f.RefError)
		}
	}
	if len(refFail) > 0 {
		fmt.Fprintln(w, "\nno reference (not scored):")
		for _, s := range refFail {
			fmt.Fprintln(w, "  "+s)
		}
	}
	s := rep.Speed
	if s.Pages > 0 {
		fmt.Fprintf(w, "\ntext-layer PDFs: %d files, %d pages; Markwell %.1f s (%.0f pages/s), pdftotext %.1f s (%.0f pages/s); ratio %.2f\n",
			s.Files, s.Pages, s.Markwell, s.MarkwellPagesPS, s.Pdftotext, s.PdftotextPagesPS, s.MarkwellPagesPS/s.PdftotextPagesPS)
	}
	if len(rep.Failed) > 0 {
		fmt.Fprintln(w, "\nbelow the bar:")
		for _, f := range rep.Failed {
			fmt.Fprintln(w, "  "+f)
		}
	}
}

// worst is the lower of a file's recall and precision.
func worst(f *fileReport) float64 { return math.Min(f.Score.Recall, f.Score.Precision) }
