package fakellm

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// documentAsk matches a message that asks for a document.
var documentAsk = regexp.MustCompile(`(?i)\b(write|draft|document|letter|lesson plans?|quiz(zes)?|worksheet|handout|rubric|outline|newsletter|email)\b`)

// revisionAsk matches a message that asks to change a document already
// written in the conversation.
var revisionAsk = regexp.MustCompile(`(?i)\b(change|edit|revise|update|rewrite|shorter|longer|simpler|add|remove|replace|make it|another version)\b`)

// documentTag finds a <document> section in an earlier answer.
var documentTag = regexp.MustCompile(`(?i)<\s*document\s*>`)

// currentDocument finds the document Markwell shows the model at the end of
// its system prompt (the teacher's current version, edits included), and
// versionRow the version this demo model wrote into a document's table.
var (
	currentDocument = regexp.MustCompile(`(?s)<document>\n(.*?)\n</document>`)
	versionRow      = regexp.MustCompile(`\| Version \| (\d+) \|`)
)

// chatReply is the demo model's free-form answer: a short text that says it
// is the demo model and describes the last user message, or, when that
// message asks for a document (or for a change to one written earlier in
// the conversation), a reply with a markdown document between <document>
// tags followed by a sentence.
func chatReply(req ChatRequest) string {
	var last string
	for _, m := range req.Messages {
		if m.Role == "user" {
			last = m.Text
		}
	}
	if ask, version, ok := documentRequest(req, last); ok {
		return documentReply(req, ask, last, version)
	}
	f := analyse(last)
	var b strings.Builder
	b.WriteString("This reply comes from Markwell's demo model, not from an AI provider. ")
	if f.words == 0 {
		b.WriteString("Your message had no text.")
	} else {
		first, _ := f.sentenceAt(0)
		fmt.Fprintf(&b, "Your message has %d words in %d sentences and begins \"%s\".", f.words, len(f.sentences), firstWords(first.Text, 12))
	}
	if n := req.Images(); n > 0 {
		fmt.Fprintf(&b, " It came with %d image(s), which the demo model cannot read.", n)
	}
	b.WriteString(" Configure an AI provider for real answers.")
	return b.String()
}

// documentRequest reports whether the reply should carry a document: the
// last user message asks for one, or asks for a change while an earlier
// answer holds one. ask is the message that asked for the document (the
// last such user message) and version counts the documents written so far,
// plus one.
func documentRequest(req ChatRequest, last string) (ask string, version int, ok bool) {
	version = 1
	for _, m := range req.Messages {
		switch {
		case (m.Role == "system" || m.Role == "developer") && currentDocument.MatchString(m.Text):
			// The conversation's answers hold only their chat text: the
			// document so far comes with the system prompt.
			doc := currentDocument.FindStringSubmatch(m.Text)[1]
			version = max(version, 2)
			if v := versionRow.FindStringSubmatch(doc); v != nil {
				if n, err := strconv.Atoi(v[1]); err == nil && n < 1000 {
					version = max(version, n+1)
				}
			}
		case m.Role == "assistant" && documentTag.MatchString(m.Text):
			version++
		case m.Role == "user" && documentAsk.MatchString(m.Text):
			ask = m.Text
		}
	}
	switch {
	case documentAsk.MatchString(last):
		return last, version, true
	case version > 1 && revisionAsk.MatchString(last):
		if ask == "" {
			ask = last
		}
		return ask, version, true
	}
	return "", 0, false
}

// documentKinds name the document from words of the request, first match
// wins.
var documentKinds = []struct {
	re   *regexp.Regexp
	name string
}{
	{regexp.MustCompile(`(?i)\blesson plans?\b`), "Lesson plan"},
	{regexp.MustCompile(`(?i)\bquiz(zes)?\b`), "Quiz"},
	{regexp.MustCompile(`(?i)\b(letter|email|newsletter)\b`), "Letter"},
	{regexp.MustCompile(`(?i)\brubric\b`), "Rubric"},
	{regexp.MustCompile(`(?i)\b(worksheet|handout)\b`), "Worksheet"},
}

