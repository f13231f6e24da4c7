// Package chatdoc splits a chat model's message into the text shown in the
// chat and the document written between <document> … </document> tags
// (spec §4, "Chat document"), both for a complete message (Split) and for a
// message that arrives in pieces over server-sent events (Streamer), and
// keeps a chat's pastDocuments (Record).
//
// The rules, shared by Split and Streamer:
//
//   - Tags. An opening tag is "<", optional white space, the word
//     "document" in any ASCII letter case, optional white space, ">"; a
//     closing tag is the same with "/" (white space allowed around it) after
//     the "<". So "<document>", "<DOCUMENT>", "< Document >" and
//     "</ document>" are tags. Tags with attributes ("<document id=1>"),
//     self-closing tags ("<document/>") and other spellings are plain text.
//     White space is space, tab, CR and LF.
//   - Sections. A section runs from an opening tag to its matching closing
//     tag. Tags inside a section nest: an inner "<document>" … "</document>"
//     pair is kept as text of the document and does not end the section.
//   - Several sections. Every section is removed from the chat text; the
//     LAST section is the document (a model that rewrites the document
//     twice in one answer means its final version).
//   - Unclosed section. A section still open at the end of the message runs
//     to the end: a model cut off mid-document keeps what it wrote, and that
//     unfinished section is the document even when a complete one came
//     earlier (it is the last one).
//   - Stray closing tag. A closing tag outside any section stays in the text.
//   - Text. The chat text is the message with the sections (tags included)
//     cut out, byte for byte: nothing is trimmed, CRLF and any UTF-8 pass
//     through. One exception keeps the text free of opening tags: when the
//     text just before a removed section ends with the start of a tag (for
//     example "<doc"), a zero-width space (U+200B) is inserted there, so the
//     text after the section cannot complete a "<document>" tag.
//   - Document. The document is the last section's content with leading and
//     trailing white space trimmed. A section that is empty or only white
//     space counts as no document (ok is false), but it is still removed
//     from the text.
//
// Known limit: a "<document>" written inside a markdown code span or fence
// is a tag too; the splitter does not parse markdown.
package chatdoc

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// zeroWidthSpace separates text that would otherwise join into an opening
// tag once a section between its parts is removed.
const zeroWidthSpace = "\u200b"

// Split separates a complete model message into the text shown in the chat
// and the document between <document> tags, following the package rules.
// ok is false when the message has no document (no section, or only an
// empty one); text is then the message minus any empty sections.
func Split(message string) (text, document string, ok bool) {
	var s Streamer
	text = s.Write(message) + s.Close()
	document, _ = s.Document()
	return text, document, document != ""
}

// Streamer splits a message that arrives in pieces. Each Write returns the
// part of the chat text that is final: it never returns a partial tag such
// as "<docu" that could still become a tag, nor text that later turns out to
// belong to a document, nor half of a UTF-8 character. For any split of a
// message into pieces, the concatenation of every text returned by Write and
// Close equals Split(message).text, and Document after Close equals
// Split(message).document. The zero value is ready to use; a Streamer is not
// safe for concurrent use.
type Streamer struct {
	pending []byte          // input not yet decided: a possible partial tag
	depth   int             // nesting depth of <document> tags; 0 = outside
	doc     strings.Builder // content of the last (or current) section
	tail    []byte          // emitted text since its last '<', while that could start a tag
	held    []byte          // emitted text not yet returned: an incomplete UTF-8 character
	closed  bool
}

// Write adds the next piece of the message and returns the chat text that is
// now final (possibly empty). Write panics after Close.
func (s *Streamer) Write(piece string) (text string) {
	if s.closed {
		panic("chatdoc: Write after Close")
	}
	s.pending = append(s.pending, piece...)
	return s.flush(s.scan(false), false)
}

// Close ends the message and returns the rest of the chat text: a partial
// tag left at the end is text (or document text inside an open section), and
// a section still open runs to the end. Close is idempotent; after Close,
// Document returns the final document.
func (s *Streamer) Close() (text string) {
	if s.closed {
		return ""
	}
	out := s.scan(true)
	s.closed = true
	s.depth = 0
	return s.flush(out, true)
}

