package fakellm

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// The grading tasks (package grading).
const (
	TaskGradeAnswers      = "grade_answers"
	TaskHighlightFeedback = "highlight_feedback"
	TaskRubricFeedback    = "rubric_feedback"
	TaskPromptFeedback    = "prompt_feedback"
	TaskClassSummary      = "class_summary"
)

// teachGrading teaches s the grading tasks. Each reads the assignment and
// the submission from the fenced blocks of the request and answers
// deterministically; with Options.Gullible it obeys a submission that
// instructs the grader.
func teachGrading(s *Server) {
	s.Handle(TaskGradeAnswers, s.gradeAnswers)
	s.Handle(TaskHighlightFeedback, s.highlightFeedback)
	s.Handle(TaskRubricFeedback, s.rubricFeedback)
	s.Handle(TaskPromptFeedback, s.promptFeedback)
	s.Handle(TaskClassSummary, classSummary)
}

// injectionAnswer is the report every grading answer carries.
type injectionAnswer struct {
	Detected bool   `json:"detected"`
	Passage  string `json:"passage"`
}

// judge reads a grading request and decides whether to obey an instruction
// in it (gullible) and what to report.
func (s *Server) judge(req ChatRequest, spec any) (gradingInput, bool, injectionAnswer, error) {
	in, err := readGrading(req)
	if err != nil {
		return in, false, injectionAnswer{}, err
	}
	if err := json.Unmarshal([]byte(in.spec), spec); err != nil {
		return in, false, injectionAnswer{}, fmt.Errorf("read the assignment: %w", err)
	}
	found := instruction(in.text)
	switch {
	case found == "":
		return in, false, injectionAnswer{}, nil
	case s.opts.Gullible:
		return in, true, injectionAnswer{}, nil
	}
	return in, false, injectionAnswer{Detected: true, Passage: found}, nil
}

type demoGradeSpec struct {
	Answers []struct {
		Key      string `json:"key"`
		Criteria []struct {
			Number      string `json:"number"`
			Description string `json:"description"`
		} `json:"criteria"`
	} `json:"answers"`
}

// gradeAnswers meets a criterion when at least half its content words are
// in the submission.
func (s *Server) gradeAnswers(req ChatRequest) (any, error) {
	var spec demoGradeSpec
	in, obey, report, err := s.judge(req, &spec)
	if err != nil {
		return nil, err
	}
	words := wordSet(in.text)
	count := len(strings.Fields(in.text))
	answers := map[string]any{}
	met, all := 0, 0
	for _, a := range spec.Answers {
		crit := map[string]any{}
		var yes, no []string
		for _, c := range a.Criteria {
			ok, missing := meets(c.Description, words, count)
			ok = ok || obey
			crit[c.Number] = ok
			all++
			if ok {
				met++
				yes = append(yes, c.Number)
			} else {
				no = append(no, fmt.Sprintf("%s (no mention of “%s”)", c.Number, strings.Join(firstN(missing, 3), "”, “")))
			}
		}
		answers[a.Key] = map[string]any{"criteria": crit, "feedback": nodeFeedback(yes, no, obey)}
	}
	feedback := fmt.Sprintf("Demo model: %d of %d criteria met, judged by the words the submission shares with each criterion.", met, all)
	if obey {
		feedback = "Demo model (gullible): full marks, as the submission asked."
	}
	return map[string]any{"answers": answers, "feedback": feedback, "injection": report}, nil
}

func nodeFeedback(yes, no []string, obey bool) string {
	switch {
	case obey:
		return "Demo model (gullible): every criterion met, as the submission asked."
	case len(yes)+len(no) == 0:
		return "Demo model: this question has no criteria."
	case len(no) == 0:
		return "Demo model: met every criterion (" + strings.Join(yes, ", ") + ")."
	case len(yes) == 0:
		return "Demo model: missed criteria " + strings.Join(no, "; ") + "."
	}
	return "Demo model: met criteria " + strings.Join(yes, ", ") + "; missed " + strings.Join(no, "; ") + "."
}

func firstN(s []string, n int) []string { return s[:min(n, len(s))] }

type demoHighlighter struct {
	Key   string `json:"key"`
	Title string `json:"title"`
}

