#!/usr/bin/env bash
# Rebuilds the PDF fixtures in internal/extract/testdata/pdf from the
# sources beside this script, with real producers (see ../README.md). Tests
# never run it: the produced files are committed. Needs LibreOffice Writer,
# Chromium, groff, Go (for pdfcpu) and network access to the Go module proxy:
#   apt-get install -y --no-install-recommends libreoffice-writer chromium groff \
#     fonts-dejavu-core fonts-wqy-microhei
set -euo pipefail
src=$(cd "$(dirname "$0")" && pwd)
out=$(dirname "$src")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# pdfcpu v0.11.0 (Apache-2.0): fills forms and cuts pages.
(cd "$tmp" && go mod init fixtures >/dev/null 2>&1 && GOFLAGS=-mod=mod go get github.com/pdfcpu/pdfcpu@v0.11.0 >/dev/null 2>&1 &&
	GOFLAGS=-mod=mod go build -o "$tmp/pdfcpu" github.com/pdfcpu/pdfcpu/cmd/pdfcpu)
pdfcpu_dir=$(GOFLAGS=-mod=mod go mod download -json github.com/pdfcpu/pdfcpu@v0.11.0 | sed -n 's/.*"Dir": "\(.*\)",/\1/p')

# A worksheet with form fields made in LibreOffice Writer, filled in by
# pdfcpu as a pupil's PDF viewer would: name and two answers typed, one box
# ticked, the date left empty.
soffice --headless --convert-to pdf --outdir . "$src/worksheet.fodt" >/dev/null
./pdfcpu form fill worksheet.pdf "$src/worksheet-fill.json" "$out/worksheet-filled.pdf" >/dev/null

# pdfcpu's demo form (pkg/testdata/json/form/demoSinglePage/english.json),
# created filled in: tooltips, a radio group, lists, checkboxes.
(cd "$pdfcpu_dir/pkg/testdata/json/form/demoSinglePage" && "$tmp/pdfcpu" create english.json "$out/demo-form-pdfcpu.pdf" >/dev/null)

# Greek, Russian, Vietnamese and Arabic in DejaVu Sans, embedded by
# LibreOffice as a TrueType subset.
soffice --headless --convert-to pdf --outdir . "$src/scripts.fodt" >/dev/null
cp scripts.pdf "$out/scripts-truetype.pdf"

# A page of Chinese (written without spaces between words) in WenQuanYi
# Micro Hei (apt-get install fonts-wqy-microhei).
soffice --headless --convert-to pdf --outdir . "$src/chinese.fodt" >/dev/null
cp chinese.pdf "$out/chinese-libreoffice.pdf"

# A web page printed to PDF by Chromium: its translucent header is drawn in
# a Form XObject, its text set with ff/ffi/fl ligatures.
chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
	--print-to-pdf="$out/homework-chromium.pdf" "$src/homework.html" 2>/dev/null

# groff -ms typeset to PDF by gropdf: each line is placed on its own with
# no space or line break between the last word of a line and the first of
# the next; fi/fl ligatures.
groff -ms -Tpdf "$src/rivers.ms" >"$out/rivers-groff.pdf"

# Page 1 of pdfcpu's own test file read.go.pdf (pdfcpu's source printed by
# Chrome 80): code in Type 3 fonts the in-process reader cannot decode.
./pdfcpu trim -pages 1 "$pdfcpu_dir/pkg/testdata/read.go.pdf" "$out/readgo-type3.pdf" >/dev/null
