package csvimport

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		in     string
		header []string
		rows   [][]string
		lines  []int
		delim  rune
	}{
		{
			name:   "plain comma",
			in:     "Name,Answer\nAda,Yes\nBen,No\n",
			header: []string{"Name", "Answer"},
			rows:   [][]string{{"Ada", "Yes"}, {"Ben", "No"}},
			lines:  []int{2, 3},
			delim:  ',',
		},
		{
			name:   "quoted commas, quotes and newlines",
			in:     "Name,Answer\n\"Lovelace, Ada\",\"She said \"\"hi\"\"\nthen left, quickly\"\nBen,No",
			header: []string{"Name", "Answer"},
			rows:   [][]string{{"Lovelace, Ada", "She said \"hi\"\nthen left, quickly"}, {"Ben", "No"}},
			lines:  []int{2, 4},
			delim:  ',',
		},
		{
			name:   "byte-order mark",
			in:     "\xef\xbb\xbfName,Q1\nAda,1\n",
			header: []string{"Name", "Q1"},
			rows:   [][]string{{"Ada", "1"}},
			lines:  []int{2},
			delim:  ',',
		},
		{
			name:   "CRLF",
			in:     "Name,Q1\r\nAda,\"two\r\nlines\"\r\nBen,x\r\n",
			header: []string{"Name", "Q1"},
			rows:   [][]string{{"Ada", "two\nlines"}, {"Ben", "x"}},
			lines:  []int{2, 4},
			delim:  ',',
		},
		{
			name:   "semicolons with decimal commas",
			in:     "Name;Q1;Q2\nAda;3,5;\"a;b\"\n",
			header: []string{"Name", "Q1", "Q2"},
			rows:   [][]string{{"Ada", "3,5", "a;b"}},
			lines:  []int{2},
			delim:  ';',
		},
		{
			name:   "tab",
			in:     "Name\tQ1\tQ2\nAda\tx, y\tz\n",
			header: []string{"Name", "Q1", "Q2"},
			rows:   [][]string{{"Ada", "x, y", "z"}},
			lines:  []int{2},
			delim:  '\t',
		},
		{
			name:   "delimiter inside a quoted title does not count",
			in:     "\"Name, full\";\"Q1, first\";Q2\nAda;a;b\n",
			header: []string{"Name, full", "Q1, first", "Q2"},
			rows:   [][]string{{"Ada", "a", "b"}},
			lines:  []int{2},
			delim:  ';',
		},
		{
			name:   "formula cells kept as given",
			in:     "Name,Q1,Q2,Q3,Q4\n\"=HYPERLINK(\"\"x\"\")\",=SUM(A1),+1,-2,@x\n",
			header: []string{"Name", "Q1", "Q2", "Q3", "Q4"},
			rows:   [][]string{{"=HYPERLINK(\"x\")", "=SUM(A1)", "+1", "-2", "@x"}},
			lines:  []int{2},
			delim:  ',',
		},
		{
			name:   "header only",
			in:     "Name,Q1\n",
			header: []string{"Name", "Q1"},
			delim:  ',',
		},
		{
			name:   "short rows padded, trailing blank cells dropped, blank rows skipped",
			in:     "Name,Q1,Q2\nAda\n,,\n\nBen,x,y,,\n  ,  ,\nCy,1\n",
			header: []string{"Name", "Q1", "Q2"},
			rows:   [][]string{{"Ada", "", ""}, {"Ben", "x", "y"}, {"Cy", "1", ""}},
			lines:  []int{2, 5, 7},
			delim:  ',',
		},
		{
			name:   "titles trimmed, cells not",
			in:     " Name , Q1 \n Ada , x \n",
			header: []string{"Name", "Q1"},
			rows:   [][]string{{" Ada ", " x "}},
			lines:  []int{2},
			delim:  ',',
		},
		{
			name:   "single column",
			in:     "Name\nAda\n",
			header: []string{"Name"},
			rows:   [][]string{{"Ada"}},
			lines:  []int{2},
			delim:  ',',
		},
		{
			name:   "no final newline, unicode",
			in:     "Name,Réponse\nZoë,日本語 ✓",
			header: []string{"Name", "Réponse"},
			rows:   [][]string{{"Zoë", "日本語 ✓"}},
			lines:  []int{2},
			delim:  ',',
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tab, err := Parse(strings.NewReader(tt.in))
			require.NoError(t, err)
			require.Equal(t, tt.header, tab.Header)
			require.Equal(t, tt.rows, tab.Rows)
			require.Equal(t, tt.delim, tab.Delimiter)
			require.Equal(t, tt.lines, tab.lines)
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		is   error  // a sentinel the error wraps, if any
		msg  string // text the error holds
	}{
		{name: "empty", in: "", is: ErrEmpty, msg: "the file is empty"},
		{name: "blank lines only", in: "\n\r\n  \n", is: ErrEmpty},
		{name: "BOM only", in: "\xef\xbb\xbf", is: ErrEmpty},
		{name: "NUL bytes", in: "Name,Q1\nAda,\x00\x01\n", is: ErrNotCSV},
		{name: "invalid UTF-8", in: "Name,Q1\nAda,\xff\xfe\n", is: ErrNotCSV},
		{name: "PNG", in: "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", is: ErrNotCSV},
		{name: "UTF-16 export", in: "\xff\xfeN\x00a\x00m\x00e\x00", is: ErrNotCSV},
		{name: "long row with data in the extra cells", in: "Name,Q1\nAda,1\nBen,2,3\n", msg: "line 3: 3 cells, but the header has 2 columns"},
		{name: "bare quote", in: "Name,Q1\nAda,1\nBen,say \"hi\"\n", msg: "line 3: a quotation mark"},
		{name: "unclosed quote", in: "Name,Q1\nAda,\"open\nBen,2\n", msg: "line 2: a quoted cell is never closed"},
		{name: "text after a closing quote", in: "Name,Q1\nAda,\"a\"b\n", msg: "line 2: a quoted cell is never closed, or has text after its closing quotation mark"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tab, err := Parse(strings.NewReader(tt.in))
			require.Error(t, err)
			require.Nil(t, tab)
			if tt.is != nil {
				require.ErrorIs(t, err, tt.is)
			} else {
				require.NotErrorIs(t, err, ErrNotCSV)
			}
			require.Contains(t, err.Error(), tt.msg)
		})
	}
}

