package main

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// words splits text into the tokens the corpus is scored on: the text is
// NFKC-normalised (so a ligature "ﬁ" is "fi" and full-width digits are
// digits) and lower-cased, and a token is a maximal run of letters, digits
// and combining marks. Han, Hiragana and Katakana characters are a token
// each, since those scripts do not separate words with spaces and two
// readers break their lines in different places.
func words(text string) []string {
	text = strings.ToLower(norm.NFKC.String(strings.Map(dropFormat, text)))
	var out []string
	start := -1
	flush := func(end int) {
		if start >= 0 {
			out = append(out, text[start:end])
			start = -1
		}
	}
	for i, r := range text {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			flush(i)
			out = append(out, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(text))
	return out
}

// dropFormat drops invisible format characters (Unicode category Cf: the
// bidi embeddings pdftotext puts around right-to-left runs, soft hyphens,
// zero-width joiners), which split no word on the page.
func dropFormat(r rune) rune {
	if unicode.Is(unicode.Cf, r) {
		return -1
	}
	return r
}

// score is the multiset word recall and precision of got against ref: the
// words both share (each counted as often as it is in both), over the
// reference's words and over got's. With no words on a side the figure on
// that side is 1 (nothing to miss, nothing extra).
type score struct {
	RefWords  int     `json:"ref_words"`
	GotWords  int     `json:"got_words"`
	Common    int     `json:"common"`
	Recall    float64 `json:"recall"`
	Precision float64 `json:"precision"`
	// Missing and Extra are the words most often lost and added, for
	// reading a bad score.
	Missing []string `json:"missing,omitempty"`
	Extra   []string `json:"extra,omitempty"`
}

func compare(ref, got []string) score {
	count := map[string]int{}
	for _, w := range ref {
		count[w]++
	}
	common := 0
	extra := map[string]int{}
	for _, w := range got {
		if count[w] > 0 {
			count[w]--
			common++
		} else {
			extra[w]++
		}
	}
	s := score{RefWords: len(ref), GotWords: len(got), Common: common, Recall: 1, Precision: 1}
	if len(ref) > 0 {
		s.Recall = float64(common) / float64(len(ref))
	}
	if len(got) > 0 {
		s.Precision = float64(common) / float64(len(got))
	}
	s.Missing = top(count, 12)
	s.Extra = top(extra, 12)
	return s
}

// top lists up to n words with the highest counts, most frequent first.
func top(count map[string]int, n int) []string {
	type wc struct {
		w string
		c int
	}
	var all []wc
	for w, c := range count {
		if c > 0 {
			all = append(all, wc{w, c})
		}
	}
	// a small selection sort keeps this allocation-light and ordered
	var out []string
	for len(out) < n && len(all) > 0 {
		best := 0
		for i := range all {
			if all[i].c > all[best].c || (all[i].c == all[best].c && all[i].w < all[best].w) {
				best = i
			}
		}
		out = append(out, all[best].w)
		all[best] = all[len(all)-1]
		all = all[:len(all)-1]
	}
	return out
}
