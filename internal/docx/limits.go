package docx

import (
	"fmt"
)

// Limits bound the work and memory of one export by the document's structure, not only its length: some
// markdown of a few hundred kilobytes would otherwise keep a core busy for minutes (goldmark's parser is
// quadratic on some inputs, and a document can name one large image many times). A document past a limit is
// refused with a *LimitError whose message says which. Zero fields take DefaultLimits' values.
type Limits struct {
	// Depth caps how deep block quotes and lists nest (together).
	Depth int
	// Paragraphs caps the paragraphs of the file: headings, paragraphs, list items, code blocks and table cells.
	Paragraphs int
	// Links caps the links of the document (each is a relationship in the file).
	Links int
	// Lists caps the lists (each is a numbering instance) and ListItems their items.
	Lists, ListItems int
	// CodeLines caps the lines of the code blocks (and of raw HTML blocks, written as text) together: each line is
	// a run of its own.
	CodeLines int
	// TableRows and TableColumns cap each table, TableCells all tables together.
	TableRows, TableColumns, TableCells int
	// Images caps the distinct images embedded (more is an *ImageError, as a failed image), ImageUses the
	// places they are shown.
	Images, ImageUses int
	// ImageBytes caps one image, TotalImageBytes the distinct images together.
	ImageBytes, TotalImageBytes int
	// OutputBytes caps the .docx file.
	OutputBytes int
	// MarkWork caps the sum over the document's paragraphs of the square of each one's count of inline marks
	// (*, _, ~, `, [, ], <, !, \, &): the work goldmark's inline parser may spend pairing them.
	MarkWork int
	// LinkScan caps the bytes goldmark may scan looking for the end of link addresses and titles.
	LinkScan int
}

// DefaultLimits are the limits of an export. A 20-page lesson plan with tables, links and images is far inside
// every one of them (testdata/20-pages.md).
func DefaultLimits() Limits {
	return Limits{
		Depth:           20,
		Paragraphs:      30_000,
		Links:           2_000,
		Lists:           1_000,
		ListItems:       10_000,
		CodeLines:       20_000,
		TableRows:       1_000,
		TableColumns:    50,
		TableCells:      20_000,
		Images:          MaxImages,
		ImageUses:       500,
		ImageBytes:      MaxImageBytes,
		TotalImageBytes: 20 << 20,
		OutputBytes:     25 << 20,
		MarkWork:        100_000_000,
		LinkScan:        20_000_000,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	or := func(v, def int) int {
		if v > 0 {
			return v
		}
		return def
	}
	return Limits{
		Depth: or(l.Depth, d.Depth), Paragraphs: or(l.Paragraphs, d.Paragraphs), Links: or(l.Links, d.Links),
		Lists: or(l.Lists, d.Lists), ListItems: or(l.ListItems, d.ListItems), CodeLines: or(l.CodeLines, d.CodeLines),
		TableRows: or(l.TableRows, d.TableRows), TableColumns: or(l.TableColumns, d.TableColumns),
		TableCells: or(l.TableCells, d.TableCells),
		Images:     or(l.Images, d.Images), ImageUses: or(l.ImageUses, d.ImageUses),
		ImageBytes: or(l.ImageBytes, d.ImageBytes), TotalImageBytes: or(l.TotalImageBytes, d.TotalImageBytes),
		OutputBytes: or(l.OutputBytes, d.OutputBytes),
		MarkWork:    or(l.MarkWork, d.MarkWork), LinkScan: or(l.LinkScan, d.LinkScan),
	}
}

// LimitError refuses a document past one of its Limits; Message is a sentence for the teacher.
type LimitError struct {
	Message string
}

// Error returns the message.
func (e *LimitError) Error() string { return e.Message }

func limitf(format string, args ...any) *LimitError {
	return &LimitError{Message: fmt.Sprintf(format, args...)}
}

// The messages of the limits. Numbers are written as a teacher reads them (2,000).
func (l Limits) tooDeep() error {
	return limitf("The document nests quotes or lists more than %s deep.", count(l.Depth))
}

func (l Limits) tooManyParagraphs() error {
	return limitf("The document has more than %s paragraphs (headings, list items and table cells count as "+
		"paragraphs).", count(l.Paragraphs))
}

func (l Limits) tooManyLinks() error {
	return limitf("The document has more than %s links.", count(l.Links))
}

func (l Limits) tooManyLists() error {
	return limitf("The document has more than %s lists.", count(l.Lists))
}

func (l Limits) tooManyListItems() error {
	return limitf("The document's lists have more than %s items in all.", count(l.ListItems))
}

func (l Limits) tooManyCodeLines() error {
	return limitf("The document's code blocks have more than %s lines in all.", count(l.CodeLines))
}

func (l Limits) tooManyRows() error {
	return limitf("A table in the document has more than %s rows.", count(l.TableRows))
}

func (l Limits) tooManyColumns() error {
	return limitf("A table in the document has more than %s columns.", count(l.TableColumns))
}

func (l Limits) tooManyCells() error {
	return limitf("The document's tables have more than %s cells in all.", count(l.TableCells))
}

func (l Limits) tooManyImageUses() error {
	return limitf("The document shows images more than %s times.", count(l.ImageUses))
}

func (l Limits) tooManyImageBytes() error {
	return limitf("The document's images add up to more than %s.", size(l.TotalImageBytes))
}

func (l Limits) tooLargeOutput() error {
	return limitf("The Word file would be larger than %s.", size(l.OutputBytes))
}

func (l Limits) tooManyMarks() error {
	return &LimitError{Message: "The document has too many formatting marks (such as *, _, `, [ or <) " +
		"in one paragraph to convert. Split long paragraphs with blank lines, or remove some of the marks."}
}

func (l Limits) tooMuchLinkScan() error {
	return &LimitError{Message: "The document has too many links whose address or title is never closed " +
		"(a \"](\" with no \")\" after it) to convert."}
}

// count writes n with thousands separators: 2000 → "2,000".
func count(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// size writes a byte count in MB (1 MB = 2^20 bytes, as the upload limits are written).
func size(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KB", max(n>>10, 1))
}
