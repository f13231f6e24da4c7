package extract

import (
	"image"
	"math"
	"slices"
)

// Skew correction before OCR.
//
// Tesseract 5 looks for text lines that run straight across the page. A scan
// or a photo tilted by a couple of degrees loses whole lines, and says
// nothing: the words it does read are confident, so no warning fires. A page
// of 146 words tilted 2° gave 92 of them, 3.5° gave 40, 5° gave none ("No
// text found in this file"). So each page is measured before OCR and, when
// it is tilted, turned straight.
//
// The measure is the projection profile of a small copy of the page: its
// ink, summed along lines at a trial angle, piles into sharp peaks (the text
// lines) and empty valleys (the gaps between them) only when the trial
// angle is the page's tilt. The sharpness is scored as the sum of squared
// differences between neighbouring bins of the profile, as leptonica does;
// every angle within ±maxSkew is tried in coarse steps, then the best one
// in fine steps. The same is done across the page (columns of ink) so that a
// page turned sideways, which tesseract turns itself, is measured by its
// own lines and not turned by a wrong few degrees.
//
// A page whose best angle scores little better than the median one (a
// drawing, a photo, a blank page, a few words) has no lines to go by and is
// left as it is, and so is a tilt under minSkew, which tesseract reads well
// and a turn would only blur. Measuring costs about 40 ms per A4 page at 300 dpi
// and turning a tilted page about 70 ms more (BenchmarkDeskew), against
// about 0.8 s for tesseract itself.
const (
	maxSkew        = 15.0 // degrees either way that are searched
	minSkew        = 0.5  // degrees under which a page is left alone
	coarseSkewStep = 0.2  // degrees between the first sweep's trials
	fineSkewStep   = 0.02 // degrees between the second sweep's trials
	skewSide       = 900  // long side, in pixels, of the measured copy
	minSkewPoints  = 200  // inked cells under which a page has no lines to go by
	minSkewRatio   = 5.0  // best score ÷ the median score: a page of text scores 40–80, no lines under 2
	sidewaysRatio  = 1.5  // how much better columns must score to call a page sideways
	skewFillShare  = 0.5  // the paper colour is the median cell of the copy
	inkContrast    = 0.25 // a cell is ink when this much darker than the paper…
	minInkContrast = 24.0 // …and at least this many grey levels darker
	fineSkewSpan   = 0.2  // degrees either way of the coarse best searched finely
)

// inkCell is one cell of the measured copy that holds ink: its centre and
// how dark it is.
type inkCell struct {
	x, y, w float32
}

// skewOf is the tilt of a page, in degrees: positive when its lines run down
// to the right (in image coordinates, y pointing down), with the paper's
// grey. ok is false when the page has no lines to go by; angle is then 0.
func skewOf(g *image.Gray) (angle float64, paper uint8, ok bool) {
	cells, w, h, paper := inkCells(g)
	if len(cells) < minSkewPoints {
		return 0, paper, false
	}
	rows, rowsRatio := bestAngle(cells, w, h)
	// The same cells transposed: the lines of a page turned sideways.
	cols := make([]inkCell, len(cells))
	for i, c := range cells {
		cols[i] = inkCell{x: c.y, y: c.x, w: c.w}
	}
	across, acrossRatio := bestAngle(cols, h, w)
	switch {
	case acrossRatio > sidewaysRatio*rowsRatio && acrossRatio >= minSkewRatio:
		// Columns x = y·tan(a) + c stand upright once the page is turned
		// by +a, where rows y = x·tan(a) + c lie level once it is turned by
		// -a: their tilt is -a.
		return -across, paper, true
	case rowsRatio >= minSkewRatio:
		return rows, paper, true
	}
	return 0, paper, false
}

