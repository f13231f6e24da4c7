#!/usr/bin/env bash
# Rebuilds the fixtures in internal/extract/testdata from the sources beside
# this script, with real producers. Tests never run it: the produced files are
# committed. Needs LibreOffice (writer, impress), poppler-utils, qpdf,
# ImageMagick, libtiff-tools (tiff2pdf, tiffcp), exiftool, libheif-examples
# (heif-enc), webp (cwebp) and python3:
#   apt-get install -y --no-install-recommends libreoffice-writer libreoffice-impress \
#     poppler-utils qpdf imagemagick libtiff-tools libimage-exiftool-perl libheif-examples webp python3
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

# Images in the formats phones and scanners write, each a paragraph of
# printed text rendered by ImageMagick (convert-im6.q16: Debian's own, not a
# wrapper), 8-bit, no alpha. Needs libheif-examples (heif-enc), webp (cwebp),
# libtiff-tools (tiffcp) and python3.
IM=/usr/bin/convert-im6.q16
words() { # words <out.png> <text>
  $IM -size 1400x -background white -fill black -font DejaVu-Sans -pointsize 40 caption:"$2" \
    -bordercolor white -border 60 -alpha off -depth 8 -type TrueColor "PNG24:$1"
}
words heic.png "Volcanoes form where melted rock from deep inside the Earth rises to the surface. When the pressure grows too high, lava, ash and gas burst out through the crater."
heif-enc -q 60 -o "$out/photo.heic" heic.png
# A phone held sideways: pixels stored a quarter turn to the left, the EXIF
# orientation 6 copied from the JPEG, and the HEIF 'irot' property (3 quarter
# turns anticlockwise) that tells readers to show it upright, which heif-enc
# 1.15 cannot write: heif-irot.py adds it.
$IM heic.png -rotate -90 -quality 90 sideways.jpg
exiftool -q -overwrite_original -n -Orientation=6 sideways.jpg
heif-enc -q 60 -o sideways.heic sideways.jpg
python3 "$src/heif-irot.py" sideways.heic "$out/photo-irot.heic" 3

# A 3-page scan: each page its own words, bilevel CCITT G4 (what school
# scanners write for text), LZW grey and Deflate grey, joined by tiffcp.
words p1.png "Page one is about rivers. Rain collects in streams that join to form a river flowing to the sea."
words p2.png "Page two is about mountains. Moving plates push rock upwards over millions of years."
words p3.png "Page three is about deserts. Very little rain falls there and few plants can grow."
$IM p1.png -colorspace Gray -threshold 50% -type Bilevel -compress Group4 p1.tif
$IM p2.png -colorspace Gray -depth 8 -type Grayscale -compress LZW p2.tif
$IM p3.png -colorspace Gray -depth 8 -type Grayscale -compress Zip p3.tif
tiffcp p1.tif p2.tif p3.tif "$out/scan-3pages.tif"
# The same pages in big-endian byte order ("MM"), as Mac software writes.
tiffcp -B p1.tif p2.tif p3.tif "$out/scan-3pages-be.tif"

words webp.png "Bees carry pollen from flower to flower, which helps plants make seeds and fruit."
cwebp -quiet -q 75 webp.png -o "$out/printed.webp"

# An animated GIF: its first frame holds the words, the second is blank.
words gif.png "Magnets pull on iron and steel but not on wood, glass or plastic."
$IM -delay 100 gif.png \( gif.png -fill white -colorize 100 \) -colors 16 -loop 0 "$out/printed.gif"
