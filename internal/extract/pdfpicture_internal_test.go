package extract

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestImageAreasReadsPDFImagesList(t *testing.T) {
	t.Parallel()
	// poppler 22's output: a 292 × 319 ppi scan over a US letter page with
	// its soft mask, an inline image, a stencil on page 3, and a degenerate
	// image drawn at no size.
	list := `page   num  type   width height color comp bpc  enc interp  object ID x-ppi y-ppi size ratio
--------------------------------------------------------------------------------------------
   1     0 image    2480  3509  rgb     3   8  image  no         4  0   292   319  233K 0.9%
   1     1 smask    2480  3509  gray    1   8  image  no         5  0   292   319  9.1K 0.1%
   2     2 image     100   100  gray    1   8  image  no    [inline]     100   100   10K 100%
   3     3 stencil  2480  3508  -       1   1  jbig2  no         9  0   300   300   20K 0.2%
   3     4 image      10    10  gray    1   8  image  no        11  0     0     0   100B 100%
`
	areas := imageAreas(list)
	require.InDelta(t, (2480.0/292*72)*(3509.0/319*72), areas[1], 1, "the mask is not counted again")
	require.InDelta(t, 72.0*72, areas[2], 1e-6)
	require.InDelta(t, (2480.0/300*72)*(3508.0/300*72), areas[3], 1)
	require.Len(t, areas, 3)
	require.Empty(t, imageAreas("Syntax Error: Couldn't read xref table\n"))
}

func TestCropAreasReadsPDFInfoBoxes(t *testing.T) {
	t.Parallel()
	info := `Pages:           2
Page    1 size:  595.276 x 841.89 pts (A4)
Page    1 MediaBox:      0.00     0.00   595.28   841.89
Page    1 CropBox:       0.00     0.00   595.28   841.89
Page    2 MediaBox:      0.00     0.00   612.00   792.00
Page    2 CropBox:      36.00    36.00   576.00   756.00
`
	areas := cropAreas(info)
	require.InDelta(t, 595.28*841.89, areas[1], 1e-6)
	require.InDelta(t, 540.0*720, areas[2], 1e-6)
	require.Len(t, areas, 2)
}

func TestClearlyMore(t *testing.T) {
	t.Parallel()
	stamp := "Scanned with CamScanner"
	require.True(t, clearlyMore("Photosynthesis is the process plants use to make food. Scanned with CamScanner", stamp))
	require.False(t, clearlyMore("Scanned with CamScanner", stamp))
	require.False(t, clearlyMore("", stamp))
	require.False(t, clearlyMore("a b c d e f g h i j", stamp), "10 words: not twice 3 and 5 more")
	require.True(t, clearlyMore("a b c d e f g h i j k", stamp))
}