func TestParseReadFailure(t *testing.T) {
	t.Parallel()
	_, err := Parse(iotest.ErrReader(errors.New("connection reset")))
	require.ErrorContains(t, err, "the file could not be read: connection reset")
}

// rowsFile writes a header and n data rows.
func rowsFile(n int) []byte {
	var b bytes.Buffer
	b.WriteString("Timestamp,Email Address,Name,Question 1\n")
	for i := range n {
		fmt.Fprintf(&b, "2024/01/01 10:00:00,s%d@school.org,Student %d,\"Answer %d, with a comma\"\n", i, i, i)
	}
	return b.Bytes()
}

func TestParseLimits(t *testing.T) {
	t.Parallel()

	t.Run("10000 rows", func(t *testing.T) {
		t.Parallel()
		tab, err := Parse(bytes.NewReader(rowsFile(MaxRows)))
		require.NoError(t, err)
		require.Len(t, tab.Rows, MaxRows)
		require.Equal(t, []string{"2024/01/01 10:00:00", "s9999@school.org", "Student 9999", "Answer 9999, with a comma"}, tab.Rows[MaxRows-1])
		rows, err := tab.Apply(tab.Suggest())
		require.NoError(t, err)
		require.Len(t, rows, MaxRows)
		require.Equal(t, Row{Line: MaxRows + 1, Name: "Student 9999", Email: "s9999@school.org",
			Answers: []Answer{{Question: 0, Text: "Answer 9999, with a comma"}}}, rows[MaxRows-1])
	})

	t.Run("10001 rows", func(t *testing.T) {
		t.Parallel()
		_, err := Parse(bytes.NewReader(rowsFile(MaxRows + 1)))
		require.ErrorIs(t, err, ErrTooLarge)
		require.ErrorContains(t, err, "the limit is 10000 rows")
	})

	t.Run("blank rows do not count", func(t *testing.T) {
		t.Parallel()
		data := append(rowsFile(MaxRows), bytes.Repeat([]byte(",,,\n"), 50)...)
		tab, err := Parse(bytes.NewReader(data))
		require.NoError(t, err)
		require.Len(t, tab.Rows, MaxRows)
	})

	t.Run("over 5 MB", func(t *testing.T) {
		t.Parallel()
		data := append([]byte("Name,Essay\nAda,"), bytes.Repeat([]byte("x"), MaxBytes)...)
		_, err := Parse(bytes.NewReader(data))
		require.ErrorIs(t, err, ErrTooLarge)
		require.ErrorContains(t, err, "the limit is 5 MB")
	})

	t.Run("exactly 5 MB", func(t *testing.T) {
		t.Parallel()
		head := []byte("Name,Essay\nAda,")
		data := append(head, bytes.Repeat([]byte("x"), MaxBytes-len(head))...)
		tab, err := Parse(bytes.NewReader(data))
		require.NoError(t, err)
		require.Len(t, tab.Rows[0][1], MaxBytes-len(head))
	})

	t.Run("a wide header over many short rows", func(t *testing.T) {
		t.Parallel()
		in := strings.Repeat("q,", 999) + "q\n" + strings.Repeat("x\n", 1001)
		_, err := Parse(strings.NewReader(in))
		require.ErrorIs(t, err, ErrTooLarge)
		require.ErrorContains(t, err, "1000 columns by more than 1000 rows (line 1002), the limit is 1000000 cells")
		tab, err := Parse(strings.NewReader(strings.Repeat("q,", 999) + "q\n" + strings.Repeat("x\n", 1000)))
		require.NoError(t, err)
		require.Len(t, tab.Rows, 1000)
	})

	t.Run("too many columns", func(t *testing.T) {
		t.Parallel()
		_, err := Parse(strings.NewReader(strings.Repeat("q,", MaxColumns) + "q\n"))
		require.ErrorIs(t, err, ErrTooLarge)
		require.ErrorContains(t, err, "the limit is 1000")
	})
}

