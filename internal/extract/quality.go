package extract

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The quality signal: a page whose text may not be what the student wrote
// gets a Warning, a sentence for the teacher saying why and asking them to
// check the page against the original. A text file has no original apart
// from its text, so its warning only says what is wrong ("Some characters in
// this file look garbled (“Î±Î»”), so words may be wrong or missing") and it
// has no page to check (Doubtful). Three things make a page doubtful:
//
//   - OCR read it and was unsure (confidence under LowConfidence);
//   - garbled characters: Latin-1 symbols inside words ("¦¬Äµ ¼µÁ¹º¬", a
//     font whose map is broken), UTF-8 read as Latin-1 ("cafÃ©"), private-use
//     characters inside words, letters that could not be decoded, or a
//     letter of one script inside a word of another ("Hеllo" with a Cyrillic
//     е), each in at least minGarbled words of the page;
//   - almost no words (under fewWords) where more were to be expected: a
//     one-page photo or scan, or a page after the first of a PDF or TIFF
//     whose other pages have many words (a median of manyWords or more).
//     A first page (a title page), a document, presentation or text file, and a
//     one-page file with a text layer (a short answer) are never flagged:
//     their text is what the file holds.
const (
	fewWords   = 5
	manyWords  = 40
	minGarbled = 3
)

// assess sets each page's Warning. undecoded[i] counts the characters of
// page i that could not be decoded (U+FFFD, C1 controls), which tidy drops.
func (res *Result) assess(undecoded []int) {
	words := make([]int, len(res.Pages))
	for i, p := range res.Pages {
		words[i] = countWords(p.Text)
	}
	for i := range res.Pages {
		res.Pages[i].Warning = res.pageWarning(i, words, undecoded[i])
	}
}

// pageWarning is page i's warning, or "".
func (res *Result) pageWarning(i int, words []int, undecoded int) string {
	p := res.Pages[i]
	if p.Text == "" {
		return "" // no text at all: Problem says so
	}
	name := res.pageName(p.Number)
	if p.Confidence != nil && *p.Confidence < LowConfidence {
		if p.Source != SourceOCR { // typed text, and a picture OCR read (pictures.go)
			return fmt.Sprintf("A picture on %s was read by OCR, which was unsure of it (%d%%): check it against the original", name, *p.Confidence)
		}
		return fmt.Sprintf("%s was read by OCR, which was unsure of it (%d%%): check it against the original", upperFirst(name), *p.Confidence)
	}
	if sample, ok := garbled(p.Text, undecoded); ok {
		if res.Kind == KindText { // its text is the original: nothing to check it against
			if sample == "" {
				return "Some characters in this file could not be decoded, so words may be wrong or missing"
			}
			return fmt.Sprintf("Some characters in this file look garbled (“%s”), so words may be wrong or missing", sample)
		}
		if sample == "" {
			return fmt.Sprintf("Some characters on %s could not be decoded, so words may be wrong or missing: check it against the original", name)
		}
		return fmt.Sprintf("Some characters on %s look garbled (“%s”), so words may be wrong or missing: check it against the original", name, sample)
	}
	if n := words[i]; n < fewWords && res.wantsMoreWords(i, words) {
		switch n {
		case 0:
			return fmt.Sprintf("No words were found on %s, only symbols: check it against the original", name)
		case 1:
			return fmt.Sprintf("Only 1 word was found on %s: check it against the original", name)
		default:
			return fmt.Sprintf("Only %d words were found on %s: check it against the original", n, name)
		}
	}
	return ""
}

// wantsMoreWords reports whether page i, which has almost no words, should
// have had more (see the rules above).
func (res *Result) wantsMoreWords(i int, words []int) bool {
	switch res.Kind {
	case KindDOCX, KindPPTX, KindText, KindODT, KindODP, KindRTF, KindDOC, KindPPT:
		return false // the words the file holds, converted or not
	}
	if len(res.Pages) == 1 {
		return res.Pages[0].Source == SourceOCR
	}
	if i == 0 {
		return false
	}
	var others []int
	for j, p := range res.Pages {
		if j != i && p.Text != "" {
			others = append(others, words[j])
		}
	}
	if len(others) == 0 {
		return false
	}
	slices.Sort(others)
	return others[len(others)/2] >= manyWords
}

// pageName is "page 3" or, in a presentation, "slide 3".
func (res *Result) pageName(n int) string {
	if res.Kind.slides() {
		return "slide " + strconv.Itoa(n)
	}
	return "page " + strconv.Itoa(n)
}

// Doubtful lists the numbers of the pages with a Warning, in order: the
// pages to check against the original. A text file has none, whatever its
// Warning: its text is its original.
func (r Result) Doubtful() []int {
	out := []int{}
	if r.Kind == KindText {
		return out
	}
	for _, p := range r.Pages {
		if p.Warning != "" {
			out = append(out, p.Number)
		}
	}
	return out
}

// Warning is the note a teacher sees on the whole file: the pages without
// text (Problem), the pages OCR never read (WithoutOCR: "Pages 2 and 3
// could not be read by OCR, so their words are missing: check them against
// the original") and how many pages may be misread ("Pages 2 and 5 may be
// misread: check them against the original"; a text file's own warning);
// "" when there is none.
func (r Result) Warning() string {
	var parts []string
	for _, s := range []string{r.Problem(), r.unreadSummary(), r.misread()} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ". ")
}