// inkCells shrinks the page to about skewSide pixels on its long side, each
// cell the mean of a square of pixels, and lists the cells darker than the
// paper, weighted by how much darker. It also returns the copy's size and
// the paper's grey, which fills the corners of a turned page.
func inkCells(g *image.Gray) (cells []inkCell, w, h int, paper uint8) {
	b := g.Bounds()
	k := max(1, (max(b.Dx(), b.Dy())+skewSide-1)/skewSide)
	w, h = b.Dx()/k, b.Dy()/k
	if w < 2 || h < 2 {
		return nil, w, h, 255
	}
	means := make([]uint8, w*h)
	sums := make([]uint32, w)
	for cy := range h {
		clear(sums)
		for y := cy * k; y < cy*k+k; y++ {
			row := g.Pix[(b.Min.Y+y-g.Rect.Min.Y)*g.Stride+(b.Min.X-g.Rect.Min.X):]
			for cx := range w {
				var s uint32
				for _, v := range row[cx*k : cx*k+k] {
					s += uint32(v)
				}
				sums[cx] += s
			}
		}
		for cx, s := range sums {
			means[cy*w+cx] = uint8(s / uint32(k*k))
		}
	}
	paper = percentile(means, skewFillShare)
	// Ink is well darker than the paper: a faint scan (paper 255, ink 140)
	// still counts, the grain of a grey photo does not.
	limit := float32(paper) - float32(max(minInkContrast, inkContrast*float64(paper)))
	for i, m := range means {
		if d := limit - float32(m); d > 0 {
			cells = append(cells, inkCell{x: float32(i % w), y: float32(i / w), w: d})
		}
	}
	return cells, w, h, paper
}

// percentile is the grey below which share of the values fall.
func percentile(v []uint8, share float64) uint8 {
	var hist [256]int
	for _, x := range v {
		hist[x]++
	}
	want := int(share * float64(len(v)))
	n := 0
	for grey, c := range hist {
		if n += c; n > want {
			return uint8(grey)
		}
	}
	return 255
}

// bestAngle sweeps ±maxSkew coarsely, then around the best angle finely,
// and returns the sharpest angle and how much sharper it is than the
// median trial of the coarse sweep (1 for a page without lines).
func bestAngle(cells []inkCell, w, h int) (float64, float64) {
	bins := make([]float32, w+h+2)
	var scores []float64
	best, bestScore := 0.0, -1.0
	for a := -maxSkew; a <= maxSkew+1e-9; a += coarseSkewStep {
		s := profileScore(cells, w, a, bins)
		scores = append(scores, s)
		if s > bestScore {
			best, bestScore = a, s
		}
	}
	slices.Sort(scores)
	median := scores[len(scores)/2]
	if median <= 0 || best <= -maxSkew || best >= maxSkew {
		return 0, 1 // nothing at all, or the edge of the range: no peak
	}
	coarse := best
	for a := coarse - fineSkewSpan; a <= coarse+fineSkewSpan+1e-9; a += fineSkewStep {
		if s := profileScore(cells, w, a, bins); s > bestScore {
			best, bestScore = a, s
		}
	}
	return best, bestScore / median
}

// profileScore sums the cells' ink along lines tilted by degrees and scores
// the profile: the sum of squared differences between neighbouring bins,
// large when ink and gaps alternate sharply. bins is scratch space, at
// least w+h+2 long.
func profileScore(cells []inkCell, w int, degrees float64, bins []float32) float64 {
	rad := degrees * math.Pi / 180
	sin, cos := float32(math.Sin(rad)), float32(math.Cos(rad))
	// r = y·cos − x·sin runs from −w·sin to h·cos (+w when sin < 0); the
	// offset keeps it at 0 or more.
	off := float32(w)*max(sin, 0) + 0.5
	clear(bins)
	for _, c := range cells {
		r := int(c.y*cos - c.x*sin + off)
		if r >= 0 && r < len(bins) {
			bins[r] += c.w
		}
	}
	var score float64
	for i := 1; i < len(bins); i++ {
		d := float64(bins[i] - bins[i-1])
		score += d * d
	}
	return score
}

// deskew returns the page turned straight and the angle it was turned by
// (see the notes above), or the page itself and 0 when it is straight
// enough or has no lines to measure.
func deskew(g *image.Gray) (*image.Gray, float64) {
	angle, paper, ok := skewOf(g)
	if !ok || math.Abs(angle) < minSkew {
		return g, 0
	}
	return rotateGray(g, -angle, paper), -angle
}

