// Package csvimport reads the CSV exports teachers bring (Google Forms,
// Microsoft Forms, an LMS quiz report): a name column, an optional email
// column and one answer column per question. Parse reads and bounds the
// file, Suggest guesses which column is which, Apply turns the rows into
// students' answers under a mapping the teacher confirmed. It knows nothing
// of HTTP or the database.
//
// Errors: ErrNotCSV for binary content; every other error's text is a
// teacher-facing detail ("line 12: …") meant to follow "Error reading CSV
// file: ".
package csvimport

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/markwell/markwell/internal/input"
)

// Limits of one file.
const (
	// MaxRows is the most data rows a file may hold (blank rows do not count).
	MaxRows = 10_000
	// MaxBytes is the largest file Parse reads.
	MaxBytes = 5 << 20
	// MaxColumns is the most columns a header may have.
	MaxColumns = 1_000
	// MaxCells caps data rows × columns, so a wide header over many short
	// rows (each padded to the header's width) cannot make a small file
	// cost much memory: 10,000 rows of 100 columns, or 1,000 of 1,000.
	MaxCells = 1_000_000
)

var (
	// ErrNotCSV means the content is binary (NUL bytes or invalid UTF-8),
	// not a text export; show 'Uploaded file is not a CSV file.'.
	ErrNotCSV = errors.New("the file is not a CSV file")
	// ErrEmpty means the file holds no header line.
	ErrEmpty = errors.New("the file is empty")
	// ErrTooLarge is wrapped by the errors of a file past MaxBytes, MaxRows
	// or MaxColumns; the message says which limit.
	ErrTooLarge = errors.New("the file is too large")
	// ErrMapping is wrapped by Apply's errors about the mapping itself (as
	// opposed to a row of the file).
	ErrMapping = errors.New("invalid column mapping")
)

// Table is a parsed file: the header and the non-blank data rows, each row
// exactly as wide as the header.
type Table struct {
	// Header holds the column titles, trimmed of spaces.
	Header []string
	// Rows are the data rows; short rows are padded with "" and rows whose
	// cells are all blank are left out.
	Rows [][]string
	// Delimiter is the separator sniffed from the header line: ',', ';' or '\t'.
	Delimiter rune
	// lines[i] is the line of the file Rows[i] starts on (the header is line 1).
	lines []int
}

// Mapping says which column holds what. Column indexes count from 0.
type Mapping struct {
	// NameColumn holds the student's name (required).
	NameColumn int `json:"nameColumn"`
	// EmailColumn holds the student's email, -1 for none.
	EmailColumn int `json:"emailColumn"`
	// Questions map top-level questions of the assignment to columns.
	Questions []QuestionColumn `json:"questions"`
}

// QuestionColumn maps one top-level question (its index in the
// assignment, from 0) to the column holding its answers.
type QuestionColumn struct {
	Question int `json:"question"`
	Column   int `json:"column"`
}

// Row is one student's row under a mapping.
type Row struct {
	// Line is the line of the file the row starts on (the header is line 1).
	Line  int
	Name  string
	Email string
	// Answers hold one answer per mapped question, ordered by question; a
	// question the student left blank has Text "".
	Answers []Answer
}

// Answer is a student's answer to one top-level question.
type Answer struct {
	Question int    `json:"question"`
	Text     string `json:"text"`
}

