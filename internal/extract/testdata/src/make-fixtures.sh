#!/usr/bin/env bash
# Rebuilds the fixtures in internal/extract/testdata from the sources beside
# this script, with real producers. Tests never run it: the produced files are
# committed. Needs LibreOffice (writer, impress), poppler-utils, qpdf,
# ImageMagick, libtiff-tools (tiff2pdf) and exiftool:
#   apt-get install -y --no-install-recommends libreoffice-writer libreoffice-impress \
#     poppler-utils qpdf imagemagick libtiff-tools libimage-exiftool-perl
set -euo pipefail
src=$(cd "$(dirname "$0")" && pwd)
out=$(dirname "$src")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

for f in essay scan printed blank; do soffice --headless --convert-to pdf --outdir . "$src/$f.fodt" >/dev/null; done
soffice --headless --convert-to docx --outdir . "$src/report.fodt" >/dev/null
soffice --headless --convert-to pptx --outdir . "$src/slides.fodp" >/dev/null

# A 3-page PDF with a text layer, its encrypted and cut-off variants.
cp essay.pdf "$out/text-3pages.pdf"
qpdf --encrypt secret owner 256 -- essay.pdf "$out/encrypted-aes256.pdf"
qpdf --allow-weak-crypto --encrypt secret owner 128 --use-aes=n -- essay.pdf "$out/encrypted-rc4.pdf"
qpdf --encrypt "" owner 256 --print=none --modify=none -- essay.pdf "$out/restricted.pdf"
head -c 11000 essay.pdf > "$out/truncated.pdf"

# A scanned page: printed, rasterised at 300 dpi black and white, wrapped in a
# PDF as a CCITT G4 image the way scanners do. No text layer.
pdftoppm -r 300 -mono -singlefile scan.pdf scanpage
convert scanpage.pbm -compress Group4 scanpage.tif
tiff2pdf -o "$out/scanned.pdf" -x 300 -y 300 scanpage.tif
# Text page, scanned page, blank page.
qpdf --empty --pages essay.pdf 1 "$out/scanned.pdf" 1 blank.pdf 1 -- "$out/mixed.pdf"

# A PNG of printed text at 300 dpi.
pdftoppm -r 300 -gray -singlefile printed.pdf printedpage
convert printedpage.pgm -trim +repage -bordercolor white -border 60 -depth 8 -colors 16 "$out/printed.png"

# A phone-style JPEG: pixels stored turned a quarter to the left, with EXIF
# orientation 6 ("rotate 90° clockwise to display").
pdftoppm -r 250 -gray -singlefile scan.pdf scangray
convert scangray.pgm -trim +repage -bordercolor white -border 50 -rotate -90 -quality 60 "$out/photo-rotated.jpg"
exiftool -q -overwrite_original -n -Orientation=6 "$out/photo-rotated.jpg"

cp report.docx "$out/report.docx"
cp slides.pptx "$out/slides.pptx"

# Footnotes, endnotes, a text box, a header and a page-number-only footer.
soffice --headless --convert-to docx --outdir . "$src/history.fodt" >/dev/null
cp history.docx "$out/history.docx"
# A chart with a title and axis titles.
soffice --headless --convert-to pptx --outdir . "$src/chart.fodp" >/dev/null
cp chart.pptx "$out/chart.pptx"
