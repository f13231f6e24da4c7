package fakellm

// TeachAll teaches s every task Markwell's demo model answers with its own
// heuristics rather than [Generate]: the assignment wizard's AI assist
// (suggest_criteria, suggest_questions) and the transcription of handwritten
// pages (transcribe_page). cmd/fakellm and tests that want the demo model as
// `make dev` runs it call this.
func TeachAll(s *Server) {
	teachAssist(s)
	teachTranscribe(s)
}
