package llm

import (
	"encoding/json"
	"strings"
)

// schemaIntro begins the instructions [SchemaInstructions] writes; the task
// name follows it in quotes, then schemaIntroEnd and the schema.
const (
	schemaIntro    = "Answer with one JSON object and nothing else: no code fence, no text before or after it. The object must follow this JSON schema, named \""
	schemaIntroEnd = "\":\n"
)

// SchemaInstructions tells a model without structured outputs what to answer:
// one JSON object and nothing else, following schema (named task), which is
// given as compact JSON. [OpenAI.CompleteJSON] appends it to the system
// prompt in the json_object and prompt modes; it contains the word "JSON",
// which JSON mode requires of the prompt.
func SchemaInstructions(task string, schema map[string]any) string {
	b, err := json.Marshal(schema)
	if err != nil {
		// A schema is built from JSON values; one that is not cannot be
		// sent in any mode, and CompleteJSON reports it when sending.
		b = []byte("{}")
	}
	return schemaIntro + task + schemaIntroEnd + string(b)
}

// ParseSchemaInstructions finds the instructions [SchemaInstructions] wrote
// in a system prompt (the last ones, when there are several) and returns
// their task and schema; ok is false when system carries none. The demo
// model uses it to recognise the task of a request without json_schema.
func ParseSchemaInstructions(system string) (task string, schema map[string]any, ok bool) {
	i := strings.LastIndex(system, schemaIntro)
	if i < 0 {
		return "", nil, false
	}
	rest := system[i+len(schemaIntro):]
	j := strings.Index(rest, schemaIntroEnd)
	if j < 0 || !taskName.MatchString(rest[:j]) {
		return "", nil, false
	}
	task = rest[:j]
	dec := json.NewDecoder(strings.NewReader(rest[j+len(schemaIntroEnd):]))
	if err := dec.Decode(&schema); err != nil || schema == nil {
		return "", nil, false
	}
	return task, schema, true
}

// StripSchemaInstructions returns system without the instructions
// [SchemaInstructions] wrote (and the blank line [OpenAI.CompleteJSON] puts
// before them): the system prompt as the caller wrote it. Without
// instructions it returns system unchanged.
func StripSchemaInstructions(system string) string {
	i := strings.LastIndex(system, schemaIntro)
	if i < 0 {
		return system
	}
	rest := system[i+len(schemaIntro):]
	j := strings.Index(rest, schemaIntroEnd)
	if j < 0 {
		return system
	}
	dec := json.NewDecoder(strings.NewReader(rest[j+len(schemaIntroEnd):]))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return system
	}
	end := i + len(schemaIntro) + j + len(schemaIntroEnd) + int(dec.InputOffset())
	return strings.TrimSuffix(system[:i], "\n\n") + system[end:]
}

// withInstructions is the system prompt of the json_object and prompt
// modes: the caller's, then the schema instructions.
func withInstructions(system, task string, schema map[string]any) string {
	ins := SchemaInstructions(task, schema)
	if system == "" {
		return ins
	}
	return system + "\n\n" + ins
}
