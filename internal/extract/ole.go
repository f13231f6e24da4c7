package extract

import (
	"bytes"
	"encoding/binary"
	"io"
	"strings"
)

// OpenDocument packages Markwell converts, by their mimetype entry.
var odfKinds = map[string]Kind{
	"application/vnd.oasis.opendocument.text":         KindODT,
	"application/vnd.oasis.opendocument.presentation": KindODP,
}

// sniffODF reads an OpenDocument package's mimetype entry: the kind, "" for
// a zip without one, or a permanent error for another OpenDocument kind (a
// spreadsheet, a drawing).
func sniffODF(z *zipArchive) (Kind, error) {
	f := z.file("mimetype")
	if f == nil {
		return "", nil
	}
	rd, err := z.open(f)
	if err != nil {
		return "", permanentf(ReasonUnsupported, "%w: OpenDocument mimetype: %v", ErrUnsupported, err)
	}
	b, err := io.ReadAll(io.LimitReader(rd, 128))
	if err != nil {
		return "", permanentf(ReasonUnsupported, "%w: OpenDocument mimetype: %v", ErrUnsupported, err)
	}
	mt := strings.TrimSpace(string(b))
	if kind, ok := odfKinds[mt]; ok {
		return kind, nil
	}
	if strings.HasPrefix(mt, "application/vnd.oasis.opendocument.") {
		return "", permanentf(ReasonUnsupported, "%w: OpenDocument %s", ErrUnsupported, mt)
	}
	return "", nil
}

// sniffOLE tells a Word 97–2003 file from a PowerPoint 97–2003 one by the
// streams an OLE2 compound file's directory names ("WordDocument",
// "PowerPoint Document"), and refuses the password-protected ones: a
// .docx or .pptx Office wrapped in an encrypted container, a .doc whose
// header says it is encrypted, a .ppt with an encrypted summary. Anything
// else in the container (a spreadsheet, an e-mail) is not read.
func sniffOLE(data []byte) (Kind, error) {
	if bytes.Contains(data, utf16le("EncryptedPackage")) {
		return "", permanentf(ReasonOfficePassword, "%w: encrypted OOXML package", ErrUnsupported)
	}
	if word, ok := oleStream(data, "WordDocument"); ok {
		if wordEncrypted(data, word) {
			return "", permanentf(ReasonOfficePassword, "%w: encrypted Word 97–2003 document", ErrUnsupported)
		}
		return KindDOC, nil
	}
	if _, ok := oleStream(data, "PowerPoint Document"); ok {
		if _, enc := oleStream(data, "EncryptedSummary"); enc {
			return "", permanentf(ReasonOfficePassword, "%w: encrypted PowerPoint 97–2003 presentation", ErrUnsupported)
		}
		return KindPPT, nil
	}
	return "", permanentf(ReasonUnsupported, "%w: OLE2 compound file that is neither Word nor PowerPoint", ErrUnsupported)
}

// oleEntry is where a stream starts and how long it is.
type oleEntry struct {
	start uint32 // first sector
	size  uint64
}

// oleStream finds the directory entry of a stream by its name. Directory
// entries are 128 bytes, in sectors of 512 or 4096 bytes after the
// 512-byte header, so each starts at a multiple of 128: the name (UTF-16LE,
// NUL-terminated, 64 bytes), its length in bytes with the NUL, the type (2
// is a stream), and, at 116, the first sector and the size.
func oleStream(data []byte, name string) (oleEntry, bool) {
	want := append(utf16le(name), 0, 0)
	for off := 512; off+128 <= len(data); off += 128 {
		e := data[off : off+128]
		if !bytes.HasPrefix(e, want) || int(binary.LittleEndian.Uint16(e[64:])) != len(want) || e[66] != 2 {
			continue
		}
		return oleEntry{start: binary.LittleEndian.Uint32(e[116:]), size: binary.LittleEndian.Uint64(e[120:])}, true
	}
	return oleEntry{}, false
}

// wordEncrypted reads the fEncrypted flag of a Word file's FIB, the header
// at the start of its WordDocument stream. A stream under the mini-stream
// cutoff (never the case in files Word writes) is not looked into.
func wordEncrypted(data []byte, word oleEntry) bool {
	if len(data) < 512 {
		return false
	}
	shift := uint(binary.LittleEndian.Uint16(data[30:]))
	cutoff := uint64(binary.LittleEndian.Uint32(data[56:]))
	if shift < 7 || shift > 16 || word.size < cutoff || word.start >= 0xfffffffa {
		return false
	}
	off := (uint64(word.start) + 1) << shift
	if off+12 > uint64(len(data)) || binary.LittleEndian.Uint16(data[off:]) != 0xa5ec {
		return false
	}
	const fEncrypted = 0x0100
	return binary.LittleEndian.Uint16(data[off+10:])&fEncrypted != 0
}
