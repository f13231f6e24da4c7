package extract

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// readText decodes a text file: UTF-8, UTF-16 with a byte-order mark, or
// Windows-1252 (what Notepad and older Word "Save as text" write) when the
// bytes are not UTF-8.
func (r *Reader) readText(data []byte, _, _ string) (Result, error) {
	text := decodeText(data)
	if len(text) > r.lim.MaxTextBytes {
		return Result{}, r.lim.tooMuchText()
	}
	return Result{Pages: []Page{{Text: text, Source: SourceFile}}}, nil
}

func decodeText(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\xef\xbb\xbf")):
		return strings.ToValidUTF8(string(data[3:]), "")
	case bytes.HasPrefix(data, []byte("\xff\xfe")):
		return decodeUTF16(data[2:], binary.LittleEndian)
	case bytes.HasPrefix(data, []byte("\xfe\xff")):
		return decodeUTF16(data[2:], binary.BigEndian)
	case utf8.Valid(trimPartialRune(data)):
		return strings.ToValidUTF8(string(data), "")
	}
	var b strings.Builder
	b.Grow(len(data))
	for _, c := range data {
		if c >= 0x80 && c < 0xa0 {
			b.WriteRune(cp1252[c-0x80])
		} else {
			b.WriteRune(rune(c))
		}
	}
	return b.String()
}

func decodeUTF16(data []byte, order binary.ByteOrder) string {
	u := make([]uint16, len(data)/2)
	for i := range u {
		u[i] = order.Uint16(data[2*i:])
	}
	return string(utf16.Decode(u))
}

// cp1252 maps Windows-1252 bytes 0x80–0x9F (curly quotes, dashes, the euro
// sign) to Unicode; the other bytes equal their Latin-1 code points.
var cp1252 = [32]rune{
	'€', '\ufffd', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\ufffd', 'Ž', '\ufffd',
	'\ufffd', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\ufffd', 'ž', 'Ÿ',
}