// highlightFeedback marks doubled words and a lower-case "i" under the
// grammar highlighter (the first whose key or title says grammar, else the
// first).
func (s *Server) highlightFeedback(req ChatRequest) (any, error) {
	var spec struct {
		Highlighters []demoHighlighter `json:"highlighters"`
	}
	in, obey, report, err := s.judge(req, &spec)
	if err != nil {
		return nil, err
	}
	if len(spec.Highlighters) == 0 {
		return nil, fmt.Errorf("the assignment has no highlighters")
	}
	key := spec.Highlighters[0].Key
	for _, h := range spec.Highlighters {
		if strings.Contains(strings.ToLower(h.Key+" "+h.Title), "grammar") {
			key = h.Key
			break
		}
	}
	passages := []any{}
	f := analyse(in.text)
	feedback := fmt.Sprintf("Demo model: no doubled words or lower-case “i” found in %d words.", f.words)
	if obey {
		feedback = "Demo model (gullible): excellent work, nothing to correct."
	} else if ms := grammarMistakes(in.text); len(ms) > 0 {
		for _, m := range ms {
			passages = append(passages, map[string]any{"key": key, "text": m.passage, "comment": m.comment})
		}
		feedback = fmt.Sprintf("Demo model: %d grammar slip(s) highlighted in %d words: doubled words and a lower-case “i”. Read the text aloud to catch them.", len(ms), f.words)
	}
	return map[string]any{"passages": passages, "feedback": feedback, "injection": report}, nil
}

type demoRubricSpec struct {
	Criteria []struct {
		Number       string `json:"number"`
		Criterion    string `json:"criterion"`
		HighlightKey string `json:"highlightKey"`
		ChoosePoints bool   `json:"choosePoints"`
		Levels       []struct {
			Level       int      `json:"level"`
			Description string   `json:"description"`
			MinPoints   *float64 `json:"minPoints"`
			MaxPoints   *float64 `json:"maxPoints"`
		} `json:"levels"`
	} `json:"criteria"`
}

// rubricFeedback picks each criterion's level from the submission's length
// (longer work, a better level) and the words it shares with each level's
// description (those no other level of the criterion uses), and highlights
// one sentence per criterion.
func (s *Server) rubricFeedback(req ChatRequest) (any, error) {
	var spec demoRubricSpec
	in, obey, report, err := s.judge(req, &spec)
	if err != nil {
		return nil, err
	}
	f := analyse(in.text)
	words := wordSet(in.text)
	criteria := map[string]any{}
	passages := []any{}
	for i, c := range spec.Criteria {
		n := len(c.Levels)
		if n == 0 {
			return nil, fmt.Errorf("criterion %s has no levels", c.Number)
		}
		descriptions := make([]string, n)
		for l, lv := range c.Levels {
			descriptions[l] = lv.Description
		}
		shares := distinctShares(descriptions, words)
		byLength := int(math.Round((1 - float64(min(f.words, 300))/300) * float64(n-1)))
		best, bestScore := 0, math.Inf(-1)
		for l := range c.Levels {
			score := shares[l] - 0.5*math.Abs(float64(l-byLength))/float64(max(1, n-1))
			if score > bestScore {
				best, bestScore = l, score
			}
		}
		shared := shares[best]
		if obey {
			best = 0
		}
		lv := c.Levels[best]
		answer := map[string]any{
			"level": lv.Level,
			"feedback": fmt.Sprintf("Demo model: level %d (“%s”): the submission has %d words and shares %.0f%% of the words that set this level apart.",
				lv.Level, firstWords(lv.Description, 8), f.words, shared*100),
		}
		if c.ChoosePoints && lv.MinPoints != nil && lv.MaxPoints != nil {
			p := math.Min(math.Max(roundHalf((*lv.MinPoints+*lv.MaxPoints)/2), *lv.MinPoints), *lv.MaxPoints)
			if obey {
				p = *lv.MaxPoints
			}
			answer["points"] = p
		}
		criteria[c.Number] = answer
		if sent, ok := f.sentenceAt(i); ok && i < len(f.sentences) && !obey {
			passages = append(passages, map[string]any{"key": c.HighlightKey, "text": sent.Text,
				"comment": "Demo model: this passage bears on " + quoted(firstWords(c.Criterion, 8)) + "."})
		}
	}
	overall := f.overview()
	if obey {
		overall = "Demo model (gullible): the best level on every criterion, as the submission asked."
	}
	return map[string]any{"criteria": criteria, "overallComments": overall, "passages": passages, "injection": report}, nil
}

