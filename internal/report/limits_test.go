package report

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// manyHighlights is a highlightedText of n one-word highlights, perLine to
// a line (0: all on one line).
func manyHighlights(n, perLine int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(`<grammar comment="Note ` + strconv.Itoa(i) + `">ab</grammar> `)
		if perLine > 0 && i%perLine == perLine-1 {
			b.WriteString("\n")
		}
	}
	return b.String()
}

func grammar(string, int) (string, string) { return "Grammar", "purple-500" }

// TestReportPrintsAtMostMaxFootnotes: a result saved with 25,000 highlights
// (as a teacher's edit could before MaxEditHighlights) prints maxFootnotes
// of them as footnotes, shades maxShaded, and says the other comments are
// in Markwell; LibreOffice took over a minute on the 25,000 footnotes.
func TestReportPrintsAtMostMaxFootnotes(t *testing.T) {
	for _, perLine := range []int{0, 10} {
		work, notes := highlighted(manyHighlights(25_000, perLine), "", grammar)
		require.Len(t, notes, 25_000)
		doc := FODT(Report{Assignment: "A", Student: "S", Status: "reviewed", Work: work, Highlights: notes})
		text := wellFormed(t, doc)
		s := string(doc)
		require.Equal(t, maxFootnotes, strings.Count(s, "<text:note "), "per line %d", perLine)
		require.Equal(t, maxShaded, strings.Count(s, `<text:span text:style-name="hl-purple">`))
		msg := fmt.Sprintf(msgNotesLeftOut, maxFootnotes, 25_000-maxFootnotes)
		require.Contains(t, text, "This report prints the comments on the first 300 highlighted passages only: "+
			"read the comments on the other 24700 in Markwell.")
		require.Equal(t, 1, strings.Count(text, msg))
		require.Contains(t, text, "Note 299")
		require.NotContains(t, text, "Note 300")
		require.Less(t, strings.Index(text, msg), strings.Index(text, "Note 0"), "the sentence comes before the work")
	}
}

// TestReportBelowTheCapsIsUnchanged: every highlight of an ordinary result
// (the AI places at most 200) is a footnote, and nothing says otherwise.
func TestReportBelowTheCapsIsUnchanged(t *testing.T) {
	work, notes := highlighted(manyHighlights(maxFootnotes, 10), "", grammar)
	s := string(FODT(Report{Assignment: "A", Student: "S", Work: work, Highlights: notes}))
	require.Equal(t, maxFootnotes, strings.Count(s, "<text:note "))
	require.Equal(t, maxFootnotes, strings.Count(s, `<text:span text:style-name="hl-purple">`))
	require.NotContains(t, s, "This report prints the comments")
	require.NotContains(t, s, msgWorkCut)

	lines := strings.Repeat("line\n", maxWorkLines-1) + "last"
	s = string(FODT(Report{Assignment: "A", Student: "S", Work: plainWork(lines)}))
	require.Equal(t, maxWorkLines, strings.Count(s, `<text:p text:style-name="Body">line</text:p>`)+
		strings.Count(s, `<text:p text:style-name="Body">last</text:p>`))
	require.NotContains(t, s, msgWorkCut)
}

// TestReportCutsTheWorkAtMaxWorkLines: a pupil's .txt of 99,000 short lines
// (200 KB, within maxWorkRunes) is laid out in maxWorkLines paragraphs and
// the note that the rest is not shown; every line was a paragraph.
func TestReportCutsTheWorkAtMaxWorkLines(t *testing.T) {
	var b strings.Builder
	for i := range 99_000 {
		b.WriteString(strconv.Itoa(i%10) + "\n")
	}
	require.Less(t, b.Len(), maxWorkRunes)
	for name, r := range map[string]Report{
		"plain": {Work: plainWork(b.String())},
		// the same lines, every tenth highlighted
		"highlighted": func() Report {
			tagged := strings.ReplaceAll(b.String(), "\n5\n", "\n<grammar comment=\"Five\">5</grammar>\n")
			work, notes := highlighted(tagged, "", grammar)
			return Report{Work: work, Highlights: notes}
		}(),
	} {
		r.Assignment, r.Student = "A", "S"
		doc := FODT(r)
		text := wellFormed(t, doc)
		s := string(doc)
		work := s[strings.Index(s, "The student's work"):] // "This work has no feedback yet." is a Body too
		paras := strings.Count(work, "<text:p text:style-name=\"Body\">")
		require.LessOrEqual(t, paras, maxWorkLines+1, name)
		require.GreaterOrEqual(t, paras, maxWorkLines, name)
		require.Contains(t, text, msgWorkCut, name)
		require.True(t, strings.HasSuffix(strings.TrimSpace(text), msgWorkCut), name)
	}
}

// TestReportPrintsAtMostMaxTabs: tabs past maxTabs are spaces (66,000 tabs
// on one line took LibreOffice 30 s).
func TestReportPrintsAtMostMaxTabs(t *testing.T) {
	s := string(FODT(Report{Assignment: "A", Student: "S", Work: plainWork(strings.Repeat("a\t", 66_000))}))
	require.Equal(t, maxTabs, strings.Count(s, "<text:tab/>"))
	require.Contains(t, s, "a a a")
}