// rotateGray turns a page by degrees about its centre (positive turns it
// clockwise on screen, y pointing down) onto a canvas grown to hold all of
// it, the corners filled with the paper's grey. Each pixel is interpolated
// between its four neighbours, which keeps the edges of letters smooth for
// tesseract.
func rotateGray(g *image.Gray, degrees float64, fill uint8) *image.Gray {
	b := g.Bounds()
	sw, sh := b.Dx(), b.Dy()
	rad := math.Mod(degrees, 360) * math.Pi / 180
	sin, cos := math.Sin(rad), math.Cos(rad)
	dw := int(math.Ceil(math.Abs(float64(sw)*cos) + math.Abs(float64(sh)*sin) - 1e-6))
	dh := int(math.Ceil(math.Abs(float64(sw)*sin) + math.Abs(float64(sh)*cos) - 1e-6))
	out := image.NewGray(image.Rect(0, 0, dw, dh))
	src := g.Pix[(b.Min.Y-g.Rect.Min.Y)*g.Stride+(b.Min.X-g.Rect.Min.X):]
	scx, scy := float64(sw)/2, float64(sh)/2
	dcx, dcy := float64(dw)/2, float64(dh)/2
	// Source points in fixed point, 16 bits of fraction: stepping along a
	// row of 4,000 pixels drifts by well under a tenth of a pixel.
	const one = 1 << 16
	stepX, stepY := int64(math.Round(cos*one)), int64(math.Round(-sin*one))
	for y := range dh {
		// The source point of the destination pixel's centre: the inverse
		// turn, then stepped along the row.
		dy := float64(y) + 0.5 - dcy
		dx := 0.5 - dcx
		sx := int64(math.Round((dx*cos + dy*sin + scx - 0.5) * one))
		sy := int64(math.Round((-dx*sin + dy*cos + scy - 0.5) * one))
		row := out.Pix[y*out.Stride : y*out.Stride+dw]
		for x := range row {
			row[x] = bilinear(src, g.Stride, sw, sh, sx, sy, fill)
			sx += stepX
			sy += stepY
		}
	}
	return out
}

// bilinear is the grey at (x, y), in 16.16 fixed point, between the four
// nearest pixels; fill outside the page. Most of a page is bare paper,
// whose four pixels are alike: those cost no arithmetic.
func bilinear(pix []uint8, stride, w, h int, x, y int64, fill uint8) uint8 {
	x0, y0 := int(x>>16), int(y>>16) // floor, also for negative x and y
	if x0 < 0 || y0 < 0 || x0+1 >= w || y0+1 >= h {
		return bilinearEdge(pix, stride, w, h, x, y, fill)
	}
	i := y0*stride + x0
	p00, p01 := int64(pix[i]), int64(pix[i+1])
	p10, p11 := int64(pix[i+stride]), int64(pix[i+stride+1])
	if p00 == p01 && p10 == p11 && p00 == p10 {
		return uint8(p00)
	}
	return mix(p00, p01, p10, p11, x&0xffff, y&0xffff)
}

// bilinearEdge is bilinear for a point on or past the page's edge, the
// pixels outside taken as fill.
func bilinearEdge(pix []uint8, stride, w, h int, x, y int64, fill uint8) uint8 {
	x0, y0 := int(x>>16), int(y>>16)
	if x0 < -1 || y0 < -1 || x0 >= w || y0 >= h {
		return fill
	}
	at := func(px, py int) int64 {
		if px < 0 || py < 0 || px >= w || py >= h {
			return int64(fill)
		}
		return int64(pix[py*stride+px])
	}
	return mix(at(x0, y0), at(x0+1, y0), at(x0, y0+1), at(x0+1, y0+1), x&0xffff, y&0xffff)
}

// mix weighs four neighbouring pixels by the fractions fx, fy (16 bits).
func mix(p00, p01, p10, p11, fx, fy int64) uint8 {
	top := p00<<16 + (p01-p00)*fx    // 16 bits of fraction
	bottom := p10<<16 + (p11-p10)*fx // 16 bits of fraction
	v := top<<16 + (bottom-top)*fy   // 32 bits of fraction
	return uint8((v + 1<<31) >> 32)
}
