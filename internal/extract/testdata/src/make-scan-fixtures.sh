#!/usr/bin/env bash
# Rebuilds the fixtures of scanned pages that carry a line of real text
# (pdfpicture_test.go, the jobs tests) from printed.png and stamp.fodt, with
# real producers: ImageMagick, img2pdf, LibreOffice, qpdf and tesseract.
# Tests never run it.
set -euo pipefail
src=$(cd "$(dirname "$0")" && pwd)
out=$(dirname "$src")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# printed.png on a white A4 page at 300 dpi, as a flatbed scanner saves it.
convert "$out/printed.png" -background white -gravity northwest -splice 188x300 -extent 2480x3508 \
	-units PixelsPerInch -density 300 page.png
img2pdf --pagesize A4 -o scan.pdf page.png

# A phone scanner app's stamp: "Scanned with CamScanner", 8 pt grey, at the
# foot of the page, drawn over the scan as real text.
soffice --headless --convert-to pdf --outdir . "$src/stamp.fodt" >/dev/null
qpdf scan.pdf --overlay stamp.pdf -- "$out/stamped-scan.pdf"

# A searchable scan: the same page with tesseract's invisible text layer.
tesseract page.png searchable -l eng pdf 2>/dev/null
cp searchable.pdf "$out/searchable-scan.pdf"