// Parse reads a CSV export: UTF-8 with or without a byte-order mark, CRLF
// or LF line ends, the delimiter (comma, semicolon or tab) sniffed from the
// header line, quoted fields holding delimiters, doubled quotes and line
// breaks. Cells are kept exactly as written (formula-looking cells such as
// "=SUM(A1)" included); header titles are trimmed.
//
// Ragged rows: a row shorter than the header is padded with empty cells; a
// longer row is accepted when its extra cells are blank (trailing
// delimiters) and is an error naming its line otherwise, since a cell that
// belongs to no column usually means a quoting mistake that shifted the row.
//
// Bounded: more than MaxBytes bytes, MaxRows data rows, MaxColumns columns
// or MaxCells cells is an error wrapping ErrTooLarge that states the limit.
func Parse(r io.Reader) (*Table, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("the file could not be read: %w", err)
	}
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("%w: the limit is %d MB", ErrTooLarge, MaxBytes>>20)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return nil, ErrNotCSV
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, ErrEmpty
	}

	t := &Table{Delimiter: sniff(data)}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.Comma = t.Delimiter
	cr.FieldsPerRecord = -1 // ragged rows are handled below
	cr.ReuseRecord = false

	header, err := cr.Read()
	if err != nil {
		if err == io.EOF {
			return nil, ErrEmpty
		}
		return nil, readError(err)
	}
	if len(header) > MaxColumns {
		return nil, fmt.Errorf("%w: the header has %d columns, the limit is %d", ErrTooLarge, len(header), MaxColumns)
	}
	for i, h := range header {
		header[i] = strings.TrimSpace(h)
	}
	t.Header = header

	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, readError(err)
		}
		line, _ := cr.FieldPos(0)
		if blank(rec) {
			continue
		}
		if len(rec) > len(header) {
			if !blank(rec[len(header):]) {
				return nil, fmt.Errorf("line %d: %d cells, but the header has %d columns (is a quotation mark missing?)", line, len(rec), len(header))
			}
			rec = rec[:len(header)]
		}
		for len(rec) < len(header) {
			rec = append(rec, "")
		}
		if len(t.Rows) == MaxRows {
			return nil, fmt.Errorf("%w: more than %d rows (line %d), the limit is %d rows", ErrTooLarge, MaxRows, line, MaxRows)
		}
		if (len(t.Rows)+1)*len(header) > MaxCells {
			return nil, fmt.Errorf("%w: %d columns by more than %d rows (line %d), the limit is %d cells (rows × columns)",
				ErrTooLarge, len(header), len(t.Rows), line, MaxCells)
		}
		t.Rows = append(t.Rows, rec)
		t.lines = append(t.lines, line)
	}
	return t, nil
}

// sniff picks the delimiter that occurs most often, outside quotes, in the
// header line: comma on a tie or when there is none (a single column).
func sniff(data []byte) rune {
	counts := map[byte]int{}
	quoted := false
	for _, b := range data {
		if b == '"' {
			quoted = !quoted
			continue
		}
		if quoted {
			continue
		}
		if b == '\n' || b == '\r' {
			break
		}
		if b == ',' || b == ';' || b == '\t' {
			counts[b]++
		}
	}
	best := byte(',')
	for _, d := range []byte{';', '\t'} {
		if counts[d] > counts[best] {
			best = d
		}
	}
	return rune(best)
}

// readError turns encoding/csv's error into a teacher-facing one naming the line.
func readError(err error) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return fmt.Errorf("the file could not be read: %w", err)
	}
	switch {
	case errors.Is(pe.Err, csv.ErrBareQuote):
		return fmt.Errorf("line %d: a quotation mark (\") inside a cell that does not start with one; put the cell in quotes and double the quotation mark", pe.Line)
	case errors.Is(pe.Err, csv.ErrQuote):
		// The row that starts the quoted cell is the one to fix.
		return fmt.Errorf("line %d: a quoted cell is never closed, or has text after its closing quotation mark", pe.StartLine)
	}
	return fmt.Errorf("line %d: %w", pe.Line, pe.Err)
}

