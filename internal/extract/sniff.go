package extract

import (
	"bytes"
	"mime"
	"path"
	"strings"
	"unicode/utf8"
)

// Sniff names the format of a file from its bytes. The name and content
// type are hints only: they help decide between text encodings and are
// otherwise ignored, so a ".pdf" holding a PNG is a PNG. A format Markwell
// does not read fails with a *PermanentError.
func Sniff(data []byte, name, contentType string) (Kind, error) {
	return sniff(data, name, contentType, DefaultLimits())
}

func sniff(data []byte, name, contentType string, lim Limits) (Kind, error) {
	if len(data) == 0 {
		return "", permanent(ReasonEmpty, nil)
	}
	head := data[:min(len(data), 1024)]
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return KindPNG, nil
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return KindJPEG, nil
	case bytes.HasPrefix(data, []byte("GIF87a")) || bytes.HasPrefix(data, []byte("GIF89a")):
		return KindGIF, nil
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return KindWebP, nil
	case bytes.HasPrefix(data, []byte("II*\x00")) || bytes.HasPrefix(data, []byte("MM\x00*")):
		return KindTIFF, nil
	case isHEIF(data):
		return KindHEIC, nil
	case bytes.Contains(head, []byte("%PDF-")):
		// Readers accept the header anywhere in the first 1024 bytes.
		return KindPDF, nil
	case bytes.HasPrefix(data, []byte("PK\x03\x04")) || bytes.HasPrefix(data, []byte("PK\x05\x06")):
		return sniffZip(data, name, contentType, lim)
	case bytes.HasPrefix(data, []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")):
		// OLE2: Word 97–2003 and PowerPoint 97–2003, and the container
		// Office wraps a password-protected .docx or .pptx in.
		return sniffOLE(data)
	case bytes.HasPrefix(data, []byte("{\\rtf")):
		return KindRTF, nil
	}
	for _, magic := range knownBinary {
		if bytes.HasPrefix(data, []byte(magic)) {
			return "", permanentf(ReasonUnsupported, "%w: starts with %q", ErrUnsupported, magic)
		}
	}
	if looksLikeText(data, hintsText(name, contentType)) {
		return KindText, nil
	}
	return "", permanentf(ReasonUnsupported, "%w: unrecognised bytes %q", ErrUnsupported, data[:min(len(data), 8)])
}

// knownBinary are formats Markwell does not read whose first bytes could
// pass for text.
var knownBinary = []string{
	"ID3",           // MP3
	"OggS",          // Ogg audio and video
	"RIFF",          // WAV, AVI (a WebP is named above)
	"Rar!",          // RAR
	"7z\xbc\xaf",    // 7-Zip
	"\x1f\x8b",      // gzip
	"\x7fELF",       // executables
	"\x1aE\xdf\xa3", // Matroska, WebM
	"fLaC",
}

func isHEIF(data []byte) bool {
	if len(data) < 12 || string(data[4:8]) != "ftyp" {
		return false
	}
	switch string(data[8:12]) {
	case "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1":
		return true
	}
	return false
}

// sniffZip tells Word from PowerPoint by the main part the package holds.
func sniffZip(data []byte, name, contentType string, lim Limits) (Kind, error) {
	z, err := openZip(data, lim)
	if err != nil {
		if IsPermanent(err) {
			return "", err
		}
		switch hintedKind(name, contentType) {
		case KindDOCX:
			return "", permanent(ReasonDOCXDamaged, err)
		case KindPPTX:
			return "", permanent(ReasonPPTXDamaged, err)
		}
		return "", permanentf(ReasonUnsupported, "%w: unreadable zip: %v", ErrUnsupported, err)
	}
	if kind, err := sniffODF(z); kind != "" || err != nil {
		return kind, err
	}
	if z.file("[Content_Types].xml") == nil {
		return "", permanentf(ReasonUnsupported, "%w: zip archive without [Content_Types].xml", ErrUnsupported)
	}
	switch {
	case z.file("word/document.xml") != nil || z.mainPart() == docxMainType:
		return KindDOCX, nil
	case z.file("ppt/presentation.xml") != nil || z.mainPart() == pptxMainType:
		return KindPPTX, nil
	}
	return "", permanentf(ReasonUnsupported, "%w: Office package that is neither Word nor PowerPoint", ErrUnsupported)
}

// hintedKind is the kind the client's name or content type claims.
func hintedKind(name, contentType string) Kind {
	mt, _, _ := mime.ParseMediaType(contentType)
	switch mt {
	case "application/pdf":
		return KindPDF
	case "application/vnd.openxmlformats-officedocument.wordprocessingml.document":
		return KindDOCX
	case "application/vnd.openxmlformats-officedocument.presentationml.presentation":
		return KindPPTX
	case "image/png":
		return KindPNG
	case "image/jpeg":
		return KindJPEG
	case "image/gif":
		return KindGIF
	case "image/webp":
		return KindWebP
	case "image/tiff":
		return KindTIFF
	case "image/heic", "image/heif", "image/heic-sequence", "image/heif-sequence":
		return KindHEIC
	}
	if strings.HasPrefix(mt, "text/") {
		return KindText
	}
	switch strings.ToLower(path.Ext(name)) {
	case ".pdf":
		return KindPDF
	case ".docx":
		return KindDOCX
	case ".pptx":
		return KindPPTX
	case ".png":
		return KindPNG
	case ".jpg", ".jpeg":
		return KindJPEG
	case ".gif":
		return KindGIF
	case ".webp":
		return KindWebP
	case ".tif", ".tiff":
		return KindTIFF
	case ".heic", ".heif", ".hif":
		return KindHEIC
	case ".txt", ".text", ".csv", ".md", ".markdown":
		return KindText
	}
	return ""
}

func hintsText(name, contentType string) bool { return hintedKind(name, contentType) == KindText }

// looksLikeText accepts UTF-8 (with or without a BOM), UTF-16 with a BOM,
// and, when the client said the file is text, single-byte Windows text.
// NUL bytes or many control characters mean binary.
func looksLikeText(data []byte, hinted bool) bool {
	if bytes.HasPrefix(data, []byte("\xff\xfe")) || bytes.HasPrefix(data, []byte("\xfe\xff")) {
		return len(data)%2 == 0
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return false
	}
	controls := 0
	for _, c := range data {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v' && c != 0x1b {
			controls++
		}
	}
	if controls*100 > len(data) {
		return false
	}
	return utf8.Valid(trimPartialRune(data)) || hinted
}

// trimPartialRune drops a UTF-8 sequence cut off at the end of data.
func trimPartialRune(data []byte) []byte {
	for i := 1; i <= 3 && i <= len(data); i++ {
		c := data[len(data)-i]
		if c < 0x80 {
			return data
		}
		if c >= 0xc0 { // a start byte
			if !utf8.FullRune(data[len(data)-i:]) {
				return data[:len(data)-i]
			}
			return data
		}
	}
	return data
}

func utf16le(s string) []byte {
	b := make([]byte, 0, 2*len(s))
	for i := 0; i < len(s); i++ {
		b = append(b, s[i], 0)
	}
	return b
}
