//go:build ignore

// makepage renders page.png, the check's stand-in for a handwritten page:
// a student's two answers in Go Italic, each letter nudged up or down and
// sideways a little, in dark blue-grey ink on off-white, as a line of
// handwriting is never straight. Run: go run makepage.go
package main

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"log"
	"math/rand/v2"
	"os"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

var lines = []string{
	"1. Plants make their food by photosynthesis.",
	"   Chlorophyll in the leaves absorbs light and",
	"   the light energy becomes chemical energy.",
	"2. In winter there is less light and it is",
	"   colder, so plants grow slowly.",
}

func main() {
	f, err := opentype.Parse(goitalic.TTF)
	if err != nil {
		log.Fatal(err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 30, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		log.Fatal(err)
	}
	img := image.NewGray(image.Rect(0, 0, 760, 300))
	draw.Draw(img, img.Bounds(), &image.Uniform{color.Gray{Y: 246}}, image.Point{}, draw.Src)
	r := rand.New(rand.NewPCG(22, 1))
	d := &font.Drawer{Dst: img, Src: &image.Uniform{color.Gray{Y: 40}}, Face: face}
	for i, line := range lines {
		x := 24 + r.IntN(6)
		y := 52 + i*52
		for _, ch := range line {
			d.Dot = fixed.P(x, y+r.IntN(5)-2)
			d.DrawString(string(ch))
			adv, _ := face.GlyphAdvance(ch)
			x += adv.Round() + r.IntN(3) - 1
		}
	}
	out, err := os.Create("page.png")
	if err != nil {
		log.Fatal(err)
	}
	defer out.Close()
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(out, img); err != nil {
		log.Fatal(err)
	}
}