// plain makes request text safe to quote in markdown: one line, no tags,
// table bars or emphasis marks.
var plain = strings.NewReplacer("<", "", ">", "", "|", "/", "`", "'", "*", "", "_", " ", "#", "", "[", "(", "]", ")", "\r", " ", "\n", " ")

// tag matches an HTML-like tag in request text.
var tag = regexp.MustCompile(`<[^<>]*>`)

// quote is at most n words of s, safe to put in markdown.
func quote(s string, n int) string {
	return firstWords(plain.Replace(tag.ReplaceAllString(s, "")), n)
}

// documentReply writes the demo model's document answer.
func documentReply(req ChatRequest, ask, last string, version int) string {
	kind := "Document"
	for _, k := range documentKinds {
		if k.re.MatchString(ask) {
			kind = k.name
			break
		}
	}
	f := analyse(ask)
	topic := quote(ask, 10)
	if first, ok := f.sentenceAt(0); ok {
		topic = quote(first.Text, 10)
	}
	if topic == "" {
		topic = "your request"
	}

	var d strings.Builder
	fmt.Fprintf(&d, "# %s: %s\n\n", kind, topic)
	fmt.Fprintf(&d, "This %s was drafted by Markwell's demo model from your request (%d words), not by an AI provider. "+
		"It shows how a document looks; configure an AI provider for real content.\n\n", strings.ToLower(kind), f.words)
	d.WriteString("## Outline\n\n")
	for _, item := range outline(kind, topic) {
		fmt.Fprintf(&d, "- %s\n", item)
	}
	for _, m := range req.Messages {
		if m.Role == "system" || m.Role == "developer" {
			fmt.Fprintf(&d, "- Follows the assistant's instructions: \"%s\"\n", quote(m.Text, 12))
			break
		}
	}
	if version > 1 {
		fmt.Fprintf(&d, "- Version %d, changed as you asked: \"%s\"\n", version, quote(last, 12))
	}
	d.WriteString("\n| Part | Detail |\n| --- | --- |\n")
	fmt.Fprintf(&d, "| Kind | %s |\n| Version | %d |\n| Words in your request | %d |\n", kind, version, f.words)

	var b strings.Builder
	fmt.Fprintf(&b, "This reply comes from Markwell's demo model. Here is version %d of the %s you asked for.\n\n", version, strings.ToLower(kind))
	b.WriteString("<document>\n")
	b.WriteString(d.String())
	b.WriteString("</document>\n\n")
	b.WriteString("Edit the document beside the chat, or ask me for changes.")
	return b.String()
}

// outline is the bulleted list of a document of the given kind.
func outline(kind, topic string) []string {
	switch kind {
	case "Lesson plan":
		return []string{
			"Learning goal: " + topic,
			"Starter (5 minutes): a question that connects to what pupils know",
			"Main activity (25 minutes): pupils work in pairs through three examples",
			"Plenary (10 minutes): each pupil explains one thing they learned",
		}
	case "Quiz":
		return []string{
			"Question 1: What is the main idea of " + topic + "?",
			"Question 2: Give one example and explain it.",
			"Question 3: What would you like to learn next, and why?",
		}
	case "Letter":
		return []string{
			"Dear parents and carers, this letter is about " + topic,
			"What pupils will do in class",
			"How you can help at home",
			"Whom to contact with questions",
		}
	case "Rubric":
		return []string{
			"Criterion 1: understanding of " + topic,
			"Criterion 2: use of evidence",
			"Criterion 3: clarity of writing",
		}
	}
	return []string{
		"Purpose: " + topic,
		"Main points: what the request asks for, in order",
		"Next step: review and edit this draft",
	}
}
