package llm

import (
	"bytes"
	"encoding/json"
	"strings"
)

// maxExtractTries bounds how many '{' [ExtractJSON] tries to decode an
// object from, so that a long answer full of braces costs linear time.
const maxExtractTries = 64

// ExtractJSON finds the JSON object in a model's free-form answer: the
// contents of a ```json (or plain ```) code fence anywhere in the text,
// else the first '{' from which a whole JSON object decodes, with prose
// before and after it ignored. Braces inside JSON strings are no trouble.
// At most a bounded number of '{' are tried. No object is an error
// wrapping [ErrBadOutput].
func ExtractJSON(text string) (string, error) {
	tries := 0
	for _, block := range fencedBlocks(text) {
		if obj, ok := objectAt(block, 0); ok {
			return obj, nil
		}
		tries++
	}
	for i := 0; i < len(text) && tries < maxExtractTries; i++ {
		j := strings.IndexByte(text[i:], '{')
		if j < 0 {
			break
		}
		i += j
		tries++
		if obj, ok := objectAt(text, i); ok {
			return obj, nil
		}
	}
	return "", &extractError{}
}

// extractError says that an answer holds no JSON object.
type extractError struct{}

func (*extractError) Error() string { return "answer holds no JSON object" }
func (*extractError) Unwrap() error { return ErrBadOutput }

// objectAt decodes the JSON value that starts at text[i] (after white
// space) and returns its text when it is an object.
func objectAt(text string, i int) (string, bool) {
	s := strings.TrimLeft(text[i:], " \t\r\n")
	if !strings.HasPrefix(s, "{") {
		return "", false
	}
	dec := json.NewDecoder(strings.NewReader(s))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return "", false
	}
	return string(bytes.TrimSpace(raw)), true
}

// maxFences bounds how many code fences [ExtractJSON] looks into.
const maxFences = 16

// fencedBlocks returns the contents of the ``` code fences in text, those
// marked json first, each without its info line.
func fencedBlocks(text string) []string {
	var marked, other []string
	rest := text
	for len(marked)+len(other) < maxFences {
		open := strings.Index(rest, "```")
		if open < 0 {
			break
		}
		body := rest[open+3:]
		nl := strings.IndexByte(body, '\n')
		if nl < 0 {
			break
		}
		info := strings.TrimSpace(body[:nl])
		body = body[nl+1:]
		end := strings.Index(body, "```")
		if end < 0 {
			break
		}
		if strings.EqualFold(info, "json") {
			marked = append(marked, body[:end])
		} else if info == "" {
			other = append(other, body[:end])
		}
		rest = body[end+3:]
	}
	return append(marked, other...)
}