func TestSuggest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want Mapping
	}{
		{
			name: "Google Forms",
			in:   "Timestamp,Email Address,Name,Question 1,Question 2\n2024/01/01,a@b.org,Ada,x,y\n",
			want: Mapping{NameColumn: 2, EmailColumn: 1, Questions: []QuestionColumn{{0, 3}, {1, 4}}},
		},
		{
			name: "Google Forms quiz with scores",
			in:   "Timestamp,Email Address,Score,Full name,Question 1,Question 1 [Score],Question 1 [Feedback],Question 2\n",
			want: Mapping{NameColumn: 3, EmailColumn: 1, Questions: []QuestionColumn{{0, 4}, {1, 7}}},
		},
		{
			name: "Google Forms verified email as Username",
			in:   "Timestamp,Username,What is your name?,Explain photosynthesis\n1,ada@school.org,Ada,Light\n",
			want: Mapping{NameColumn: 2, EmailColumn: 1, Questions: []QuestionColumn{{0, 3}}},
		},
		{
			name: "a Username that is not an address is no email and no question",
			in:   "Username,Student,Q1\nada99,Ada,x\n",
			want: Mapping{NameColumn: 1, EmailColumn: -1, Questions: []QuestionColumn{{0, 2}}},
		},
		{
			name: "Microsoft Forms",
			in:   "ID,Start time,Completion time,Email,Name,Last modified time,Why?,How?\n",
			want: Mapping{NameColumn: 4, EmailColumn: 3, Questions: []QuestionColumn{{0, 6}, {1, 7}}},
		},
		{
			name: "Moodle: surname before first name",
			in:   "Surname,First name,Email address,State,Started on,Completed,Time taken,Grade/10.00,Response 1\n",
			want: Mapping{NameColumn: 0, EmailColumn: 2, Questions: []QuestionColumn{{0, 8}}},
		},
		{
			name: "Canvas quiz report",
			in:   "name,id,sis_id,section,section_id,section_sis_id,submitted,attempt,1: What is a cell?,n correct,n incorrect,score\n",
			want: Mapping{NameColumn: 0, EmailColumn: -1, Questions: []QuestionColumn{{0, 8}}},
		},
		{
			name: "no email, names after the answers",
			in:   "Q1;Q2;Student name\n",
			want: Mapping{NameColumn: 2, EmailColumn: -1, Questions: []QuestionColumn{{0, 0}, {1, 1}}},
		},
		{
			name: "nothing recognisable: the first column is the name",
			in:   "Timestamp,Who,Answer,\n",
			want: Mapping{NameColumn: 1, EmailColumn: -1, Questions: []QuestionColumn{{0, 2}}},
		},
		{
			name: "E-mail spelt with a hyphen, student column",
			in:   "E-mail:,Student:,Answer\n",
			want: Mapping{NameColumn: 1, EmailColumn: 0, Questions: []QuestionColumn{{0, 2}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tab, err := Parse(strings.NewReader(tt.in))
			require.NoError(t, err)
			require.Equal(t, tt.want, tab.Suggest())
		})
	}
}

