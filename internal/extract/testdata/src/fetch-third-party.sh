#!/usr/bin/env bash
# Fetches the third-party Word and PowerPoint fixtures in
# internal/extract/testdata at pinned versions and checks their SHA-256.
# Needs npm and git (network). Tests never run it: the files are committed.
set -euo pipefail
out=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# mammoth 1.8.0 (BSD-2-Clause), from npm.
npm pack --silent mammoth@1.8.0 >/dev/null
tar xzf mammoth-1.8.0.tgz
for f in footnotes endnotes text-box; do cp "package/test/test-data/$f.docx" "$out/$f.docx"; done

# Apache POI (Apache-2.0), test-data at a pinned commit.
poi=a528d43590b3f71aa94310de881a35af887fdd0f
git init -q poi && git -C poi fetch -q --depth 1 https://github.com/apache/poi.git "$poi"
get() { git -C poi show "$poi:test-data/$1" > "$out/$2"; }
get document/DiffFirstPageHeadFoot.docx headers-first-page.docx
get document/PageSpecificHeadFoot.docx headers-odd-even.docx
get slideshow/smartart-rotated-text.pptx smartart.pptx
get slideshow/smartart-simple.pptx smartart-with-text.pptx
get slideshow/bar-chart.pptx chart-auto-title.pptx

cd "$out" && sha256sum -c <<'SUMS'
a3d786ba3ad53833dd3d5e01bd55e93b628c1287d8f9210eb94cb7533f270306  footnotes.docx
8b0275a08427605e57e0ca7596bc89fb4c00e4b9a5cdae2b1941c619c2496014  endnotes.docx
a94f4c516bec29b7c2e2e219ad1799700f0eecd0ebf25ef7f8fc59c14db8fdc9  text-box.docx
e94332c7b86b1bbce960f93fec90078486ab8abc3913a024a24be391a0b42151  headers-first-page.docx
90bb8251b18c9f94e0b8fb91192413922a09dbe418a4a210116221054378eaad  headers-odd-even.docx
a357985aec81b0bfa8a71138bbe94c9b3f6e00dee110c0da34302e22253de260  smartart.pptx
238ff6433dac00b2722edb9a29d97f56ab4f3c9c37f33a73d6f53baf494916aa  smartart-with-text.pptx
79e1d218bfb2903e8dc8425a6b1997d9c1976f5a5f025bada85b0c47b5777969  chart-auto-title.pptx
SUMS