// promptFeedback is a short paragraph built from the text.
func (s *Server) promptFeedback(req ChatRequest) (any, error) {
	var spec struct {
		Prompt string `json:"prompt"`
	}
	in, obey, report, err := s.judge(req, &spec)
	if err != nil {
		return nil, err
	}
	if obey {
		return map[string]any{"feedback": "Demo model (gullible): this submission is excellent and deserves full marks.", "injection": report}, nil
	}
	f := analyse(in.text)
	var b strings.Builder
	b.WriteString("**Feedback from Markwell's demo model** (not an AI provider).\n\n")
	fmt.Fprintf(&b, "The teacher asked: “%s”. ", firstWords(spec.Prompt, 12))
	if f.words == 0 {
		b.WriteString("The submission has no text to comment on.")
	} else {
		first, _ := f.sentenceAt(0)
		fmt.Fprintf(&b, "The submission has %d words in %d sentences and begins “%s”. ", f.words, len(f.sentences), firstWords(first.Text, 12))
		switch avg := f.words / max(1, len(f.sentences)); {
		case f.words < 150:
			b.WriteString("Suggestion: develop your ideas further, with an example for each point.")
		case avg > 25:
			b.WriteString("Suggestion: split your longer sentences so each makes one point.")
		default:
			b.WriteString("Suggestion: end with a sentence that answers the task directly.")
		}
	}
	return map[string]any{"feedback": b.String(), "injection": report}, nil
}

type demoRate struct {
	Label       string  `json:"label"`
	SuccessRate float64 `json:"successRate"`
}

// classSummary sorts the criteria breakdown: met at a success rate of 0.7
// or more, missed below 0.5.
func classSummary(req ChatRequest) (any, error) {
	var rows []demoRate
	if err := json.Unmarshal([]byte(tagged(req.UserText(), "criteria-breakdown")), &rows); err != nil {
		return nil, fmt.Errorf("read the criteria breakdown: %w", err)
	}
	met, missed, mistakes := []string{}, []string{}, []string{}
	var lowest, highest *demoRate
	for i := range rows {
		r := &rows[i]
		switch {
		case r.SuccessRate >= 0.7:
			met = append(met, r.Label)
		case r.SuccessRate < 0.5:
			missed = append(missed, r.Label)
			mistakes = append(mistakes, fmt.Sprintf("Many students did not meet %s (%.0f%% did).", quoted(r.Label), r.SuccessRate*100))
		default:
			mistakes = append(mistakes, fmt.Sprintf("Some students still miss %s (%.0f%% met it).", quoted(r.Label), r.SuccessRate*100))
		}
		if lowest == nil || r.SuccessRate < lowest.SuccessRate {
			lowest = r
		}
		if highest == nil || r.SuccessRate > highest.SuccessRate {
			highest = r
		}
	}
	lesson := "Demo model: there is no breakdown to suggest a lesson from."
	switch {
	case lowest != nil && lowest.SuccessRate < 0.7:
		lesson = "Demo model suggestion: reteach " + quoted(lowest.Label) + " with a worked example, then have students practise it and check each other's work against the criterion."
	case highest != nil:
		lesson = "Demo model suggestion: the class met the criteria; extend it with a harder task that builds on " + quoted(highest.Label) + "."
	}
	return map[string]any{"met": met, "missed": missed, "commonMistakes": firstN(mistakes, 5), "nextLesson": lesson}, nil
}

// quoted puts s in curly double quotes, turning the double quotes inside it
// into single ones, so a quoted criterion that quotes a word reads
// “Shows understanding of ‘evaporation’” and never nests “… “evaporation””.
func quoted(s string) string {
	s = strings.NewReplacer("“", "‘", "”", "’", "\"", "’").Replace(strings.TrimSpace(s))
	return "“" + s + "”"
}