// Document returns the document so far: the content of the section being
// written when inDocument is true, otherwise the last complete section (or,
// after Close, the last section even if it was never closed). It is trimmed
// of surrounding white space and "" when there is none yet. While streaming,
// a possible partial tag and an incomplete UTF-8 character at its end are
// left out.
func (s *Streamer) Document() (doc string, inDocument bool) {
	d := s.doc.String()
	if s.depth > 0 {
		d = d[:len(d)-incompleteRune([]byte(d))]
	}
	return strings.TrimSpace(d), s.depth > 0
}

// scan consumes s.pending as far as it can be decided and returns the chat
// text it produced. With final set, the whole of s.pending is consumed.
func (s *Streamer) scan(final bool) []byte {
	var text []byte
	literal := func(b []byte) {
		if s.depth > 0 {
			s.doc.Write(b)
			return
		}
		text = append(text, b...)
		s.noteText(b)
	}
	p := s.pending
	for {
		i := bytes.IndexByte(p, '<')
		if i < 0 {
			literal(p)
			p = nil
			break
		}
		m, closing, n := matchTag(p[i:])
		if m == partial && !final {
			literal(p[:i])
			p = p[i:]
			break
		}
		if m != full {
			literal(p[:i+1])
			p = p[i+1:]
			continue
		}
		literal(p[:i])
		tag := p[i : i+n]
		p = p[i+n:]
		switch {
		case !closing && s.depth == 0:
			if s.tail != nil {
				text = append(text, zeroWidthSpace...)
				s.tail = nil
			}
			s.depth = 1
			s.doc.Reset()
		case !closing:
			s.depth++
			s.doc.Write(tag)
		case s.depth == 0:
			literal(tag) // stray closing tag
		case s.depth == 1:
			s.depth = 0
		default:
			s.depth--
			s.doc.Write(tag)
		}
	}
	s.pending = append(s.pending[:0], p...)
	return text
}

// noteText keeps s.tail, the emitted text from its last '<' while that is
// still the beginning of a tag.
func (s *Streamer) noteText(b []byte) {
	if i := bytes.LastIndexByte(b, '<'); i >= 0 {
		s.tail = append(s.tail[:0], b[i:]...)
	} else if s.tail != nil {
		s.tail = append(s.tail, b...)
	}
	if s.tail != nil {
		if m, closing, _ := matchTag(s.tail); m != partial || closing {
			s.tail = nil
		}
	}
}

// flush returns the text held back before plus out, keeping back an
// incomplete UTF-8 character at the end unless final.
func (s *Streamer) flush(out []byte, final bool) string {
	all := append(s.held, out...)
	keep := 0
	if !final {
		keep = incompleteRune(all)
	}
	s.held = append([]byte(nil), all[len(all)-keep:]...)
	return string(all[:len(all)-keep])
}

// incompleteRune returns how many bytes at the end of b are the start of a
// UTF-8 character that later bytes could still complete.
func incompleteRune(b []byte) int {
	for n := 1; n <= utf8.UTFMax-1 && n <= len(b); n++ {
		c := b[len(b)-n]
		if utf8.RuneStart(c) {
			if c >= utf8.RuneSelf && !utf8.FullRune(b[len(b)-n:]) {
				return n
			}
			return 0
		}
	}
	return 0
}

// tagMatch is how the bytes at a '<' relate to a tag.
type tagMatch int

const (
	noMatch tagMatch = iota // not a tag, whatever follows
	partial                 // a tag could still follow: the bytes end mid-tag
	full                    // a complete tag
)

const tagWord = "document"

// matchTag reports whether b, which starts with '<', starts with an opening
// or closing document tag, and the tag's length in bytes when full.
func matchTag(b []byte) (m tagMatch, closing bool, n int) {
	i := skipSpace(b, 1)
	if i < len(b) && b[i] == '/' {
		closing = true
		i = skipSpace(b, i+1)
	}
	for j := 0; j < len(tagWord); j, i = j+1, i+1 {
		if i == len(b) {
			return partial, closing, 0
		}
		if lowerASCII(b[i]) != tagWord[j] {
			return noMatch, closing, 0
		}
	}
	i = skipSpace(b, i)
	switch {
	case i == len(b):
		return partial, closing, 0
	case b[i] == '>':
		return full, closing, i + 1
	default:
		return noMatch, closing, 0
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
