package extract_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/extract"
)

// The PDFs of testdata/pdf come from real producers (see its README); each
// test names words the in-process reader used to lose on such a file.

// readPDFFixture reads testdata/pdf/<name> without OCR and checks it came
// whole from the text layer.
func readPDFFixture(t *testing.T, name string) extract.Result {
	t.Helper()
	b := setup(t)
	res, err := extractFile(t, b.noOCR, fixture(t, "pdf/"+name), name, "application/pdf")
	require.NoError(t, err)
	require.Equal(t, extract.KindPDF, res.Kind)
	require.False(t, res.NeedsOCR(), "every page has a text layer")
	for _, p := range res.Pages {
		require.Equal(t, extract.SourcePoppler, p.Source, "page %d", p.Number)
	}
	return res
}

// requireWords checks that each phrase appears in text as whole words, in
// order within the phrase, whatever the line breaks between them.
func requireWords(t *testing.T, text string, phrases ...string) {
	t.Helper()
	got := " " + flat(text) + " "
	for _, p := range phrases {
		require.Contains(t, got, " "+p+" ", "%q is missing from:\n%s", p, text)
	}
}

func TestPDFFillableFormValues(t *testing.T) {
	t.Parallel()
	// A LibreOffice worksheet filled in with pdfcpu: the viewer's appearance
	// shows the answers without their questions, and no tick as a word.
	res := readPDFFixture(t, "worksheet-filled.pdf")
	require.Len(t, res.Pages, 1)
	text := res.Pages[0].Text
	lines := strings.Split(text, "\n")
	require.Contains(t, lines, "Question 1: Friction between the ball and the grass slows it down.")
	require.Contains(t, lines, "Question 2: Gravity")
	require.Contains(t, lines, "I checked my answers: Yes")
	require.Equal(t, 1, strings.Count(text, "Rick Evans"), "the page already shows \"Name: Rick Evans\": not repeated\n%s", text)
	requireWords(t, text, "Name: Rick Evans", "Forces worksheet", "1. Why does a ball rolling on grass slow down?")
	require.NotContains(t, text, "I had help: Yes", "an unticked box adds nothing")
	require.Equal(t, 1, strings.Count(text, "Date"), "the empty date field adds nothing:\n%s", text)

	// pdfcpu's own demo form: fields labelled by their tooltips (TU), a radio
	// group, a multiple-choice list, a combo box and checkboxes, whose
	// appearances show the choices but not which were chosen.
	res = readPDFFixture(t, "demo-form-pdfcpu.pdf")
	text = res.Pages[0].Text
	lines = strings.Split(text, "\n")
	for _, want := range []string{
		"Gender: non-binary",
		"Favorite city: San Francisco, Vienna",
		"Google Search: Yes",
	} {
		require.Contains(t, lines, want, "in:\n%s", text)
	}
	// Ticks and choices, which the page shows only as drawn marks, are
	// listed under their heading after the page's text.
	require.Contains(t, text, "\n\nForm fields:\nGender: non-binary\n")
	// A typed answer the page shows once gets its label before it, its
	// words not repeated.
	requireWords(t, text, "Reason: This is a sample text. This is the next line.")
	require.Equal(t, 1, strings.Count(text, "This is the next line"), "not repeated:\n%s", text)
	requireWords(t, text, "First Name: Jackie", "Last Name: Doe", "City: Sidney")
	require.Equal(t, 1, strings.Count(text, "Jackie"), "shown by the page already:\n%s", text)
	require.Equal(t, 1, strings.Count(text, "Sidney"), "shown by the page already:\n%s", text)
	for _, unticked := range []string{"Github Search", "Golang Weekly", "Fellow Gopher"} {
		require.NotContains(t, text, unticked+": Yes")
	}
}

func TestPDFLigatures(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ file, words string }{
		// Chromium sets DejaVu Serif with ff, ffi and fl ligature glyphs.
		{"homework-chromium.pdf", "The authors affirm that the difficult office staff flew fifty fluffy kites, as in the following example."},
		// groff's Times has fi and fl ligatures.
		{"rivers-groff.pdf", "a river that flows to the coast. The coefficients of the water cycle"},
	} {
		res := readPDFFixture(t, c.file)
		requireWords(t, res.Text, c.words)
		for _, r := range res.Text {
			require.False(t, r >= '\ufb00' && r <= '\ufb06', "%s: a ligature character %q is left in the text", c.file, r)
		}
	}
}

func TestPDFNonLatinTrueType(t *testing.T) {
	t.Parallel()
	// LibreOffice embeds DejaVu Sans as a TrueType subset.
	res := readPDFFixture(t, "scripts-truetype.pdf")
	requireWords(t, res.Text,
		"Greek: Η γάτα κάθεται στο παράθυρο.",
		"Russian: Кошка сидит на окне.",
		"Vietnamese: Con mèo ngồi trên cửa sổ.",
		"Arabic: القطة تجلس على النافذة", // in reading order, letters unshaped
	)
}

func TestPDFFormXObjectText(t *testing.T) {
	t.Parallel()
	// Chromium draws the page's translucent header inside a Form XObject.
	res := readPDFFixture(t, "homework-chromium.pdf")
	require.Len(t, res.Pages, 1)
	lines := strings.Split(res.Pages[0].Text, "\n")
	require.Equal(t, "Year 9 Science: Homework sheet", lines[0])
}

func TestPDFWordsPositionedWithoutSpaces(t *testing.T) {
	t.Parallel()
	// gropdf places each line on its own, with no space between the last
	// word of a line and the first of the next, and hyphenates "wa-ter".
	res := readPDFFixture(t, "rivers-groff.pdf")
	requireWords(t, res.Text,
		"Rivers and the Sea Rivers carry the water back to the sea, as in the following example: rain falls on the hills, runs into streams,",
		"flows to the coast. The coefficients",
		"the warmest months move the most water.",
	)
}

func TestPDFType3FontText(t *testing.T) {
	t.Parallel()
	// pdfcpu's read.go printed by Chrome 80: code in Type 3 fonts whose
	// glyph codes the in-process reader turned into Latin-1 noise.
	res := readPDFFixture(t, "readgo-type3.pdf")
	requireWords(t, res.Text,
		"2 Copyright 2018 The pdfcpu Authors.",
		`4 Licensed under the Apache License, Version 2.0 (the "License");`,
	)
}

func TestPDFChineseTextLayerIsNotSentToOCR(t *testing.T) {
	t.Parallel()
	// Chinese is written without spaces between words: a page of it is
	// text, not words glued together by a broken reader, and must not wait
	// for OCR.
	res := readPDFFixture(t, "chinese-libreoffice.pdf")
	require.Len(t, res.Pages, 1)
	require.Contains(t, res.Text, "水在海洋、空气和陆地之间不停地循环。")
	require.Contains(t, res.Text, "我们应该节约用水，因为干净的淡水只占地球上所有水的很小一部分。")
}
