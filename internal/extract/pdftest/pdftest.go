// Package pdftest builds small PDFs for tests: a file of the objects a
// test writes, with the cross-reference table and trailer PDF readers
// need. It is imported by tests only.
package pdftest

import (
	"bytes"
	"fmt"
)

// Assemble is a PDF 1.4 file of objs, numbered from 1 in order; object 1
// must be the catalog (the trailer's /Root).
func Assemble(objs []string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}