func TestApply(t *testing.T) {
	t.Parallel()
	const file = "Timestamp,Email Address,Name,Q1,Q2\n" +
		"1, ADA@school.org , Ada Lovelace ,\" =SUM(A1) \",two\n" +
		"2,,Ben,,\n" +
		",,,,\n" +
		"4,cy@school.org,Cy\u202e,\"multi\nline\",-2\n" +
		"5,,,,\n"
	tab, err := Parse(strings.NewReader(file))
	require.NoError(t, err)

	t.Run("rows under a mapping", func(t *testing.T) {
		t.Parallel()
		rows, err := tab.Apply(Mapping{NameColumn: 2, EmailColumn: 1, Questions: []QuestionColumn{{Question: 1, Column: 4}, {Question: 0, Column: 3}}})
		require.NoError(t, err)
		require.Equal(t, []Row{
			{Line: 2, Name: "Ada Lovelace", Email: "ADA@school.org", Answers: []Answer{{0, "=SUM(A1)"}, {1, "two"}}},
			{Line: 3, Name: "Ben", Answers: []Answer{{0, ""}, {1, ""}}},
			{Line: 5, Name: "Cy", Email: "cy@school.org", Answers: []Answer{{0, "multi\nline"}, {1, "-2"}}},
		}, rows)
	})

	t.Run("without email", func(t *testing.T) {
		t.Parallel()
		rows, err := tab.Apply(Mapping{NameColumn: 2, EmailColumn: -1, Questions: []QuestionColumn{{Question: 0, Column: 4}}})
		require.NoError(t, err)
		require.Len(t, rows, 3)
		require.Empty(t, rows[0].Email)
		require.Equal(t, []Answer{{0, "two"}}, rows[0].Answers)
	})

	t.Run("a row with answers but no name names its line", func(t *testing.T) {
		t.Parallel()
		tab, err := Parse(strings.NewReader("Name,Q1\nAda,x\n,orphan answer\n"))
		require.NoError(t, err)
		_, err = tab.Apply(Mapping{NameColumn: 0, EmailColumn: -1, Questions: []QuestionColumn{{0, 1}}})
		require.EqualError(t, err, `line 3: no student name in column "Name"`)
		require.NotErrorIs(t, err, ErrMapping)
	})

	t.Run("control characters removed from answers", func(t *testing.T) {
		t.Parallel()
		tab, err := Parse(strings.NewReader("Name,Q1\nAda,\"a\x01b\tc\x0bd\"\n"))
		require.NoError(t, err)
		rows, err := tab.Apply(Mapping{NameColumn: 0, EmailColumn: -1, Questions: []QuestionColumn{{0, 1}}})
		require.NoError(t, err)
		require.Equal(t, "ab\tcd", rows[0].Answers[0].Text)
	})

	t.Run("a name past the limit", func(t *testing.T) {
		t.Parallel()
		tab, err := Parse(strings.NewReader("Name,Q1\n" + strings.Repeat("a", 201) + ",x\n"))
		require.NoError(t, err)
		_, err = tab.Apply(Mapping{NameColumn: 0, EmailColumn: -1, Questions: []QuestionColumn{{0, 1}}})
		require.EqualError(t, err, "line 2: the name is 201 characters long, the limit is 200")
	})

	t.Run("header only", func(t *testing.T) {
		t.Parallel()
		tab, err := Parse(strings.NewReader("Name,Q1\n"))
		require.NoError(t, err)
		_, err = tab.Apply(tab.Suggest())
		require.EqualError(t, err, "the file has no rows with answers")
	})
}

