package fakellm

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// The AI-assist tasks of the assignment wizard (package assist).
const (
	TaskSuggestCriteria  = "suggest_criteria"
	TaskSuggestQuestions = "suggest_questions"
)

// demoCriterion is one criterion in the assist answers:
// {"description": string, "points": number}.
type demoCriterion struct {
	Description string  `json:"description"`
	Points      float64 `json:"points"`
}

type demoQuestion struct {
	Question string          `json:"question"`
	Criteria []demoCriterion `json:"criteria"`
}

// teachAssist teaches s the two assist tasks.
func teachAssist(s *Server) {
	s.Handle(TaskSuggestCriteria, func(req ChatRequest) (any, error) {
		q := tagged(req.UserText(), "question")
		return map[string]any{"criteria": criteriaFor(q)}, nil
	})
	s.Handle(TaskSuggestQuestions, func(req ChatRequest) (any, error) {
		sheet := tagged(req.UserText(), "assignment")
		qs := questionsIn(sheet)
		out := make([]demoQuestion, len(qs))
		for i, q := range qs {
			out[i] = demoQuestion{Question: q, Criteria: criteriaFor(q)}
		}
		return map[string]any{"questions": out}, nil
	})
}

// tagged returns the text between <tag> and </tag>, or all of text when the
// tags are missing.
func tagged(text, tag string) string {
	_, after, ok := strings.Cut(text, "<"+tag+">")
	if !ok {
		return strings.TrimSpace(text)
	}
	inner, _, _ := strings.Cut(after, "</"+tag+">")
	return strings.TrimSpace(inner)
}

// maxDemoQuestions caps the questions the demo model finds in a sheet.
const maxDemoQuestions = 20

var (
	// numberedLine is a line that starts with a question number: "1.",
	// "2)", "(3)", "4:", "Q5", "Question 6:" or "7 -".
	numberedLine = regexp.MustCompile(`^\s*(?:(?i:q(?:uestion)?)\s*\d{1,3}\s*[.):-]?|\(?\d{1,3}[.):]|\d{1,3}\s+[-–])\s*(.*)$`)
	// marksNote is a trailing marks annotation: "(4 marks)", "[2 pts]".
	marksNote = regexp.MustCompile(`(?i)\s*[(\[]\s*\d+\s*(?:marks?|points?|pts?)\s*[)\]]\s*\.?\s*$`)
)

// questionsIn finds the questions of an assignment sheet the way the demo
// model does: one per numbered line or line ending in '?', without its
// number or marks note. A sheet with neither gives one question per
// non-blank line. At most 20.
func questionsIn(sheet string) []string {
	var found, lines []string
	for _, line := range strings.Split(sheet, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		lines = append(lines, line)
		q, ok := line, false
		if m := numberedLine.FindStringSubmatch(line); m != nil {
			q, ok = m[1], true
		}
		q = strings.TrimSpace(marksNote.ReplaceAllString(q, ""))
		if strings.HasSuffix(q, "?") {
			ok = true
		}
		if ok && q != "" {
			found = append(found, q)
		}
	}
	if len(found) == 0 {
		found = lines
	}
	if len(found) > maxDemoQuestions {
		found = found[:maxDemoQuestions]
	}
	return found
}

// criteriaFor makes grading criteria from a question the way the demo model
// does: one per key phrase (at most three), worth 1 to 5 points by the
// phrase's length, and one point for a clear, complete answer.
func criteriaFor(question string) []demoCriterion {
	verb := commandVerb(question)
	phrases := keyPhrases(question, 3)
	out := make([]demoCriterion, 0, len(phrases)+1)
	for i, p := range phrases {
		words := len(strings.Fields(p))
		switch i {
		case 0:
			out = append(out, demoCriterion{Description: fmt.Sprintf("%s “%s” accurately", verb, p), Points: float64(min(5, 1+words))})
		case 1:
			out = append(out, demoCriterion{Description: "Shows understanding of “" + p + "”", Points: float64(min(5, words))})
		default:
			out = append(out, demoCriterion{Description: "Refers correctly to “" + p + "”", Points: float64(min(5, words))})
		}
	}
	if len(out) == 0 {
		out = append(out, demoCriterion{Description: "Gives a correct answer to the question", Points: 2})
	}
	out = append(out, demoCriterion{Description: "Answers clearly and completely, with a supporting example", Points: 1})
	return out
}

// commandVerbs maps a question's first word to the verb its first
// criterion starts with.
var commandVerbs = map[string]string{
	"explain": "Explains", "describe": "Describes", "compare": "Compares", "contrast": "Contrasts",
	"calculate": "Calculates", "identify": "Identifies", "define": "Defines", "discuss": "Discusses",
	"evaluate": "Evaluates", "analyse": "Analyses", "analyze": "Analyzes", "list": "Lists",
	"name": "Names", "state": "States", "outline": "Outlines", "justify": "Justifies",
	"why": "Explains why", "how": "Explains how", "what": "Identifies", "which": "Identifies",
	"solve": "Solves", "show": "Shows", "prove": "Proves", "summarise": "Summarises", "summarize": "Summarizes",
}

func commandVerb(question string) string {
	for _, w := range strings.Fields(question) {
		if v, ok := commandVerbs[strings.ToLower(strings.TrimFunc(w, notWordRune))]; ok {
			return v
		}
		break
	}
	return "Addresses"
}

// stopWords never start or join a key phrase.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but nor of to in on at for with by from as into onto about
		over under between among through during before after than then so such if is are was were be been being
		am do does did done has have had having it its it's this that these those there here what which who whom
		whose why how when where whether your you yours their they them his her he she we our us my me i
		explain describe discuss give list name state identify compare contrast evaluate analyse analyze define
		outline show write calculate use using solve prove justify summarise summarize consider suggest
		can could would should will shall may might must not no yes each any all some many much more most
		own other another one two three four five six first second third also just only very well way ways
		answer answers question questions example examples words sentence sentences paragraph below above
		following refer reference mark marks point points`) {
		stopWords[w] = true
	}
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// keyPhrases returns up to n phrases of the question: runs of up to four
// words that are not stop words, unbroken by punctuation, in order and
// without repeats.
func keyPhrases(question string, n int) []string {
	var out []string
	seen := map[string]bool{}
	var run []string
	flush := func() {
		for len(run) > 0 && len(out) < n {
			k := min(4, len(run))
			p := strings.Join(run[:k], " ")
			run = run[k:]
			if key := strings.ToLower(p); !seen[key] {
				seen[key] = true
				out = append(out, p)
			}
		}
		run = run[:0]
	}
	for _, field := range strings.Fields(question) {
		word := strings.TrimFunc(field, notWordRune)
		breaks := strings.IndexFunc(field[len(strings.TrimRightFunc(field, notWordRune)):], isBreak) >= 0
		if word == "" || stopWords[strings.ToLower(word)] {
			flush()
			continue
		}
		run = append(run, word)
		if breaks {
			flush()
		}
	}
	flush()
	return out
}

// isBreak reports punctuation that ends a phrase.
func isBreak(r rune) bool { return strings.ContainsRune(",;:.!?()[]\"“”", r) }
