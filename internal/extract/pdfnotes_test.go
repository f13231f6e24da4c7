package extract_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/extract/pdftest"
)

// annotatedPoem is a page of printed text a pupil annotated: a comment on a
// highlighted line, a sticky note, a text box typed onto the page, a hidden
// note, a link and the same sticky note twice.
func annotatedPoem() []byte {
	content := "BT /F1 12 Tf 72 720 Td (The fog comes on little cat feet.) Tj 0 -20 Td (It sits looking over harbor and city.) Tj ET"
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R " +
			"/Annots [6 0 R 7 0 R 8 0 R 9 0 R 10 0 R 11 0 R] >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		"<< /Type /Annot /Subtype /Highlight /Rect [72 715 300 735] /QuadPoints [72 735 300 735 72 715 300 715] /T (Ana) " +
			"/Contents (Metaphor: the fog moves\r\nquietly like a cat.) >>",
		"<< /Type /Annot /Subtype /Text /Rect [500 700 520 720] /Contents (The poem is short, like the fog's visit.) >>",
		"<< /Type /Annot /Subtype /FreeText /Rect [72 600 400 620] /DA (/Helv 11 Tf 0 g) /Contents (Personification in line two) >>",
		"<< /Type /Annot /Subtype /Text /F 2 /Rect [500 600 520 620] /Contents (hidden draft) >>",
		"<< /Type /Annot /Subtype /Link /Rect [72 500 200 520] /Contents (https://example.com) /A << /S /URI /URI (https://example.com) >> >>",
		"<< /Type /Annot /Subtype /Text /Rect [500 680 520 700] /Contents (The poem is short, like the fog's visit.) >>",
	}
	return pdftest.Assemble(objs)
}

func TestExtract_APupilsCommentsOnAPDFAreReadUnderItsText(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.reader, annotatedPoem(), "poem.pdf", "application/pdf")
	require.NoError(t, err)
	require.Len(t, res.Pages, 1)
	text := res.Pages[0].Text
	require.Contains(t, text, "The fog comes on little cat feet.")
	want := extract.NotesHeading + "\nMetaphor: the fog moves quietly like a cat.\nThe poem is short, like the fog's visit."
	require.True(t, strings.HasSuffix(text, "\n\n"+want), "the comments follow the page's text, each once:\n%s", text)
	require.Equal(t, 1, strings.Count(text, "Personification in line two"), "a text box on the page is read with the page, once")
	require.NotContains(t, text, "hidden draft")
	require.NotContains(t, text, "example.com")
	require.Equal(t, extract.SourcePoppler, res.Pages[0].Source)
}