func TestApplyMappingErrors(t *testing.T) {
	t.Parallel()
	tab, err := Parse(strings.NewReader("Name,Email,Q1,Q2\nAda,a@b.org,x,y\n"))
	require.NoError(t, err)
	tests := []struct {
		name string
		m    Mapping
		msg  string
	}{
		{"no name column", Mapping{NameColumn: -1, EmailColumn: 1, Questions: []QuestionColumn{{0, 2}}}, "choose the column that holds the students' names"},
		{"name column out of range", Mapping{NameColumn: 4, EmailColumn: -1, Questions: []QuestionColumn{{0, 2}}}, "choose the column that holds the students' names"},
		{"email column out of range", Mapping{NameColumn: 0, EmailColumn: 9, Questions: []QuestionColumn{{0, 2}}}, "the email column 10 does not exist (the file has 4 columns)"},
		{"email below -1", Mapping{NameColumn: 0, EmailColumn: -2, Questions: []QuestionColumn{{0, 2}}}, "the email column -1 does not exist"},
		{"no questions", Mapping{NameColumn: 0, EmailColumn: 1}, "choose a column for at least one question"},
		{"question column out of range", Mapping{NameColumn: 0, EmailColumn: -1, Questions: []QuestionColumn{{0, 4}}}, "question 1: column 5 does not exist"},
		{"negative question", Mapping{NameColumn: 0, EmailColumn: -1, Questions: []QuestionColumn{{-1, 2}}}, "question 0 does not exist"},
		{"name and email the same column", Mapping{NameColumn: 0, EmailColumn: 0, Questions: []QuestionColumn{{0, 2}}}, `column "Name" is chosen for both the name and the email`},
		{"a question on the name column", Mapping{NameColumn: 0, EmailColumn: -1, Questions: []QuestionColumn{{0, 0}}}, `column "Name" is chosen for both the name and question 1`},
		{"one column for two questions", Mapping{NameColumn: 0, EmailColumn: -1, Questions: []QuestionColumn{{0, 2}, {1, 2}}}, `column "Q1" is chosen for both question 1 and question 2`},
		{"one question, two columns", Mapping{NameColumn: 0, EmailColumn: -1, Questions: []QuestionColumn{{0, 2}, {0, 3}}}, "question 1 is given two columns"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rows, err := tab.Apply(tt.m)
			require.Nil(t, rows)
			require.ErrorIs(t, err, ErrMapping)
			require.ErrorContains(t, err, tt.msg)
		})
	}
}

func TestEscapeCell(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":              "",
		"Ada":           "Ada",
		"=SUM(A1)":      "'=SUM(A1)",
		"+1":            "'+1",
		"-2":            "'-2",
		"@x":            "'@x",
		"\t=1":          "'\t=1",
		"\r=1":          "'\r=1",
		"a=b":           "a=b",
		" =1":           " =1",
		"'already":      "'already",
		"2 + 2 = 4":     "2 + 2 = 4",
		"=cmd|' /C x'!": "'=cmd|' /C x'!",
	} {
		require.Equal(t, want, EscapeCell(in), "EscapeCell(%q)", in)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "Name,Q1\nAda,x\n", "\xef\xbb\xbfa;b\r\n1;2", "a\tb\n\"x\ny\"\tz", "\"", "a,\"b\n",
		"Timestamp,Email Address,Name,Question 1\n1,a@b,Ada,\"x,\"\"y\"\"\"\n", "a,b\n1,2,3\n", ",,\n,,\n",
		"\x00", "\xff", "=SUM(A1),+1\n-2,@x\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := Parse(bytes.NewReader(data))
		if err != nil {
			require.Nil(t, tab)
			require.NotEmpty(t, err.Error())
			return
		}
		require.Contains(t, []rune{',', ';', '\t'}, tab.Delimiter)
		require.LessOrEqual(t, len(tab.Rows), MaxRows)
		for _, r := range tab.Rows {
			require.Len(t, r, len(tab.Header))
			require.False(t, blank(r))
		}
		m := tab.Suggest()
		require.GreaterOrEqual(t, m.NameColumn, 0)
		require.Less(t, m.NameColumn, len(tab.Header))
		rows, err := tab.Apply(m)
		if err == nil {
			for _, r := range rows {
				require.NotEmpty(t, r.Name)
				require.Len(t, r.Answers, len(m.Questions))
			}
		}
	})
}
