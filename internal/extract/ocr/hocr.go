package ocr

import (
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"
)

// fromHOCR reads tesseract's hOCR of a page: its text as tesseract's plain
// text has it (words of a line joined by spaces, lines by a newline,
// paragraphs by a blank line) and the mean of the words' confidences
// (x_wconf, 0–100), rounded; -1 when no word was found (a blank page is not
// an unsure one).
func fromHOCR(hocr string) (string, int, error) {
	d := xml.NewDecoder(strings.NewReader(hocr))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	var (
		paras     []string
		lines     []string
		words     []string
		word      strings.Builder
		depth     []string // the hOCR class of each open element ("" for others)
		inWord    bool
		sum, n    int
		flushLine = func() {
			if len(words) > 0 {
				lines = append(lines, strings.Join(words, " "))
				words = nil
			}
		}
		flushPara = func() {
			flushLine()
			if len(lines) > 0 {
				paras = append(paras, strings.Join(lines, "\n"))
				lines = nil
			}
		}
	)
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", 0, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			class, title := attr(t, "class"), attr(t, "title")
			depth = append(depth, class)
			if class == "ocrx_word" {
				inWord = true
				word.Reset()
				if c, ok := wordConfidence(title); ok {
					sum += c
					n++
				}
			}
		case xml.EndElement:
			if len(depth) == 0 {
				continue
			}
			class := depth[len(depth)-1]
			depth = depth[:len(depth)-1]
			switch class {
			case "ocrx_word":
				inWord = false
				if w := strings.TrimSpace(word.String()); w != "" {
					words = append(words, w)
				}
			case "ocr_line", "ocr_textfloat", "ocr_header", "ocr_caption":
				flushLine()
			case "ocr_par":
				flushPara()
			}
		case xml.CharData:
			if inWord {
				word.Write(t)
			}
		}
	}
	flushPara()
	conf := -1
	if n > 0 {
		conf = (sum + n/2) / n
	}
	return strings.Join(paras, "\n\n"), conf, nil
}

// attr is the value of an element's attribute, "" without it.
func attr(t xml.StartElement, name string) string {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// wordConfidence reads "x_wconf 95" from a word's title.
func wordConfidence(title string) (int, bool) {
	for _, part := range strings.Split(title, ";") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(part), "x_wconf "); ok {
			c, err := strconv.Atoi(strings.TrimSpace(v))
			return min(max(c, 0), 100), err == nil
		}
	}
	return 0, false
}
