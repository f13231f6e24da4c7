package highlight

import (
	"fmt"
	"slices"
	"strings"

	"github.com/markwell/markwell/internal/apperr"
)

// MsgTextChanged is Validate's answer when the plain text of an edited
// highlightedText is not the student's text.
const MsgTextChanged = "The highlighted text must keep the student's words as they are: only highlights and comments can be changed."

// problemKind is why a "<" does not start a well-formed tag.
type problemKind int

const (
	bareLess   problemKind = iota // "<" not followed by a tag name
	strayClose                    // </key> with no opening tag
	malformed                     // <key …> without exactly comment="…"
	unclosed                      // <key comment="…"> never closed
	mismatched                    // <key …> closed by </other>
	nested                        // <other …> inside <key …>
	empty                         // <key …></key>
)

// problem is the first thing strict lexing found wrong.
type problem struct {
	kind       problemKind
	key, other string
}

// message is the problem in a sentence for the teacher.
func (p *problem) message() string {
	switch p.kind {
	case strayClose:
		return fmt.Sprintf("The closing tag </%s> has no opening tag.", p.key)
	case malformed:
		return fmt.Sprintf(`The highlight <%s> is not written correctly: it must look like <%s comment="…">text</%s>, with any " in the comment written as &quot;.`, p.key, p.key, p.key)
	case unclosed:
		return fmt.Sprintf("The highlight <%s> is not closed with </%s>.", p.key, p.key)
	case mismatched:
		return fmt.Sprintf("The highlight <%s> is closed with </%s>; it must be closed with </%s>.", p.key, p.other, p.key)
	case nested:
		return fmt.Sprintf("Highlights cannot be inside one another: <%s> starts inside <%s>.", p.other, p.key)
	case empty:
		return fmt.Sprintf("The highlight <%s> must cover some text.", p.key)
	default:
		return `The text has a "<" that does not start a highlight; write it as &lt;.`
	}
}

// Validate checks a teacher's edited highlightedText: tags are well formed
// and not nested, every tag names one of keys, and the plain text equals
// plainWant (a teacher edits comments and highlights, not the student's
// words; "\r\n" and "\n" count as the same line break). Errors are
// apperr.Invalid with a sentence for the teacher.
func Validate(tagged string, keys []string, plainWant string) error {
	toks, prob := lex(tagged, true)
	if prob != nil {
		return apperr.New(apperr.Invalid, prob.message())
	}
	var plain strings.Builder
	for _, t := range toks {
		if t.key != "" && !slices.Contains(keys, t.key) {
			return apperr.Invalidf("<%s> is not one of this assignment's highlighters.", t.key)
		}
		plain.WriteString(t.text)
	}
	if lineBreaks(plain.String()) != lineBreaks(plainWant) {
		return apperr.New(apperr.Invalid, MsgTextChanged)
	}
	return nil
}

// lineBreaks writes every "\r\n" as "\n".
func lineBreaks(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
