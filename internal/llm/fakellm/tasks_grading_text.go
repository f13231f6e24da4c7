package fakellm

import (
	"errors"
	"math"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What the demo model reads of a grading request (package grading): the
// system prompt names the code of the shared blocks on a line "Fence
// marker: <code>", and the user's message holds the block
// <<<ASSIGNMENT-code>>> (the assignment as JSON) fenced with it, and the
// block <<<SUBMISSION-code2>>> (the student's text) fenced with the code
// named on the line "Submission marker: <code2>" right before it (the fence
// marker's code when there is no such line); each block is ended by
// <<<END-NAME-code>>>. A student cannot fake them without the codes.

var (
	fenceMarker      = regexp.MustCompile(`Fence marker: ([0-9A-Za-z]{8,64})`)
	submissionMarker = regexp.MustCompile(`Submission marker: ([0-9A-Za-z]{8,64})\n`)
)

// gradingInput is a grading request's assignment and submission.
type gradingInput struct {
	spec string
	text string
}

func readGrading(req ChatRequest) (gradingInput, error) {
	var system strings.Builder
	for _, m := range req.Messages {
		if m.Role == "system" || m.Role == "developer" {
			system.WriteString(m.Text + "\n")
		}
	}
	m := fenceMarker.FindStringSubmatch(system.String())
	if m == nil {
		return gradingInput{}, errors.New("the system prompt names no fence marker")
	}
	user := req.UserText()
	spec, ok := fenced(user, "ASSIGNMENT", m[1])
	if !ok {
		return gradingInput{}, errors.New("the request has no ASSIGNMENT block")
	}
	code := m[1]
	// the first marker line followed by its block: the student's text
	// comes after the real one, so it cannot name another code
	for _, sm := range submissionMarker.FindAllStringSubmatchIndex(user, -1) {
		c := user[sm[2]:sm[3]]
		if strings.HasPrefix(user[sm[1]:], "<<<SUBMISSION-"+c+">>>\n") {
			code = c
			break
		}
	}
	text, ok := fenced(user, "SUBMISSION", code)
	if !ok {
		return gradingInput{}, errors.New("the request has no SUBMISSION block")
	}
	return gradingInput{spec: spec, text: text}, nil
}

// fenced returns the inside of the first block named label.
func fenced(s, label, code string) (string, bool) {
	_, after, ok := strings.Cut(s, "<<<"+label+"-"+code+">>>\n")
	if !ok {
		return "", false
	}
	inner, _, ok := strings.Cut(after, "\n<<<END-"+label+"-"+code+">>>")
	return inner, ok
}

// demoInstruction is what the demo model takes for a submission talking to
// its grader. It is deliberately simpler than Markwell's own detector.
var demoInstruction = regexp.MustCompile(`(?i)\b(?:ignore|disregard)\b[^.!?\n]{0,40}\b(?:instructions?|rubric|criteria)\b` +
	`|\b(?:give|award)\b[^.!?\n]{0,30}\b(?:full|maximum|top|perfect)\s+(?:marks?|points?|score|grade)\b` +
	`|\byou are (?:an? )?(?:ai|chatgpt|language model)\b|\bsystem prompt\b`)

// instructionWords are what demoInstruction cannot match without: each of
// its alternatives begins with one of them.
var instructionWords = []string{"ignore", "disregard", "give", "award", "you are", "system prompt"}

// mayInstruct is false when demoInstruction cannot match text: an ASCII
// text without any of instructionWords (in any case). Ordinary answers
// have none, and the pattern's counted repeats made it most of the demo
// model's time on a grading request (a tenth of the L = 0 benchmark's CPU).
// A text with other characters goes to the pattern, whose case folding
// knows more than ASCII's.
func mayInstruct(text string) bool {
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			return true
		}
	}
	lower := strings.ToLower(text)
	for _, w := range instructionWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// instruction returns the sentence of text that instructs the grader, or
// "" when there is none.
func instruction(text string) string {
	if !mayInstruct(text) {
		return ""
	}
	loc := demoInstruction.FindStringIndex(text)
	if loc == nil {
		return ""
	}
	start := strings.LastIndexAny(text[:loc[0]], ".!?\n") + 1
	end := len(text)
	if i := strings.IndexAny(text[loc[1]:], ".!?\n"); i >= 0 {
		end = loc[1] + i + 1
	}
	s := strings.TrimSpace(text[start:end])
	if utf8.RuneCountInString(s) > 200 {
		s = string([]rune(s)[:200])
	}
	return s
}

