package extract

import "image"

// Deskew is deskew, for BenchmarkDeskew in package extract_test, which
// times it against the OCR pool on the same page.
func Deskew(g *image.Gray) (*image.Gray, float64) { return deskew(g) }
