package docx

import (
	"bytes"
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

// image resolves n's source and embeds it inline in p.
func (b *builder) image(p *gdocx.Paragraph, n *ast.Image) error {
	src := string(n.Destination)
	fail := func(err error) error { return &ImageError{Src: src, Err: err} }
	if b.nImages >= MaxImages {
		return fail(fmt.Errorf("more than %d images", MaxImages))
	}
	data, ctype, err := b.fetch(src)
	if err != nil {
		return fail(err)
	}
	if len(data) > MaxImageBytes {
		return fail(fmt.Errorf("image is larger than %d bytes", MaxImageBytes))
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return fail(fmt.Errorf("not a PNG, JPEG or GIF image (%s): %w", ctype, err))
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return fail(errors.New("image has no size"))
	}
	b.nImages++
	ext := extByType["image/"+format]
	return b.embed(p, data, ext, "image/"+format, cfg.Width, cfg.Height, b.plain(n))
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

// embed stores data as word/media/imageN.ext, adds its relationship and draws it inline in p. godocx's own
// AddPicture only reads from a file path, so the same steps are done here with its exported parts.
func (b *builder) embed(p *gdocx.Paragraph, data []byte, ext, ctype string, wPx, hPx int, alt string) error {
	root := b.root
	root.ImageCount++
	name := fmt.Sprintf("image%d.%s", root.ImageCount, ext)
	if !hasExtension(root, ext) { // a repeated <Default> makes Word refuse the package
		if err := root.ContentType.AddExtension(ext, ctype); err != nil {
			return err
		}
	}
	root.FileMap.Store(constants.MediaPath+name, data)
	rID := fmt.Sprintf("rId%d", root.Document.IncRelationID())
	root.Document.DocRels.Relationships = append(root.Document.DocRels.Relationships, &gdocx.Relationship{
		ID: rID, Type: constants.SourceRelationshipImage, Target: "media/" + name,
	})

	w, h := float64(wPx)/96, float64(hPx)/96 // CSS pixels at 96 dpi
	if w > maxWidthInch {
		h, w = h*maxWidthInch/w, maxWidthInch
	}
	ew, eh := units.Inch(w).ToEmu(), units.Inch(h).ToEmu()
	inline := dml.NewInline(*dmlct.NewPostvSz2D(ew, eh),
		dml.DocProp{ID: uint64(root.ImageCount), Name: fmt.Sprintf("Image%d", root.ImageCount), Description: alt},
		*dml.NewPicGraphic(dmlpic.NewPic(rID, root.ImageCount, ew, eh)))
	drawing := &dml.Drawing{Inline: []dml.Inline{inline}}
	ct := p.GetCT()
	ct.Children = append(ct.Children, ctypes.ParagraphChild{Run: &ctypes.Run{
		Children: []ctypes.RunChild{{Drawing: drawing}},
	}})
	return nil
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
