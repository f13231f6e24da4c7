package extract

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// Main-part content types of the Office packages Markwell reads.
const (
	docxMainType = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
	pptxMainType = "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"
)

// errZipBomb marks an archive past a limit; it becomes ReasonZipBomb.
var errZipBomb = errors.New("zip archive exceeds the unpacking limits")

// zipArchive is an Office package opened with limits: entry count checked
// before the directory is parsed, unpacked bytes counted while reading.
type zipArchive struct {
	zr     *zip.Reader
	byName map[string]*zip.File // lower-case part name → entry
	lim    Limits
	left   int64 // unpacked bytes this archive may still produce
}

// openZip opens data as a zip archive within lim.
func openZip(data []byte, lim Limits) (*zipArchive, error) {
	n, err := zipEntryCount(data)
	if err != nil {
		return nil, err
	}
	if n > uint64(lim.MaxZipEntries) {
		return nil, permanentf(ReasonZipBomb, "%w: %d entries (limit %d)", errZipBomb, n, lim.MaxZipEntries)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) { // names are only looked up, never written to disk
		return nil, fmt.Errorf("open zip: %w", err)
	}
	if len(zr.File) > lim.MaxZipEntries {
		return nil, permanentf(ReasonZipBomb, "%w: %d entries (limit %d)", errZipBomb, len(zr.File), lim.MaxZipEntries)
	}
	z := &zipArchive{zr: zr, byName: make(map[string]*zip.File, len(zr.File)), lim: lim, left: lim.MaxZipBytes}
	for _, f := range zr.File {
		name := strings.ToLower(strings.TrimPrefix(f.Name, "/"))
		if _, dup := z.byName[name]; !dup {
			z.byName[name] = f
		}
	}
	return z, nil
}

// zipEntryCount reads the entry count from the end-of-central-directory
// record (or its ZIP64 form) without parsing the directory.
func zipEntryCount(data []byte) (uint64, error) {
	const eocdLen = 22
	start := max(0, len(data)-(eocdLen+0xffff))
	i := bytes.LastIndex(data[start:], []byte("PK\x05\x06"))
	if i < 0 || start+i+eocdLen > len(data) {
		return 0, errors.New("open zip: no end of central directory")
	}
	eocd := data[start+i:]
	n := uint64(binary.LittleEndian.Uint16(eocd[10:]))
	if n != 0xffff {
		return n, nil
	}
	// ZIP64: a locator sits just before the record and points at the
	// ZIP64 end-of-central-directory record.
	loc := start + i - 20
	if loc < 0 || !bytes.HasPrefix(data[loc:], []byte("PK\x06\x07")) {
		return n, nil
	}
	off := binary.LittleEndian.Uint64(data[loc+8:])
	if off > uint64(len(data)-56) || !bytes.HasPrefix(data[off:], []byte("PK\x06\x06")) {
		return 0, errors.New("open zip: bad ZIP64 end of central directory")
	}
	return binary.LittleEndian.Uint64(data[off+32:]), nil
}

// file returns the entry of a part name (case-insensitive, as OPC says), or nil.
func (z *zipArchive) file(name string) *zip.File {
	return z.byName[strings.ToLower(strings.TrimPrefix(name, "/"))]
}

// open returns a reader of one entry that fails with errZipBomb once the
// entry unpacks past its declared size, the archive's byte budget, or the
// ratio limit. The sizes are counted on the bytes really unpacked, not taken
// from the headers.
func (z *zipArchive) open(f *zip.File) (io.Reader, error) {
	declared := f.UncompressedSize64
	if declared > uint64(z.left) {
		return nil, permanentf(ReasonZipBomb, "%w: %s declares %d bytes, %d left", errZipBomb, f.Name, declared, z.left)
	}
	if declared > 1<<20 && declared/max(f.CompressedSize64, 1) > uint64(z.lim.MaxZipRatio) {
		return nil, permanentf(ReasonZipBomb, "%w: %s packs %d bytes into %d", errZipBomb, f.Name, declared, f.CompressedSize64)
	}
	raw, err := f.OpenRaw()
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", f.Name, err)
	}
	var rd io.Reader
	switch f.Method {
	case zip.Store:
		rd = raw
	case zip.Deflate:
		rd = flate.NewReader(raw)
	default:
		return nil, fmt.Errorf("open %s: compression method %d", f.Name, f.Method)
	}
	limit := min(int64(declared), z.left)
	return &budgetReader{z: z, name: f.Name, r: io.LimitReader(rd, limit+1), limit: limit, packed: f.CompressedSize64}, nil
}

