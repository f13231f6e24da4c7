// Package input holds Markwell's one rule for text that arrives from a
// client: no NUL or other C0 control characters (tab and line breaks are
// text), names without bidirectional overrides, and lengths with a stated
// limit. The HTTP layer applies CheckJSON and CheckForm to every request
// body; domain packages call Name and Text on the fields they store.
package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/markwell/markwell/internal/apperr"
)

// Limits on text, in characters. The API reference (docs/) states them.
const (
	// MaxName is the longest name of anything: an assignment, a rubric, a
	// folder, a person, a file.
	MaxName = 200
	// MaxEmail is the longest email address (RFC 5321's path limit).
	MaxEmail = 254
	// MaxLongText is the longest free text a teacher types into one field:
	// a question, a criterion, a context, a prompt.
	MaxLongText = 20_000
)

// ErrControl is wrapped by the errors of CheckString, CheckJSON and CheckForm.
var ErrControl = errors.New("control character in text")

// allowedControl reports whether r is a C0 control character that is part
// of ordinary text: tab, line feed and carriage return (Windows line breaks).
func allowedControl(r rune) bool { return r == '\t' || r == '\n' || r == '\r' }

// badRune returns the first C0 control character of s that is not allowed,
// or -1.
func badRune(s string) rune {
	for _, r := range s {
		if r < 0x20 && !allowedControl(r) {
			return r
		}
	}
	return -1
}

// CheckString refuses s when it holds NUL or another C0 control character
// other than tab and line breaks. field names it in the message.
func CheckString(field, s string) error {
	if r := badRune(s); r >= 0 {
		return controlError(field, r)
	}
	return nil
}

func controlError(field string, r rune) error {
	msg := fmt.Sprintf("Text cannot contain control characters (found U+%04X)", r)
	if field != "" {
		msg = fmt.Sprintf("%s cannot contain control characters (found U+%04X)", field, r)
	}
	return apperr.Wrap(apperr.Invalid, msg, ErrControl)
}

// MaxDepth is how deeply a request's JSON may nest (objects and arrays
// inside one another). Markwell's deepest payload, a grade definition, is
// about fifteen levels; a body deeper than this is refused before anything
// decodes it.
const MaxDepth = 64

// ErrTooDeep is wrapped by CheckJSON's error for a body nested past MaxDepth.
var ErrTooDeep = errors.New("JSON nested too deeply")

// CheckJSON refuses a JSON document nested more than MaxDepth levels deep,
// and one with a string, keys included, that holds a forbidden control
// character, naming its field ("questions[0].questionText"). A document
// that is not valid JSON otherwise passes: decoding it reports that.
//
// One pass over the bytes settles most bodies (a raw control character is
// not valid JSON, so only an escaped one counts); only a body that holds
// one is walked token by token, to name its field.
func CheckJSON(body []byte) error {
	suspect, deepest := scan(body)
	if deepest > MaxDepth {
		return apperr.Wrap(apperr.Invalid, fmt.Sprintf("The request is nested more than %d levels deep", MaxDepth), ErrTooDeep)
	}
	if !suspect {
		return nil
	}
	return walk(body)
}

// scan reads a JSON document's bytes once: whether a string holds an
// escaped control character other than tab and line breaks (\b, \f,
// \u0000–\u001f), and how deeply its arrays and objects nest.
func scan(b []byte) (suspect bool, deepest int) {
	depth, inString := 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '"':
				inString = false
			case '\\':
				i++
				if i >= len(b) {
					return suspect, deepest
				}
				switch b[i] {
				case 'b', 'f':
					suspect = true
				case 'u':
					if i+4 < len(b) && b[i+1] == '0' && b[i+2] == '0' && (b[i+3] == '0' || b[i+3] == '1') {
						if r, err := strconv.ParseUint(string(b[i+3:i+5]), 16, 8); err == nil && !allowedControl(rune(r)) {
							suspect = true
						}
					}
				}
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			deepest = max(deepest, depth)
		case '}', ']':
			depth--
		}
	}
	return suspect, deepest
}

// walk finds the string with a forbidden control character, token by
// token, to name its field.
func walk(body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var path []string // one entry per open container: a key or an index
	var inObject []bool
	var expectKey []bool
	var index []int
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return nil // malformed: bind answers it
		}
		depth := len(path)
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if depth >= MaxDepth { // scan counted otherwise: not valid JSON
					return nil
				}
				advance(path, inObject, expectKey, index)
				path = append(path, "")
				inObject = append(inObject, t == '{')
				expectKey = append(expectKey, t == '{')
				index = append(index, -1)
			case '}', ']':
				path, inObject, expectKey, index = path[:depth-1], inObject[:depth-1], expectKey[:depth-1], index[:depth-1]
			}
		case string:
			if depth > 0 && inObject[depth-1] && expectKey[depth-1] {
				if r := badRune(t); r >= 0 {
					return controlError(fieldName(path[:depth-1], t), r)
				}
				path[depth-1] = t
				expectKey[depth-1] = false
				continue
			}
			advance(path, inObject, expectKey, index)
			if r := badRune(t); r >= 0 {
				return controlError(fieldName(path, ""), r)
			}
		default:
			advance(path, inObject, expectKey, index)
		}
	}
}

// advance records that a value was read in the innermost container: an
// array moves to its next index, an object expects its next key.
func advance(path []string, inObject, expectKey []bool, index []int) {
	d := len(path)
	if d == 0 {
		return
	}
	if inObject[d-1] {
		expectKey[d-1] = true
		return
	}
	index[d-1]++
	path[d-1] = "[" + strconv.Itoa(index[d-1]) + "]"
}

// fieldName joins a path into "a.b[0].c"; extra is a last key, if any.
func fieldName(path []string, extra string) string {
	var b strings.Builder
	for _, p := range append(append([]string(nil), path...), extra) {
		if p == "" {
			continue
		}
		if b.Len() > 0 && !strings.HasPrefix(p, "[") {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// CheckForm refuses a form-encoded body (application/x-www-form-urlencoded)
// with a forbidden control character in any key or value.
func CheckForm(body []byte) error {
	values, err := url.ParseQuery(string(body))
	if err != nil {
		return nil // malformed: the handler's parse reports it
	}
	for k, vs := range values {
		if err := CheckString("", k); err != nil {
			return err
		}
		for _, v := range vs {
			if err := CheckString(k, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// isBidiControl reports whether r is a bidirectional embedding, override or
// isolate (U+202A–U+202E, U+2066–U+2069), which can make "abc‮gpj.exe" read
// as "abcexe.jpg".
func isBidiControl(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069
}

// Name cleans a name: bidirectional overrides and control characters
// removed (a client's body never reaches here with the latter, but an
// identity provider's claims may), spaces trimmed. It does not check the
// length (see Length).
func Name(s string) string {
	drop := func(r rune) bool { return isBidiControl(r) || r < 0x20 || r == 0x7f }
	if strings.IndexFunc(s, drop) >= 0 {
		s = strings.Map(func(r rune) rune {
			if drop(r) {
				return -1
			}
			return r
		}, s)
	}
	return strings.TrimSpace(s)
}

// Length refuses s when it is longer than max characters, with a message
// that names the field and the limit ("Name can be at most 200 characters").
func Length(field, s string, max int) error {
	if utf8.RuneCountInString(s) > max {
		return apperr.Invalidf("%s can be at most %s characters", field, formatInt(max))
	}
	return nil
}

// formatInt writes n with thousands separators (20,000).
func formatInt(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
