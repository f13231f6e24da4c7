package extract

import (
	"context"
	"image"
)

// recognisePage reads one page's image with the Reader's OCR, after turning
// it straight when it is tilted (deskew.go).
func (r *Reader) recognisePage(ctx context.Context, g *image.Gray) (string, *int, error) {
	g, _ = deskew(g)
	return r.recognise(ctx, encodePGM(g))
}
