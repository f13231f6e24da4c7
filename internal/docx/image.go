package docx

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	_ "image/gif"  // register the GIF decoder for image.DecodeConfig
	_ "image/jpeg" // register the JPEG decoder for image.DecodeConfig
	_ "image/png"  // register the PNG decoder for image.DecodeConfig
	"net/url"
	"strings"

	"github.com/gomutex/godocx/common/constants"
	"github.com/gomutex/godocx/common/units"
	"github.com/gomutex/godocx/dml"
	"github.com/gomutex/godocx/dml/dmlct"
	"github.com/gomutex/godocx/dml/dmlpic"
	gdocx "github.com/gomutex/godocx/docx"
	"github.com/gomutex/godocx/wml/ctypes"
	"github.com/yuin/goldmark/ast"
)

// maxWidthInch is the widest an image is drawn (the text width of an A4/Letter page with default margins).
const maxWidthInch = 6.0

// extByType maps the image types Word renders to their part extension.
var extByType = map[string]string{"image/png": "png", "image/jpeg": "jpeg", "image/gif": "gif"}

// media is the images of one export: each distinct image is stored once (one part in word/media, one
// relationship) however many times the document shows it.
type media struct {
	bySrc  map[string]*picture // by the address the document names
	byHash map[[32]byte]*picture
	// images embedded, bytes read (each address once), and the places images are shown
	n, bytes, uses int
}

// picture is one embedded image.
type picture struct {
	rID  string
	w, h int // pixels
}

// image resolves n's source and embeds it inline in p. An address already seen is not read again, and an image
// already embedded (same bytes) is shown again from the same part.
func (b *builder) image(p *gdocx.Paragraph, n *ast.Image) error {
	src := string(n.Destination)
	if b.media.uses++; b.media.uses > b.lim.ImageUses {
		return b.lim.tooManyImageUses()
	}
	pic, err := b.picture(src)
	if err != nil {
		return err
	}
	b.draw(p, pic, b.plain(n))
	return nil
}

// picture returns the embedded image of src, reading and embedding it the first time.
func (b *builder) picture(src string) (*picture, error) {
	m := &b.media
	if pic, ok := m.bySrc[src]; ok {
		return pic, nil
	}
	fail := func(err error) error { return &ImageError{Src: src, Err: err} }
	if len(m.bySrc) >= b.lim.Images {
		return nil, fail(fmt.Errorf("more than %d images", b.lim.Images))
	}
	data, ctype, err := b.fetch(src)
	if err != nil {
		return nil, fail(err)
	}
	if err := b.ctx.Err(); err != nil { // the source may have ignored ctx
		return nil, err
	}
	if len(data) > b.lim.ImageBytes {
		return nil, fail(fmt.Errorf("image is larger than %d bytes", b.lim.ImageBytes))
	}
	if m.bytes += len(data); m.bytes > b.lim.TotalImageBytes {
		return nil, b.lim.tooManyImageBytes()
	}
	if m.bySrc == nil {
		m.bySrc, m.byHash = map[string]*picture{}, map[[32]byte]*picture{}
	}
	hash := sha256.Sum256(data)
	if pic, ok := m.byHash[hash]; ok {
		m.bySrc[src] = pic
		return pic, nil
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fail(fmt.Errorf("not a PNG, JPEG or GIF image (%s): %w", ctype, err))
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, fail(errors.New("image has no size"))
	}
	m.n++
	pic := &picture{w: cfg.Width, h: cfg.Height}
	pic.rID, err = b.embed(data, extByType["image/"+format], "image/"+format, m.n)
	if err != nil {
		return nil, err
	}
	m.bySrc[src], m.byHash[hash] = pic, pic
	return pic, nil
}

// fetch returns the bytes of src: data: URLs are decoded here, anything else is asked of the ImageSource.
func (b *builder) fetch(src string) ([]byte, string, error) {
	if strings.HasPrefix(strings.ToLower(src), "data:") {
		return decodeDataURL(src)
	}
	if b.images == nil {
		return nil, "", errors.New("no image source for this export")
	}
	data, ctype, err := b.images(b.ctx, src)
	if err != nil {
		return nil, "", err
	}
	return data, ctype, nil
}

