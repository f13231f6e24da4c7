package assignment

import (
	"errors"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/input"
)

// MaxKeyLength caps a highlighter key, in characters.
const MaxKeyLength = 25

// Hues are the highlighter colour hues; a colour is "<hue>-<shade>".
var Hues = []string{
	"red", "pink", "purple", "deepPurple", "indigo", "blue", "lightBlue", "cyan", "teal", "green",
	"lightGreen", "lime", "yellow", "amber", "orange", "deepOrange", "brown", "grey", "blueGrey",
}

// Shades are the highlighter colour shades.
var Shades = []string{"50", "100", "200", "300", "400", "500", "600", "700", "800", "900"}

// DefaultHighlighter is the first highlighter of a new feedback assignment.
var DefaultHighlighter = Highlighter{
	Key: "grammar", Color: "purple-500", Title: "Grammar",
	Description: "This highlighter should point out any grammar mistakes.",
}

// KnownColour reports whether c is a highlighter colour such as purple-500.
func KnownColour(c string) bool {
	hue, shade, ok := strings.Cut(c, "-")
	return ok && slices.Contains(Hues, hue) && slices.Contains(Shades, shade)
}

// KeyFromTitle makes a highlighter key from its title as the wizard does:
// apostrophes dropped, other punctuation separating words, camel case,
// leading digits skipped, at most [MaxKeyLength] characters ("Grammar &
// spelling!" → "grammarSpelling"). It is empty when the title has no
// letters.
func KeyFromTitle(title string) string {
	title = strings.NewReplacer("'", "", "’", "").Replace(title)
	words := strings.FieldsFunc(title, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	var b strings.Builder
	for i, w := range words {
		w = strings.ToLower(w)
		if i > 0 {
			r, size := utf8.DecodeRuneInString(w)
			w = string(unicode.ToUpper(r)) + w[size:]
		}
		b.WriteString(w)
	}
	key := []rune(strings.TrimLeftFunc(b.String(), unicode.IsDigit))
	if len(key) > 0 {
		key[0] = unicode.ToLower(key[0])
	}
	if len(key) > MaxKeyLength {
		key = key[:MaxKeyLength]
	}
	return string(key)
}

// ValidKey reports whether key is camel case (a lower-case letter, then
// letters and digits) of at most [MaxKeyLength] characters.
func ValidKey(key string) bool {
	if key == "" || utf8.RuneCountInString(key) > MaxKeyLength {
		return false
	}
	for i, r := range key {
		if i == 0 && (!unicode.IsLetter(r) || unicode.IsUpper(r)) {
			return false
		}
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// ValidateHighlighters checks highlighters one by one (title, key, unique
// key, colour) and returns them trimmed, each key derived from its title
// when left empty.
func ValidateHighlighters(hs []Highlighter) ([]Highlighter, error) {
	if len(hs) > MaxHighlighters {
		return nil, apperr.New(apperr.Invalid, MsgTooManyHighlight)
	}
	out := make([]Highlighter, len(hs))
	seen := make(map[string]bool, len(hs))
	for i, h := range hs {
		c := Highlighter{
			Title: input.Name(h.Title), Key: strings.TrimSpace(h.Key),
			Color: strings.TrimSpace(h.Color), Description: strings.TrimSpace(h.Description),
		}
		if c.Title == "" {
			return nil, apperr.New(apperr.Invalid, MsgHighlighterTitle)
		}
		if err := errors.Join(input.Length("Highlighter title", c.Title, input.MaxName),
			input.Length("Highlighter description", c.Description, input.MaxLongText)); err != nil {
			return nil, err
		}
		if c.Key == "" {
			c.Key = KeyFromTitle(c.Title)
		}
		if !ValidKey(c.Key) {
			return nil, apperr.New(apperr.Invalid, MsgHighlighterKey)
		}
		if seen[c.Key] {
			return nil, apperr.New(apperr.Invalid, MsgHighlighterDup)
		}
		seen[c.Key] = true
		if !KnownColour(c.Color) {
			return nil, apperr.New(apperr.Invalid, MsgColour)
		}
		out[i] = c
	}
	return out, nil
}
