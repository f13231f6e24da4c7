#!/usr/bin/env bash
# Rebuilds the converted-format fixtures beside this script from lesson.fodt
# and lesson.fodp with LibreOffice, the producer pupils' files come from.
# Tests never run it: the produced files are committed. Needs
# libreoffice-writer, libreoffice-impress and python3-uno (for the
# password-protected copies):
#   apt-get install -y --no-install-recommends libreoffice-writer libreoffice-impress python3-uno
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
lo() { soffice --headless -env:UserInstallation="file://$tmp/profile" "$@" >/dev/null; }

lo --convert-to odt --outdir . "$here/lesson.fodt"
lo --convert-to rtf --outdir . "$here/lesson.fodt"
lo --convert-to 'doc:MS Word 97' --outdir . "$here/lesson.fodt"
lo --convert-to odp --outdir . "$here/lesson.fodp"
lo --convert-to 'ppt:MS PowerPoint 97' --outdir . "$here/lesson.fodp"
cp lesson.odt lesson.rtf lesson.doc lesson.odp lesson.ppt "$here/"

# A password-protected copy (password "secret"), saved through LibreOffice's
# UNO API: --convert-to cannot set a password. (LibreOffice 7.4 saves .ppt
# without encryption even when asked, so there is no protected .ppt.)
python3 "$here/protect.py" "$tmp/profile" "$here/lesson.fodt" "$here/protected.doc" "MS Word 97"