// blank reports whether every cell is empty or spaces.
func blank(cells []string) bool {
	for _, c := range cells {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

// Apply validates m against the table (columns in range, no column used
// twice, a name column, at least one question, no question twice) and
// returns the rows under it: cells trimmed, control characters other than
// tab and line breaks removed, rows blank in every mapped column skipped.
// A row with answers but no name, or with a name longer than input.MaxName
// characters, is an error naming its line.
func (t *Table) Apply(m Mapping) ([]Row, error) {
	if err := t.validate(m); err != nil {
		return nil, err
	}
	qs := append([]QuestionColumn(nil), m.Questions...)
	sort.SliceStable(qs, func(i, j int) bool { return qs[i].Question < qs[j].Question })

	out := make([]Row, 0, len(t.Rows))
	for i, rec := range t.Rows {
		line := i + 2
		if i < len(t.lines) {
			line = t.lines[i]
		}
		row := Row{Line: line, Name: input.Name(rec[m.NameColumn])}
		empty := row.Name == ""
		if m.EmailColumn >= 0 {
			row.Email = cleanCell(rec[m.EmailColumn])
			empty = empty && row.Email == ""
		}
		row.Answers = make([]Answer, len(qs))
		for k, q := range qs {
			row.Answers[k] = Answer{Question: q.Question, Text: cleanCell(rec[q.Column])}
			empty = empty && row.Answers[k].Text == ""
		}
		if empty {
			continue
		}
		if row.Name == "" {
			return nil, fmt.Errorf("line %d: no student name in column %q", line, t.title(m.NameColumn))
		}
		if n := utf8.RuneCountInString(row.Name); n > input.MaxName {
			return nil, fmt.Errorf("line %d: the name is %d characters long, the limit is %d", line, n, input.MaxName)
		}
		out = append(out, row)
	}
	if len(out) == 0 {
		return nil, errors.New("the file has no rows with answers")
	}
	return out, nil
}

// validate checks a mapping against the table's columns.
func (t *Table) validate(m Mapping) error {
	n := len(t.Header)
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrMapping, fmt.Sprintf(format, args...))
	}
	if m.NameColumn < 0 || m.NameColumn >= n {
		return bad("choose the column that holds the students' names")
	}
	if m.EmailColumn < -1 || m.EmailColumn >= n {
		return bad("the email column %d does not exist (the file has %d columns)", m.EmailColumn+1, n)
	}
	if len(m.Questions) == 0 {
		return bad("choose a column for at least one question")
	}
	used := map[int]string{m.NameColumn: "the name"}
	if m.EmailColumn >= 0 {
		if _, dup := used[m.EmailColumn]; dup {
			return bad("column %q is chosen for both the name and the email", t.title(m.EmailColumn))
		}
		used[m.EmailColumn] = "the email"
	}
	questions := map[int]bool{}
	for _, q := range m.Questions {
		if q.Column < 0 || q.Column >= n {
			return bad("question %d: column %d does not exist (the file has %d columns)", q.Question+1, q.Column+1, n)
		}
		if q.Question < 0 {
			return bad("question %d does not exist", q.Question+1)
		}
		if what, dup := used[q.Column]; dup {
			return bad("column %q is chosen for both %s and question %d", t.title(q.Column), what, q.Question+1)
		}
		used[q.Column] = fmt.Sprintf("question %d", q.Question+1)
		if questions[q.Question] {
			return bad("question %d is given two columns", q.Question+1)
		}
		questions[q.Question] = true
	}
	return nil
}

// title names column i for a message: its header, or "column 3" when the
// header is blank.
func (t *Table) title(i int) string {
	if i >= 0 && i < len(t.Header) && t.Header[i] != "" {
		return t.Header[i]
	}
	return fmt.Sprintf("column %d", i+1)
}

// cleanCell trims a cell and removes C0 control characters other than tab
// and line breaks (the one rule for text in Markwell, see package input).
func cleanCell(s string) string {
	s = strings.TrimSpace(s)
	if strings.IndexFunc(s, badControl) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if badControl(r) {
			return -1
		}
		return r
	}, s)
}

func badControl(r rune) bool { return r < 0x20 && r != '\t' && r != '\n' && r != '\r' }

// EscapeCell makes s safe to write into a CSV a spreadsheet will open: a
// cell starting with =, +, -, @, a tab or a carriage return gets a leading
// apostrophe, so Excel, Sheets and LibreOffice show it as text instead of
// running it as a formula (OWASP's CSV injection advice). Other cells are
// returned as they are.
func EscapeCell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}
