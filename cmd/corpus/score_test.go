package main

import (
	"testing"

	"github.com/markwell/markwell/internal/extract"

	"github.com/stretchr/testify/require"
)

func TestWords_NormalisesLikeAReader(t *testing.T) {
	// A ligature, full-width letters, case and punctuation do not make a
	// word differ; digits are words; combining marks stay in their word.
	require.Equal(t, []string{"find", "the", "file", "2026", "naïve"}, words("ﬁnd THE Ｆｉｌｅ, (2026) — nai\u0308ve."))
	// Arabic with its vowel marks is one word, not three.
	require.Len(t, words("كَتَبَ الدَّرْسَ"), 2)
	// Chinese and Japanese have no spaces between words: one token a character.
	require.Equal(t, []string{"中", "文", "ok", "テ", "ス", "ト"}, words("中文 ok テスト"))
}

func TestCompare_CountsEachWordAsOftenAsItIsInBoth(t *testing.T) {
	s := compare(words("the cat and the hat"), words("the cat sat"))
	require.Equal(t, 2, s.Common) // "the" once, "cat" once
	require.InDelta(t, 2.0/5, s.Recall, 1e-9)
	require.InDelta(t, 2.0/3, s.Precision, 1e-9)
	require.Equal(t, []string{"and", "hat", "the"}, s.Missing)
	require.Equal(t, []string{"sat"}, s.Extra)
}

func TestCompare_GluedAndSplitWordsFailTheBar(t *testing.T) {
	// What the issue saw from the old reader: the words are all "there" as
	// letters, but a teacher (and the model) reads something else.
	s := compare(words("Go is a compiled language"), words("Go isacompi led langu age"))
	require.Less(t, s.Recall, minRecall)
	require.InDelta(t, 0.2, s.Recall, 1e-9)
}

func TestCompare_EmptySides(t *testing.T) {
	s := compare(nil, words("extra words"))
	require.Equal(t, 1.0, s.Recall)
	require.Equal(t, 0.0, s.Precision)
	s = compare(words("lost words"), nil)
	require.Equal(t, 0.0, s.Recall)
	require.Equal(t, 1.0, s.Precision)
}

func TestMarkwellText_LeavesOutWhatTheReferenceCannotHold(t *testing.T) {
	res := extractResult(
		page("Photosynthesis\nLight makes sugar\n\nNotes: say this slowly", ""),
	)
	all, precise, excluded := markwellText(res, "pptx")
	require.Contains(t, all, "say this slowly")
	require.NotContains(t, precise, "slowly")
	require.Equal(t, 4, excluded) // "notes say this slowly"

	res = extractResult(page("typed text", "file"), page("scanned page words", "ocr"))
	_, precise, excluded = markwellText(res, "pdf")
	require.Equal(t, 3, excluded)
	require.NotContains(t, precise, "scanned")

	res = extractResult(page("Name: Rick Evans\n\nForm fields:\nI agree: Yes", "pdftotext"))
	all, precise, excluded = markwellText(res, "pdf")
	require.Contains(t, all, "I agree: Yes")
	require.NotContains(t, precise, "agree")
	require.Equal(t, 5, excluded) // "form fields i agree yes"
}

func TestWords_FormatCharactersSplitNoWord(t *testing.T) {
	// pdftotext wraps right-to-left runs in bidi embeddings; a soft hyphen
	// and a zero-width non-joiner sit inside words.
	require.Equal(t, []string{"اxrhf", "hyphen", "میخواهم"}, words("\u202bا\u202axrhf\u202c hy\u00adphen می\u200cخواهم"))
}

func page(text, source string) extract.Page {
	return extract.Page{Text: text, Source: extract.Source(source)}
}

func extractResult(pages ...extract.Page) extract.Result { return extract.Result{Pages: pages} }

func TestHTMLText_KeepsWhatThePageShows(t *testing.T) {
	page := `<html><head><title>Ignored title</title><style>p { color: red }</style></head>
<body><p>Caf&eacute; <b>au</b>&nbsp;lait</p><p>The quick bro<font color="#ff0000">w</font>n fox</p>
<div id="sdfootnote1"><p>A footnote.</p></div></body></html>`
	require.Equal(t, []string{"café", "au", "lait", "the", "quick", "brown", "fox", "a", "footnote"}, words(htmlText(page)))
}

func TestSurplus_TakesEachWordAsOftenAsTheRicherExport(t *testing.T) {
	html := words("Apples Pears A footnote") // footnote kept, list numbers lost
	plain := words("1. Apples 2. Pears")     // list numbers kept, footnote lost
	ref := append(html, surplus(html, plain)...)
	require.ElementsMatch(t, []string{"apples", "pears", "a", "footnote", "1", "2"}, ref)
}