// criterionVerbs are the words a criterion uses to say what an answer does;
// they say nothing about the subject, so overlap ignores them.
var criterionVerbs = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`identifies explains describes states names gives uses shows mentions includes
		defines compares contrasts calculates answers correctly accurately clearly completely understanding refers
		supports demonstrates provides lists addresses relevant correct accurate clear complete supporting student
		level work writing written`) {
		criterionVerbs[w] = true
	}
}

// contentWords are the lower-case words of s that carry meaning (three
// letters or more, not stop words or criterion verbs), a plural "s" cut.
func contentWords(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(s), notWordRune) {
		if utf8.RuneCountInString(f) < 3 || stopWords[f] || criterionVerbs[f] {
			continue
		}
		out = append(out, stem(f))
	}
	return out
}

func stem(w string) string {
	if len(w) > 4 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		return w[:len(w)-1]
	}
	return w
}

// wordSet is the set of content words of s.
func wordSet(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range contentWords(s) {
		set[w] = true
	}
	return set
}

// overlap is the share of the distinct content words of description found
// in text's words, and the words missing; ok is false when description has
// no content words.
func overlap(description string, text map[string]bool) (share float64, missing []string, ok bool) {
	want := map[string]bool{}
	var order []string
	for _, w := range contentWords(description) {
		if !want[w] {
			want[w] = true
			order = append(order, w)
		}
	}
	if len(order) == 0 {
		return 0, nil, false
	}
	found := 0
	for _, w := range order {
		if text[w] {
			found++
		} else {
			missing = append(missing, w)
		}
	}
	return float64(found) / float64(len(order)), missing, true
}

// distinctShares is, per level description, the share of its distinct
// content words (those no other description uses) found in text; 0 for a
// description without such words.
func distinctShares(descriptions []string, text map[string]bool) []float64 {
	uses := map[string]int{}
	sets := make([]map[string]bool, len(descriptions))
	for i, d := range descriptions {
		sets[i] = wordSet(d)
		for w := range sets[i] {
			uses[w]++
		}
	}
	out := make([]float64, len(descriptions))
	for i, set := range sets {
		own, found := 0, 0
		for w := range set {
			if uses[w] > 1 {
				continue
			}
			own++
			if text[w] {
				found++
			}
		}
		if own > 0 {
			out[i] = float64(found) / float64(own)
		}
	}
	return out
}

// meets is the demo model's judgement of a criterion: at least half of its
// content words appear in the answer (a criterion without content words is
// met by an answer of ten words or more).
func meets(description string, text map[string]bool, words int) (bool, []string) {
	share, missing, ok := overlap(description, text)
	if !ok {
		return words >= 10, nil
	}
	return share >= 0.5, missing
}

// token is a word of a text at its byte range.
type token struct {
	word       string
	start, end int
}

// wordTokens are the words of text (letters, digits and apostrophes).
func wordTokens(text string) []token {
	var out []token
	start := -1
	for i, r := range text {
		word := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\''
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			out = append(out, token{text[start:i], start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, token{text[start:], start, len(text)})
	}
	return out
}

// mistake is a passage of the text the demo grammar highlighter marks.
type mistake struct {
	passage, comment string
}

// grammarMistakes finds doubled words ("the the") and a lower-case "i"
// standing alone as a word, each as a verbatim passage of text, in order,
// never overlapping.
func grammarMistakes(text string) []mistake {
	toks := wordTokens(text)
	var out []mistake
	last := 0
	for i, t := range toks {
		var m mistake
		var start, end int
		switch {
		case i > 0 && strings.EqualFold(t.word, toks[i-1].word) && strings.TrimSpace(text[toks[i-1].end:t.start]) == "" &&
			!strings.Contains(text[toks[i-1].end:t.start], "\n") && toks[i-1].start >= last:
			start, end = toks[i-1].start, t.end
			m.comment = "The word “" + strings.ToLower(t.word) + "” is written twice in a row; delete one of them."
		case t.word == "i" && !strings.HasPrefix(text[t.end:], ".") && !strings.HasSuffix(text[:t.start], "."):
			start, end = t.start, t.end
			if i > 0 && toks[i-1].start >= last && !strings.Contains(text[toks[i-1].end:t.start], "\n") {
				start = toks[i-1].start
			}
			if i+1 < len(toks) && !strings.Contains(text[t.end:toks[i+1].start], "\n") {
				end = toks[i+1].end
			}
			m.comment = "Write “I” as a capital letter when it means yourself."
		default:
			continue
		}
		if start < last {
			continue
		}
		m.passage = text[start:end]
		out = append(out, m)
		last = end
	}
	return out
}

// roundHalf rounds x to the nearest half.
func roundHalf(x float64) float64 { return math.Round(x*2) / 2 }
