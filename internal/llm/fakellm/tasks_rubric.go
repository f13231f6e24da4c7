package fakellm

import (
	"strings"
)

// TaskRubricFromSheet is the rubric tool's task (package assist): a rubric
// drafted from an assignment sheet.
const TaskRubricFromSheet = "rubric_from_sheet"

// maxDemoRubricCriteria caps the criteria found in a sheet; one more,
// about clarity, is always added.
const maxDemoRubricCriteria = 6

// demoRubric is the answer to rubric_from_sheet: {"name": string,
// "criteria": [{"criterionDescription": string, "levelDescriptions":
// [string]}]}.
type demoRubric struct {
	Name     string             `json:"name"`
	Criteria []demoRubricCriter `json:"criteria"`
}

type demoRubricCriter struct {
	CriterionDescription string   `json:"criterionDescription"`
	LevelDescriptions    []string `json:"levelDescriptions"`
}

// teachRubric teaches s the rubric tool's task.
func teachRubric(s *Server) {
	s.Handle(TaskRubricFromSheet, func(req ChatRequest) (any, error) {
		return rubricFor(tagged(req.UserText(), "assignment")), nil
	})
}

// rubricFor drafts a rubric from an assignment sheet the way the demo model
// does: named after the sheet's first line; one criterion per heading
// ("## …" lines) or, without headings, per question of the sheet (see
// questionsIn; the title line and blanks to fill in are skipped), at most
// six; then one about clarity. Each criterion has four levels, best first,
// about its key phrase.
func rubricFor(sheet string) demoRubric {
	var lines []string
	for _, l := range strings.Split(sheet, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	name := "Assignment rubric"
	if len(lines) > 0 {
		title := clipRunes(strings.TrimSpace(strings.TrimLeft(lines[0], "#")), 80)
		if title != "" {
			name = title
			if !strings.Contains(strings.ToLower(title), "rubric") {
				name += " rubric"
			}
		}
	}

	var topics []string
	for i, l := range lines {
		if i > 0 && strings.HasPrefix(l, "#") {
			if h := strings.TrimSpace(strings.TrimLeft(l, "#")); h != "" {
				topics = append(topics, h)
			}
		}
	}
	if len(topics) == 0 {
		body := sheet
		if len(lines) > 1 {
			_, body, _ = strings.Cut(sheet, lines[0]) // the title names the rubric
		}
		for _, q := range questionsIn(body) {
			if !strings.Contains(q, "__") && !strings.HasPrefix(q, "#") {
				topics = append(topics, q)
			}
		}
	}
	if len(topics) > maxDemoRubricCriteria {
		topics = topics[:maxDemoRubricCriteria]
	}

	out := demoRubric{Name: name}
	for _, t := range topics {
		focus := t
		if p := keyPhrases(t, 1); len(p) > 0 {
			focus = p[0]
		}
		focus = clipRunes(focus, 60)
		out.Criteria = append(out.Criteria, demoRubricCriter{
			CriterionDescription: clipRunes(t, 150),
			LevelDescriptions: []string{
				"Excellent: addresses “" + focus + "” fully and accurately, with well-chosen detail or evidence.",
				"Good: addresses “" + focus + "” accurately, with some detail or evidence.",
				"Developing: partly addresses “" + focus + "”; some points are missing, unclear or inaccurate.",
				"Beginning: barely addresses “" + focus + "”, or with major errors.",
			},
		})
	}
	out.Criteria = append(out.Criteria, demoRubricCriter{
		CriterionDescription: "Clarity and organisation",
		LevelDescriptions: []string{
			"Excellent: the work is clear, well organised and complete throughout.",
			"Good: the work is mostly clear and organised, with minor gaps.",
			"Developing: the work is sometimes unclear or hard to follow.",
			"Beginning: the work is unclear, disorganised or largely incomplete.",
		},
	})
	return out
}

// clipRunes cuts s to at most n characters, marking a cut with "…".
func clipRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return strings.TrimSpace(string(r[:n-1])) + "…"
	}
	return s
}
