// Package conformance holds no code, only a test: it drives every code path
// that asks a model for structured output (each assignment type and its
// variations through grading.Run, the class summary, the wizard's assist
// calls, the rubric tool, the transcription of handwritten pages and the
// agreement check's regrades) against the demo model, records each request
// Markwell sends, and checks every schema with llm.CheckStrict, the subset
// of JSON Schema a strict structured-output provider (OpenAI, Azure)
// accepts. A task the demo model is taught, a Task constant or an
// assignment type the AI grades that no recorded request covers fails the
// test, so a new task cannot go unchecked.
package conformance