// decodeDataURL decodes a data: URL (base64 or percent-encoded) of an image type.
func decodeDataURL(src string) ([]byte, string, error) {
	meta, payload, ok := strings.Cut(src[len("data:"):], ",")
	if !ok {
		return nil, "", errors.New("malformed data: URL")
	}
	parts := strings.Split(meta, ";")
	ctype := strings.ToLower(strings.TrimSpace(parts[0]))
	if !strings.HasPrefix(ctype, "image/") {
		return nil, "", fmt.Errorf("data: URL is not an image (%q)", ctype)
	}
	isBase64 := false
	for _, p := range parts[1:] {
		if strings.EqualFold(strings.TrimSpace(p), "base64") {
			isBase64 = true
		}
	}
	if !isBase64 {
		s, err := url.PathUnescape(payload)
		if err != nil {
			return nil, "", fmt.Errorf("data: URL: %w", err)
		}
		return []byte(s), ctype, nil
	}
	if base64.StdEncoding.DecodedLen(len(payload)) > MaxImageBytes+3 {
		return nil, "", fmt.Errorf("image is larger than %d bytes", MaxImageBytes)
	}
	payload = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, payload)
	data, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		if data, err = base64.RawStdEncoding.DecodeString(payload); err != nil {
			return nil, "", fmt.Errorf("data: URL: %w", err)
		}
	}
	return data, ctype, nil
}

// embed stores data as word/media/imageN.ext and adds its relationship, returning its id. godocx's own AddPicture
// only reads from a file path (and would store a copy per use), so the same steps are done here with its
// exported parts.
func (b *builder) embed(data []byte, ext, ctype string, n int) (string, error) {
	root := b.root
	name := fmt.Sprintf("image%d.%s", n, ext)
	if !hasExtension(root, ext) { // a repeated <Default> makes Word refuse the package
		if err := root.ContentType.AddExtension(ext, ctype); err != nil {
			return "", err
		}
	}
	root.FileMap.Store(constants.MediaPath+name, data)
	rID := fmt.Sprintf("rId%d", root.Document.IncRelationID())
	root.Document.DocRels.Relationships = append(root.Document.DocRels.Relationships, &gdocx.Relationship{
		ID: rID, Type: constants.SourceRelationshipImage, Target: "media/" + name,
	})
	return rID, nil
}

// draw shows pic inline in p, scaled to fit the text width. Every drawing has its own id (Word requires them
// unique), all of one image point to its one relationship.
func (b *builder) draw(p *gdocx.Paragraph, pic *picture, alt string) {
	id := uint(b.media.uses)
	w, h := float64(pic.w)/96, float64(pic.h)/96 // CSS pixels at 96 dpi
	if w > maxWidthInch {
		h, w = h*maxWidthInch/w, maxWidthInch
	}
	ew, eh := units.Inch(w).ToEmu(), units.Inch(h).ToEmu()
	inline := dml.NewInline(*dmlct.NewPostvSz2D(ew, eh),
		dml.DocProp{ID: uint64(id), Name: fmt.Sprintf("Image%d", id), Description: alt},
		*dml.NewPicGraphic(dmlpic.NewPic(pic.rID, id, ew, eh)))
	drawing := &dml.Drawing{Inline: []dml.Inline{inline}}
	ct := p.GetCT()
	ct.Children = append(ct.Children, ctypes.ParagraphChild{Run: &ctypes.Run{
		Children: []ctypes.RunChild{{Drawing: drawing}},
	}})
}

// hasExtension reports whether [Content_Types].xml already declares a default for ext.
func hasExtension(root *gdocx.RootDoc, ext string) bool {
	for _, d := range root.ContentType.Default {
		if strings.EqualFold(d.Extension, ext) {
			return true
		}
	}
	return false
}
