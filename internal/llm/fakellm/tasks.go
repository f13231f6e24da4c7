package fakellm

import "slices"

// TeachAll teaches s every task Markwell's demo model answers with its own
// heuristics rather than [Generate]: the assignment wizard's AI assist
// (suggest_criteria, suggest_questions), the rubric tool
// (rubric_from_sheet), the transcription of handwritten pages
// (transcribe_page) and the grading processes (grade_answers,
// highlight_feedback, rubric_feedback, prompt_feedback, class_summary).
// cmd/fakellm and tests that want the demo model as `make dev` runs it call
// this.
func TeachAll(s *Server) {
	teachAssist(s)
	teachRubric(s)
	teachTranscribe(s)
	teachGrading(s)
}

// Taught lists, sorted, the tasks s has been taught with [Server.Handle]
// (by [TeachAll] or a test): the structured requests it answers with its
// own heuristics.
func (s *Server) Taught() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.tasks))
	for name := range s.tasks {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
