package fakellm

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// facts are the simple text measurements the demo model answers from.
type facts struct {
	text      string
	words     int
	sentences []sentence
}

// sentence is a sentence or line of the text, kept verbatim so it can be
// quoted as an exact substring. Start and End are rune offsets.
type sentence struct {
	Text       string
	Start, End int
	Words      int
}

// analyse splits text into sentences (ending in . ! ? or a line break) and
// counts words.
func analyse(text string) facts {
	f := facts{text: text, words: len(strings.Fields(text))}
	runes := []rune(text)
	begin := 0
	flush := func(end int) {
		s := string(runes[begin:end])
		trimmed := strings.TrimSpace(s)
		if trimmed != "" {
			lead := utf8.RuneCountInString(s) - utf8.RuneCountInString(strings.TrimLeftFunc(s, unicode.IsSpace))
			start := begin + lead
			f.sentences = append(f.sentences, sentence{
				Text:  trimmed,
				Start: start,
				End:   start + utf8.RuneCountInString(trimmed),
				Words: len(strings.Fields(trimmed)),
			})
		}
		begin = end
	}
	for i, r := range runes {
		switch {
		case r == '\n':
			flush(i + 1)
		case (r == '.' || r == '!' || r == '?') && (i+1 == len(runes) || unicode.IsSpace(runes[i+1])):
			flush(i + 1)
		}
	}
	flush(len(runes))
	return f
}

// quality is the demo model's whole judgement: longer work scores higher,
// from 0.4 (nothing written) to 1.0 (250 words or more).
func quality(words, full int) float64 {
	return 0.4 + 0.6*float64(min(words, full))/float64(full)
}

// sentenceAt returns the i-th sentence, wrapping around; ok is false when
// the text has none.
func (f facts) sentenceAt(i int) (sentence, bool) {
	if len(f.sentences) == 0 {
		return sentence{}, false
	}
	return f.sentences[i%len(f.sentences)], true
}

// firstWords returns at most n words of s.
func firstWords(s string, n int) string {
	w := strings.Fields(s)
	if len(w) <= n {
		return strings.Join(w, " ")
	}
	return strings.Join(w[:n], " ") + "…"
}

// titleFrom makes a short title from a sentence.
func titleFrom(s string) string {
	w := strings.Fields(strings.TrimRight(s, ".!?:;,"))
	if len(w) > 6 {
		w = w[:6]
	}
	t := strings.Join(w, " ")
	if r, size := utf8.DecodeRuneInString(t); size > 0 {
		t = string(unicode.ToUpper(r)) + t[size:]
	}
	return t
}

// overview describes the text in one honest sentence.
func (f facts) overview() string {
	if f.words == 0 {
		return "Demo model: no text was given, so there is nothing to assess."
	}
	first, _ := f.sentenceAt(0)
	return fmt.Sprintf("Demo model: the text has %d words in %d sentences and begins \"%s\".",
		f.words, len(f.sentences), firstWords(first.Text, 12))
}
