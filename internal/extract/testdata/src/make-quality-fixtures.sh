#!/usr/bin/env bash
# Rebuilds the fixtures of the quality signal (quality_test.go) from the
# sources beside this script and from printed.png, with real producers:
# LibreOffice, poppler-utils, qpdf, ImageMagick, libtiff-tools
# (tiff2pdf) and iconv. Tests never run it.
set -euo pipefail
src=$(cd "$(dirname "$0")" && pwd)
out=$(dirname "$src")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

for f in report-short answer note essay; do soffice --headless --convert-to pdf --outdir . "$src/$f.fodt" >/dev/null; done

# A title page, a page of text, a page with only "Figure 1", a page of text.
cp report-short.pdf "$out/short-page.pdf"
# A one-page answer of two words typed in a word processor.
cp answer.pdf "$out/short-answer.pdf"

# A photo of a note of two words.
pdftoppm -r 150 -gray -singlefile note.pdf note
convert note.pgm -trim +repage -bordercolor white -border 40 -depth 8 "$out/two-words.png"

# A poor scan: printed.png at half size, blurred, with noise, saved as a
# low-quality JPEG (a fixed seed makes the noise the same every time).
convert "$out/printed.png" -seed 7 -resize 50% -blur 0x2.4 -attenuate 0.5 +noise Gaussian -quality 50 "$out/blurred.jpg"
# A PDF whose page 1 has a text layer and page 2 is that poor scan.
convert "$out/blurred.jpg" -density 100 -units PixelsPerInch -compress Zip blurred-page.tif
tiff2pdf -o blurred-page.pdf blurred-page.tif
qpdf --empty --pages essay.pdf 1 blurred-page.pdf 1 -- "$out/blurred-page.pdf"

# Greek UTF-8 text read as Latin-1 and saved again as UTF-8 (double
# encoding): the mojibake a wrong encoding makes.
iconv -f latin1 -t utf-8 "$src/greek.txt" > "$out/greek-double-encoded.txt"