// misread summarises the doubtful pages, but for those OCR never read. A
// text file's summary is its page's warning, which names the file.
func (r Result) misread() string {
	var d []int
	for _, p := range r.Pages {
		if p.Warning != "" && !p.unread {
			if r.Kind == KindText {
				return p.Warning
			}
			d = append(d, p.Number)
		}
	}
	switch {
	case len(d) == 0:
		return ""
	case len(r.Pages) == 1:
		return "The text may be misread: check it against the original"
	case len(d) == 1:
		return fmt.Sprintf("%s may be misread: check it against the original", upperFirst(r.pageList(d)))
	default:
		return fmt.Sprintf("%s may be misread: check them against the original", upperFirst(r.pageList(d)))
	}
}

// pageList names pages for a sentence: "page 2", "pages 2 and 5", "pages
// 2, 3 and 5", "4 pages" (slides in a presentation).
func (r Result) pageList(nums []int) string {
	unit := "page"
	if r.Kind.slides() {
		unit = "slide"
	}
	switch {
	case len(nums) == 1:
		return unit + " " + strconv.Itoa(nums[0])
	case len(nums) <= 3:
		s := make([]string, len(nums))
		for i, n := range nums {
			s[i] = strconv.Itoa(n)
		}
		return unit + "s " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
	default:
		return fmt.Sprintf("%d %ss", len(nums), unit)
	}
}

// countWords counts the words of a text: tokens between spaces holding a
// letter or a digit. In scripts written without spaces (Chinese, Japanese,
// Thai…) every two letters count as a word, so a page of them is not "a
// page with almost no words".
func countWords(text string) int {
	n := 0
	for _, tok := range strings.Fields(text) {
		dense, word := 0, false // dense: letters of scripts without spaces
		for _, r := range tok {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				word = true
				if unspaced(r) {
					dense++
				}
			}
		}
		if word {
			n += max(1, dense/2)
		}
	}
	return n
}

// garbled reports whether a page's text looks garbled, with a sample of its
// garbled words ("" when only undecodable characters say so).
func garbled(text string, undecoded int) (string, bool) {
	var bad []string
	tokens := 0
	for _, tok := range strings.Fields(text) {
		tokens++
		if garbledWord(tok) {
			bad = append(bad, tok)
		}
	}
	if len(bad) >= minGarbled {
		sample := bad[:min(len(bad), 3)]
		for i, s := range sample {
			if utf8.RuneCountInString(s) > 20 {
				sample[i] = string([]rune(s)[:20]) + "…"
			}
		}
		return strings.Join(sample, " "), true
	}
	return "", undecoded >= minGarbled
}

// garbledWord reports whether one token looks like a broken font map's or a
// wrong encoding's output rather than something a person wrote.
func garbledWord(tok string) bool {
	rs := []rune(tok)
	symbols, private := 0, 0
	for i, r := range rs {
		var prev, next rune
		if i > 0 {
			prev = rs[i-1]
		}
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		switch {
		case latin1Symbol(r):
			// "20°C", "±0.5" and "£5" put a symbol beside a digit; one
			// symbol in a word ("¿Qué", "µm") is how people write.
			if !unicode.IsDigit(prev) && !unicode.IsDigit(next) {
				symbols++
			}
		case r == 'Ã' && next >= 0xa0 && next <= 0xbf, r == 'â' && next == '€':
			return true // UTF-8 read as Latin-1: "cafÃ©", "donâ€™t"
		case unicode.Is(unicode.Co, r):
			// A lone private-use character is a bullet or an icon; inside a
			// word it is a letter its font could not map.
			private++
			if private >= 2 || (unicode.IsLetter(prev) && unicode.IsLetter(next)) {
				return true
			}
		case unicode.IsLetter(r) && unicode.IsLetter(prev) && unicode.IsLetter(next):
			// A letter of one script between two of another inside a word:
			// "Hеllo" with a Cyrillic е ("Δx" and "cosθ" have theirs at an
			// end).
			s, a, b := script(r), script(prev), script(next)
			if s >= 0 && a >= 0 && s != a && a == b {
				return true
			}
		}
	}
	return symbols >= 2
}

// latin1Symbol reports a Latin-1 supplement symbol or ordinal (¡ to ¿), the
// characters a broken font map makes of Greek, Cyrillic or Vietnamese
// letters; guillemets and the soft hyphen are left out, which people use
// in pairs or inside words.
func latin1Symbol(r rune) bool {
	return r >= 0xa1 && r <= 0xbf && r != '«' && r != '»' && r != 0xad
}

// scripts are the scripts whose mixing inside a word is told apart; Chinese
// and Japanese characters count as one, as Japanese mixes them.
var scripts = []*unicode.RangeTable{
	unicode.Latin, unicode.Greek, unicode.Cyrillic, unicode.Armenian, unicode.Hebrew, unicode.Arabic,
	unicode.Devanagari, unicode.Thai, unicode.Georgian, unicode.Hangul,
}

// script is the index of r's script in scripts (Chinese and Japanese share
// len(scripts)), or -1 for any other.
func script(r rune) int {
	for i, t := range scripts {
		if unicode.Is(t, r) {
			return i
		}
	}
	if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) {
		return len(scripts)
	}
	return -1
}

// undecodable counts the characters of s that stand for bytes a reader
// could not decode: U+FFFD and C1 control characters.
func undecodable(s string) int {
	n := 0
	for _, r := range s {
		if r == utf8.RuneError || (r >= 0x80 && r < 0xa0) {
			n++
		}
	}
	return n
}

// upperFirst capitalises the first letter of s.
func upperFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}
