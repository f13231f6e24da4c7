package csvimport

import (
	"strings"
	"unicode"
)

// Header titles, normalised (see norm), that Suggest recognises.
var (
	// fullNames hold a student's whole name.
	fullNames = set("name", "full name", "student name", "student", "your name", "name of student",
		"student full name", "first and last name", "name and surname", "learner", "learner name",
		"pupil", "pupil name", "participant", "participant name", "respondent", "display name")
	// partNames hold part of a name; one is chosen when no full name exists.
	lastNames  = set("last name", "surname", "family name", "lastname")
	firstNames = set("first name", "given name", "firstname", "forename")
	// emails hold an address; "username" only when its cells look like one.
	emails = set("email", "email address", "e mail", "e mail address", "student email", "your email",
		"your email address", "email id", "mail", "student email address")
	usernames = set("username", "user name", "login")
	// metadata are columns of the export, not answers: Google Forms,
	// Microsoft Forms, Canvas and Moodle reports.
	metadata = set("timestamp", "score", "total score", "points", "total points", "total", "grade",
		"marks", "mark", "date", "time", "submitted", "submitted at", "submission time", "start time",
		"completion time", "started on", "completed", "time taken", "state", "status",
		"last modified time", "id", "student id", "sis id", "sis user id", "user id", "section",
		"section id", "section sis id", "attempt", "n correct", "n incorrect", "class", "period",
		"feedback", "ip address", "duration", "response id", "respondent id")
)

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// norm lower-cases a title and turns every run of characters other than
// letters and digits into one space: "E-mail Address:" → "e mail address".
func norm(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
			continue
		}
		space = true
	}
	return b.String()
}

// isMetadata reports whether a title names a column of the export rather
// than a question: the titles above, a grade out of something ("Grade/10.00"),
// and a quiz's per-question score and feedback columns ("Q1 [Score]").
func isMetadata(title string) bool {
	n := norm(title)
	lower := strings.ToLower(strings.TrimSpace(title))
	return metadata[n] || strings.HasPrefix(n, "grade ") ||
		strings.HasSuffix(lower, "[score]") || strings.HasSuffix(lower, "[feedback]")
}

// Suggest guesses a mapping from the titles (and, for a "Username" column,
// the cells): the name column is a full-name column ("Name", "Full name",
// "Student" …) or else a last or first name; the email column is one titled
// "Email", "Email address" … or a "Username" whose cells are addresses (-1
// when there is none); every other column with a title that is not the
// export's metadata ("Timestamp", "Score", "Start time" …) is a question, in
// order from question 0. With no recognisable name column the first
// remaining column is taken for names. A teacher confirms or changes the
// result before Apply.
func (t *Table) Suggest() Mapping {
	m := Mapping{NameColumn: -1, EmailColumn: -1, Questions: []QuestionColumn{}}
	pick := func(ok func(i int, n string) bool) int {
		for i, h := range t.Header {
			if ok(i, norm(h)) {
				return i
			}
		}
		return -1
	}
	m.EmailColumn = pick(func(_ int, n string) bool { return emails[n] })
	if m.EmailColumn < 0 {
		m.EmailColumn = pick(func(i int, n string) bool { return usernames[n] && t.looksLikeEmails(i) })
	}
	if m.EmailColumn < 0 {
		m.EmailColumn = pick(func(i int, n string) bool { return strings.Contains(n, "email") })
	}
	notEmail := func(i int) bool { return i != m.EmailColumn }
	for _, names := range []map[string]bool{fullNames, lastNames, firstNames} {
		if m.NameColumn < 0 {
			m.NameColumn = pick(func(i int, n string) bool { return notEmail(i) && names[n] })
		}
	}
	if m.NameColumn < 0 { // "What is your name?", "Student's name"
		m.NameColumn = pick(func(i int, n string) bool {
			return notEmail(i) && strings.Contains(" "+n+" ", " name ") && !usernames[n] && !isMetadata(t.Header[i])
		})
	}
	if m.NameColumn < 0 {
		m.NameColumn = pick(func(i int, n string) bool { return notEmail(i) && n != "" && !isMetadata(t.Header[i]) })
	}
	if m.NameColumn < 0 {
		m.NameColumn = pick(func(i int, _ string) bool { return notEmail(i) })
	}
	if m.NameColumn < 0 {
		m.NameColumn = 0
	}

	for i, h := range t.Header {
		n := norm(h)
		if i == m.NameColumn || i == m.EmailColumn || n == "" || isMetadata(h) ||
			fullNames[n] || lastNames[n] || firstNames[n] || emails[n] || usernames[n] {
			continue
		}
		m.Questions = append(m.Questions, QuestionColumn{Question: len(m.Questions), Column: i})
	}
	return m
}

// looksLikeEmails reports whether most non-empty cells of column i hold an
// @ (or the file has no rows to tell).
func (t *Table) looksLikeEmails(i int) bool {
	seen, at := 0, 0
	for _, r := range t.Rows {
		if c := strings.TrimSpace(r[i]); c != "" {
			seen++
			if strings.Contains(c, "@") {
				at++
			}
		}
	}
	return seen == 0 || at*2 > seen
}
