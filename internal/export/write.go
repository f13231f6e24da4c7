package export

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// bom starts the CSV so that Excel reads it as UTF-8 (without it, Excel
// takes a CSV for the system's code page and garbles every accent).
const bom = "\ufeff"

// formatNum writes a number as plainly as it is: 2, 1.5, -0.25.
func formatNum(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// WriteCSV writes t as UTF-8 CSV with a BOM, quoted as RFC 4180 says,
// lines ending in CRLF; text cells that look like formulas are escaped.
func WriteCSV(t Table) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(bom)
	w := csv.NewWriter(&b)
	w.UseCRLF = true
	rec := make([]string, len(t.Header))
	for i, h := range t.Header {
		rec[i] = escape(h)
	}
	if err := w.Write(rec); err != nil {
		return nil, fmt.Errorf("write CSV: %w", err)
	}
	for _, r := range t.Rows {
		for i, c := range r {
			if c.Num != nil {
				rec[i] = formatNum(*c.Num)
			} else {
				rec[i] = escape(c.Text)
			}
		}
		if err := w.Write(rec); err != nil {
			return nil, fmt.Errorf("write CSV: %w", err)
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, fmt.Errorf("write CSV: %w", err)
	}
	return b.Bytes(), nil
}

// sheet is the one worksheet's name.
const sheet = "Results"

// Column widths, in characters.
const minWidth, maxWidth = 8, 50

// WriteXLSX writes t as one worksheet: the header row bold and frozen,
// numbers as numbers, text as string cells (never formulas; formula-like
// text escaped as in the CSV, so both files read the same), columns as wide
// as their content within bounds.
func WriteXLSX(t Table) ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return nil, fmt.Errorf("name sheet: %w", err)
	}
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true},
		Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"}})
	if err != nil {
		return nil, fmt.Errorf("header style: %w", err)
	}
	wrap, err := f.NewStyle(&excelize.Style{Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"}})
	if err != nil {
		return nil, fmt.Errorf("text style: %w", err)
	}
	widths := make([]int, len(t.Header))
	grow := func(i int, s string) {
		for _, line := range bytes.Split([]byte(s), []byte("\n")) {
			if n := utf8.RuneCount(line); n > widths[i] {
				widths[i] = n
			}
		}
	}
	sw, err := f.NewStreamWriter(sheet)
	if err != nil {
		return nil, fmt.Errorf("sheet writer: %w", err)
	}
	// Column widths and the frozen header go before the rows in a stream.
	for i, h := range t.Header {
		grow(i, h)
		for _, r := range t.Rows {
			if c := r[i]; c.Num != nil {
				grow(i, formatNum(*c.Num))
			} else {
				grow(i, escape(c.Text))
			}
		}
	}
	for i, w := range widths {
		w = min(max(w+2, minWidth), maxWidth)
		if err := sw.SetColWidth(i+1, i+1, float64(w)); err != nil {
			return nil, fmt.Errorf("column width: %w", err)
		}
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return nil, fmt.Errorf("freeze header: %w", err)
	}
	head := make([]any, len(t.Header))
	for i, h := range t.Header {
		head[i] = excelize.Cell{StyleID: bold, Value: escape(h)}
	}
	if err := sw.SetRow("A1", head, excelize.RowOpts{Height: 30}); err != nil {
		return nil, fmt.Errorf("write header: %w", err)
	}
	for n, r := range t.Rows {
		vals := make([]any, len(r))
		for i, c := range r {
			switch {
			case c.Num != nil:
				vals[i] = excelize.Cell{Value: *c.Num}
			case c.Text == "":
				vals[i] = nil
			default:
				// A Go string is written as an inline string cell: a
				// spreadsheet shows it as text and never evaluates it.
				vals[i] = excelize.Cell{StyleID: wrap, Value: escape(c.Text)}
			}
		}
		cell, err := excelize.CoordinatesToCellName(1, n+2)
		if err != nil {
			return nil, err
		}
		if err := sw.SetRow(cell, vals); err != nil {
			return nil, fmt.Errorf("write row %d: %w", n+2, err)
		}
	}
	if err := sw.Flush(); err != nil {
		return nil, fmt.Errorf("write sheet: %w", err)
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		return nil, fmt.Errorf("write XLSX: %w", err)
	}
	return buf.Bytes(), nil
}
