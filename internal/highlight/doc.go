// Package highlight reads and writes the highlightedText of a feedback or
// rubric-feedback result: the submission's text with the passages a
// highlighter (the AI or a teacher) commented on wrapped in tags named after
// the assignment's highlight keys.
//
// # Encoding
//
// A highlightedText is plain text with highlight tags in it:
//
//	He went to <grammar comment="Use &quot;their&quot; here">there</grammar> house &amp; sat.
//
// The rules:
//   - A tag is exactly <key comment="…">passage</key>: the key is a
//     highlight key (a letter, then letters and digits), then one space,
//     then comment="…", then the passage, then </key> with the same key.
//     Nothing else is a tag: there is no other attribute, no other spacing,
//     no nesting and no empty passage.
//   - Everywhere outside the tag syntax (the student's text, the passages and
//     the comments), & < and > are written &amp; &lt; and &gt;; inside a
//     comment " is written &quot; as well. So a "<" in a highlightedText that
//     [Build] wrote always starts a real tag, and a student who types
//     <grammar comment="x"> gets text, never a highlight.
//   - Reading unescapes &amp; &lt; &gt; &quot; &apos; and &#39;, once, left
//     to right; any other "&" is a literal "&" ("&amp;lt;" reads as "&lt;").
//
// [Parse] never fails: a "<" that does not start a well-formed tag (unknown
// shape, unclosed, nested, mismatched, empty) is read as text, so a result
// always shows the student's words. [Validate] is the strict reader used when
// a teacher saves an edited highlightedText. Texts of spans and items are
// plain text and must be rendered as text, never as HTML.
//
// Line endings are kept as they are: "\r\n" in the student's text stays
// "\r\n" in the highlightedText and in [Plain].
package highlight
