package extract

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSniff(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		data     string
		filename string
		want     Kind
		reason   string
	}{
		{"PNG", "\x89PNG\r\n\x1a\n....", "a.pdf", KindPNG, ""},
		{"JPEG", "\xff\xd8\xff\xe0....", "a.docx", KindJPEG, ""},
		{"PDF", "%PDF-1.7\n...", "a.png", KindPDF, ""},
		{"PDF after junk", "garbage from an email gateway\n%PDF-1.4\n", "", KindPDF, ""},
		{"text", "An essay.", "a.bin", KindText, ""},
		{"empty", "", "a.txt", "", ReasonEmpty},
		{"HEIC", "\x00\x00\x00\x18ftypheic\x00\x00\x00\x00", "IMG.HEIC", KindHEIC, ""},
		{"GIF", "GIF89a....", "a.png", KindGIF, ""},
		{"old GIF", "GIF87a....", "a.gif", KindGIF, ""},
		{"WebP", "RIFF\x10\x00\x00\x00WEBPVP8 ", "a.jpg", KindWebP, ""},
		{"WAV is not WebP", "RIFF\x10\x00\x00\x00WAVEfmt ", "a.webp", "", ReasonUnsupported},
		{"TIFF, Intel order", "II*\x00\x08\x00\x00\x00", "scan.pdf", KindTIFF, ""},
		{"TIFF, Motorola order", "MM\x00*\x00\x00\x00\x08", "scan", KindTIFF, ""},
		{"BigTIFF", "II+\x00\x08\x00\x00\x00", "scan.tif", "", ReasonUnsupported},
		{"password-protected docx", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + "E\x00n\x00c\x00r\x00y\x00p\x00t\x00e\x00d\x00P\x00a\x00c\x00k\x00a\x00g\x00e\x00", "a.docx", "", ReasonOfficePassword},
		{"OLE2 file that is neither Word nor PowerPoint", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00", "a.ppt", "", ReasonUnsupported},
		{"RTF", "{\\rtf1\\ansi hello}", "a.txt", KindRTF, ""},
		{"binary", "\x00\x01\x02\x03", "a.txt", "", ReasonUnsupported},
		{"Latin-1 not said to be text", "caf\xe9 au lait", "a.bin", "", ReasonUnsupported},
		{"Latin-1 named .txt", "caf\xe9 au lait", "a.txt", KindText, ""},
		{"zip that is not Office", "PK\x05\x06" + string(make([]byte, 18)), "a.docx", "", ReasonUnsupported},
		{"damaged zip named .docx", "PK\x03\x04 broken", "a.docx", "", ReasonDOCXDamaged},
	} {
		kind, err := Sniff([]byte(tc.data), tc.filename, "")
		if tc.reason == "" {
			require.NoError(t, err, tc.name)
			require.Equal(t, tc.want, kind, tc.name)
			continue
		}
		reason, ok := Reason(err)
		require.True(t, ok, "%s: %v", tc.name, err)
		require.Equal(t, tc.reason, reason, tc.name)
	}
}