// budgetReader counts unpacked bytes against an entry's limit and the
// archive's budget.
type budgetReader struct {
	z      *zipArchive
	name   string
	r      io.Reader
	n      int64
	limit  int64
	packed uint64
}

func (b *budgetReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.n += int64(n)
	b.z.left -= int64(n)
	switch {
	case b.n > b.limit:
		return 0, permanentf(ReasonZipBomb, "%w: %s unpacks past %d bytes", errZipBomb, b.name, b.limit)
	case b.n > 1<<20 && uint64(b.n)/max(b.packed, 1) > uint64(b.z.lim.MaxZipRatio):
		return 0, permanentf(ReasonZipBomb, "%w: %s unpacks %d bytes from %d", errZipBomb, b.name, b.n, b.packed)
	}
	return n, err
}

// decoder returns an XML decoder over a part, or nil when the part is absent.
func (z *zipArchive) decoder(name string) (*xml.Decoder, error) {
	f := z.file(name)
	if f == nil {
		return nil, nil
	}
	r, err := z.open(f)
	if err != nil {
		return nil, err
	}
	d := xml.NewDecoder(r)
	return d, nil
}

// relationship is one entry of a part's .rels file.
type relationship struct {
	ID     string `xml:"Id,attr"`
	Type   string `xml:"Type,attr"`
	Target string `xml:"Target,attr"`
	Mode   string `xml:"TargetMode,attr"`
}

// rels reads the relationships of a part, with targets resolved to part
// names. A missing .rels file is no relationships.
func (z *zipArchive) rels(part string) (map[string]relationship, error) {
	dir, base := path.Split(part)
	d, err := z.decoder(dir + "_rels/" + base + ".rels")
	if err != nil || d == nil {
		return nil, err
	}
	var doc struct {
		Rels []relationship `xml:"Relationship"`
	}
	if err := d.Decode(&doc); err != nil {
		return nil, fmt.Errorf("relationships of %s: %w", part, err)
	}
	out := make(map[string]relationship, len(doc.Rels))
	for _, r := range doc.Rels {
		if strings.EqualFold(r.Mode, "External") {
			continue
		}
		if strings.HasPrefix(r.Target, "/") {
			r.Target = strings.TrimPrefix(r.Target, "/")
		} else {
			r.Target = path.Join(dir, r.Target)
		}
		out[r.ID] = r
	}
	return out, nil
}

// relTarget returns the target of the first relationship whose type ends in
// suffix ("/officeDocument", "/numbering"), or "".
func relTarget(rels map[string]relationship, suffix string) string {
	best := ""
	for _, r := range rels {
		if strings.HasSuffix(r.Type, suffix) && (best == "" || r.Target < best) {
			best = r.Target
		}
	}
	return best
}

// mainPart returns the content type of the package's main part, found
// through _rels/.rels and [Content_Types].xml, or "".
func (z *zipArchive) mainPart() string {
	target, err := z.mainPartName()
	if err != nil || target == "" {
		return ""
	}
	d, err := z.decoder("[Content_Types].xml")
	if err != nil || d == nil {
		return ""
	}
	var ct struct {
		Overrides []struct {
			PartName    string `xml:"PartName,attr"`
			ContentType string `xml:"ContentType,attr"`
		} `xml:"Override"`
	}
	if d.Decode(&ct) != nil {
		return ""
	}
	for _, o := range ct.Overrides {
		if strings.EqualFold(strings.TrimPrefix(o.PartName, "/"), target) {
			t, _, _ := strings.Cut(o.ContentType, ";")
			return strings.TrimSpace(t)
		}
	}
	return ""
}

// mainPartName is the target of the package's officeDocument relationship.
func (z *zipArchive) mainPartName() (string, error) {
	rels, err := z.rels("")
	if err != nil {
		return "", err
	}
	return relTarget(rels, "/officeDocument"), nil
}

// zipError turns an error met while reading a package into the permanent
// error a teacher sees: limits keep their reason, anything else is damage.
func zipError(damaged string, err error) error {
	if err == nil || IsPermanent(err) {
		return err
	}
	return permanent(damaged, err)
}
