package fakellm

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
