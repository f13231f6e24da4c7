package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/assist"
	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/llm/llmtest"
	"github.com/markwell/markwell/internal/process"
	"github.com/markwell/markwell/internal/rubric"
	"github.com/markwell/markwell/internal/store"
)

// demo is the real openai-go client talking HTTP to the demo model, taught
// as `make dev` runs it. It always sends json_schema (never falling back to
// JSON mode), so the demo model checks every schema as a strict provider
// does.
func demo(t *testing.T, opts fakellm.Options) (llm.Client, *fakellm.Server) {
	t.Helper()
	srv := fakellm.New(opts)
	fakellm.TeachAll(srv)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	client, err := llm.NewOpenAI(llm.Config{BaseURL: ts.URL + "/v1", Model: fakellm.DefaultModel, OutputMode: llm.ModeJSONSchema})
	require.NoError(t, err)
	return client, srv
}

// sent is one structured request Markwell sent, and the code path that
// sent it.
type sent struct {
	path string
	req  llm.Request
}

// recorder is a model (an llmtest.Mock) that records every structured
// request and passes it on to a real model, so the code paths go on as
// they do in production.
type recorder struct {
	mu   sync.Mutex
	path string
	sent []sent
}

func record(model llm.Client) (*recorder, *llmtest.Mock) {
	r := &recorder{}
	return r, &llmtest.Mock{CompleteJSONFunc: func(ctx context.Context, req llm.Request, out any) error {
		r.mu.Lock()
		r.sent = append(r.sent, sent{path: r.path, req: req})
		r.mu.Unlock()
		_, err := model.CompleteJSON(ctx, req, out)
		return err
	}}
}

// codePath is one way Markwell asks a model for structured output.
type codePath struct {
	name string
	run  func(ctx context.Context, model llm.Client) error
}

func ptr[T any](v T) *T { return &v }

var questionRubricID = uuid.MustParse("0b9f6a52-6a0e-4d8a-9f7e-2f1f3a0c5d11")

// questions is a grade assignment with a part, a question with a rubric
// attached and a question without criteria (an empty criteria object).
func questions() []assignment.Question {
	return []assignment.Question{
		{QuestionText: "Explain photosynthesis.", Criteria: []assignment.Criterion{
			{Description: "Names chlorophyll pigment", Points: 2},
			{Description: "Mentions glucose sugar", Points: 3},
		}, Subquestions: []assignment.Question{
			{QuestionText: "Where does it happen?", Context: "One sentence is enough.",
				Criteria: []assignment.Criterion{{Description: "Chloroplasts in leaf cells", Points: 1}}},
		}},
		{QuestionText: "Describe the water cycle.", RubricID: ptr(questionRubricID.String()), Criteria: []assignment.Criterion{
			{Description: "Evaporation from oceans", Points: 2},
			{Description: "Condensation forms clouds", Points: 2},
		}},
		{QuestionText: "Draw a labelled diagram of a leaf (not graded)."},
	}
}

func questionRubrics() map[uuid.UUID]rubric.Rubric {
	return map[uuid.UUID]rubric.Rubric{questionRubricID: {ID: questionRubricID, Name: "Water cycle", Criteria: []rubric.Criterion{
		{CriterionDescription: "Sequence of stages", LevelDescriptions: []string{"All stages in order", "Some stages", "No stages"}},
	}}}
}

// essayRubric has levels without ranges (Thesis) and with them (Evidence).
func essayRubric(ranges bool) *rubric.Rubric {
	evidence := rubric.Criterion{CriterionDescription: "Evidence", LevelDescriptions: []string{"Strong, cited evidence", "Some evidence", "No evidence"}}
	if ranges {
		evidence.UseRange = true
		evidence.LevelRanges = []rubric.LevelRange{
			{LevelDescriptionsIndex: 0, Min: ptr(4.0), Max: ptr(5.0)},
			{LevelDescriptionsIndex: 1, Min: ptr(2.0), Max: ptr(3.0)},
			{LevelDescriptionsIndex: 2, Min: ptr(0.0), Max: ptr(1.0)},
		}
	}
	return &rubric.Rubric{Name: "Essay", Criteria: []rubric.Criterion{
		{CriterionDescription: "Thesis", LevelDescriptions: []string{"Clear and arguable thesis", "Thesis present but vague", "No thesis"}},
		evidence,
	}}
}

// functions are an assignment of each type, with their variations.
func functions() map[string]assignment.Function {
	return map[string]assignment.Function{
		"grade": {Type: assignment.TypeGrade, Questions: questions(), Context: "Year 9 biology"},
		"feedback": {Type: assignment.TypeFeedback, Context: "A holiday diary", Highlights: []assignment.Highlighter{
			{Key: "grammar", Color: "purple-500", Title: "Grammar", Description: "Grammar mistakes."},
			{Key: "praise", Color: "green-500", Title: "Well done", Description: "Sentences that work well."},
		}},
		"rubric-feedback":             {Type: assignment.TypeRubricFeedback, Rubric: essayRubric(false)},
		"rubric-feedback with ranges": {Type: assignment.TypeRubricFeedback, Rubric: essayRubric(true)},
		"prompt":                      {Type: assignment.TypePrompt, Prompt: "Say how well the argument flows.", Context: "A persuasive essay"},
	}
}

const (
	essay   = "Cities should plant trees. My thesis is clear and arguable: strong, cited evidence shows trees cool streets. In the summer we went to the the beach."
	biology = "Chlorophyll is the green pigment that traps light. The plant makes glucose, a sugar. It happens in the chloroplasts of leaf cells. " +
		"Water evaporates from the oceans and condensation forms clouds."
)

// pageImage is a small PNG as a data: URL, an answer box's crop.
const pageImage = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABc3UBGAAAAABJRU5ErkJggg=="

// benchmark is a graded result as the agreement check loads it.
func benchmark(t *testing.T, text string, r grading.Result) store.ListBenchmarksRow {
	t.Helper()
	raw := func(v any) json.RawMessage {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return b
	}
	return store.ListBenchmarksRow{SubmissionID: uuid.New(), Text: text, Feedback: r.Feedback, HighlightedText: r.HighlightedText,
		OverallComments: r.OverallComments, CriteriaLevels: raw(r.CriteriaLevels), CriteriaPoints: raw(r.CriteriaPoints),
		CriteriaFeedback: raw(r.CriteriaFeedback), Answers: r.Answers, IsBenchmark: true}
}

// pageReader is the transcription worker's OCR: each page to the vision
// model through jobs.TranscribePage.
type pageReader struct{ model llm.Client }

func (p pageReader) Text(ctx context.Context, pgm []byte) (string, error) {
	text, _, err := jobs.TranscribePage(ctx, p.model, pgm)
	return text, err
}

// codePaths are every way Markwell asks for structured output, each
// driven through the code production runs.
func codePaths(t *testing.T, srv *fakellm.Server) []codePath {
	t.Helper()
	var paths []codePath
	fns := functions()
	for _, name := range slices.Sorted(maps.Keys(fns)) {
		fn := fns[name]
		text := essay
		if fn.Type == assignment.TypeGrade {
			text = biology
		}
		paths = append(paths, codePath{"grading " + name, func(ctx context.Context, model llm.Client) error {
			_, _, err := grading.Run(ctx, model, grading.Input{Function: fn, QuestionRubrics: questionRubrics(), Text: text})
			return err
		}})
		// The agreement check regrades each benchmark with the others as
		// calibration examples (jobs.CheckAgreementWorker), for the types
		// it compares.
		if checker, ok := grading.AgreementFor(fn.Type); ok {
			if criteria, _ := checker.Agreement(fn); criteria != nil {
				paths = append(paths, codePath{"agreement check of " + name, func(ctx context.Context, model llm.Client) error {
					in := grading.Input{Function: fn, QuestionRubrics: questionRubrics(), Text: text}
					var examples []grading.Example
					for _, other := range []string{text, "Trees.", "I do not know."} {
						res, _, err := grading.Run(ctx, model, grading.Input{Function: fn, QuestionRubrics: questionRubrics(), Text: other})
						if err != nil {
							return err
						}
						examples = append(examples, jobs.ExampleFromBenchmark(benchmark(t, other, res)))
					}
					in.Examples = examples[1:]
					_, _, err := grading.Run(ctx, model, in)
					return err
				}})
			}
		}
	}
	paths = append(paths,
		codePath{"grading grade handwritten, with answer images", func(ctx context.Context, model llm.Client) error {
			_, _, err := grading.Run(ctx, model, grading.Input{Function: fns["grade"], QuestionRubrics: questionRubrics(),
				AnswerImages: map[string][]string{"0": {pageImage}, "0-0": {pageImage}, "1": {pageImage, pageImage}}})
			return err
		}},
		codePath{"grading grade, retried after a malformed answer", func(ctx context.Context, model llm.Client) error {
			srv.FailNext(fakellm.FaultMalformed, 1)
			_, _, err := grading.Run(ctx, model, grading.Input{Function: fns["grade"], Text: biology})
			return err
		}},
		codePath{"class summary", func(ctx context.Context, model llm.Client) error {
			_, _, err := grading.Summarize(ctx, model, []grading.CriterionRate{
				{Label: "Names chlorophyll", SuccessRate: 0.9, AveragePoints: 1.8, MaxPoints: 2},
				{Label: "Explains energy conversion", SuccessRate: 0.3, AveragePoints: 0.9, MaxPoints: 3},
			})
			return err
		}},
		codePath{"assist: suggest criteria", func(ctx context.Context, model llm.Client) error {
			_, err := (&assist.Service{LLM: model}).SuggestCriteria(ctx, "Explain photosynthesis.", "Year 9, 5 marks")
			return err
		}},
		codePath{"assist: suggest questions", func(ctx context.Context, model llm.Client) error {
			_, err := (&assist.Service{LLM: model}).SuggestQuestions(ctx, "1. Explain photosynthesis. [5 marks]\n2. Describe the water cycle. [4 marks]")
			return err
		}},
		codePath{"rubric tool: rubric from sheet", func(ctx context.Context, model llm.Client) error {
			_, err := (&assist.Service{LLM: model}).RubricFromSheet(ctx, "Write a persuasive letter to your council about planting trees. Use evidence.")
			return err
		}},
		codePath{"transcription of a handwritten page", func(ctx context.Context, model llm.Client) error {
			photo, err := os.ReadFile(filepath.Join("..", "extract", "testdata", "photo-rotated.jpg"))
			if err != nil {
				return err
			}
			r := extract.New(extract.Options{OCR: pageReader{model}, Limits: extract.Limits{RenderPixels: 2048}})
			_, err = r.ExtractBytes(ctx, photo, "IMG_0042.jpg", "image/jpeg")
			return err
		}},
	)
	return paths
}

// sendEverything drives every code path against the demo model and
// returns the structured requests they sent.
func sendEverything(t *testing.T) ([]sent, llm.Client, *fakellm.Server) {
	t.Helper()
	model, srv := demo(t, fakellm.Options{})
	rec, mock := record(model)
	for _, p := range codePaths(t, srv) {
		rec.path = p.name
		require.NoError(t, p.run(t.Context(), mock), p.name)
		require.True(t, slices.ContainsFunc(rec.sent, func(s sent) bool { return s.path == p.name }), "%s sent nothing", p.name)
	}
	return rec.sent, model, srv
}

// taskConstants are the values of the string constants named Task… in
// Markwell's non-test Go files (internal/ and cmd/): the task names, by
// file.
func taskConstants(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	root := filepath.Join("..", "..")
	for _, dir := range []string{"internal", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil || !bytes.Contains(src, []byte("Task")) {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			for _, decl := range f.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if !ok || gd.Tok != token.CONST {
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if !strings.HasPrefix(name.Name, "Task") || i >= len(vs.Values) {
							continue
						}
						if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							v, err := strconv.Unquote(lit.Value)
							if err != nil {
								return err
							}
							out[v] = path + ": " + name.Name
						}
					}
				}
			}
			return nil
		})
		require.NoError(t, err)
	}
	return out
}

// Every schema Markwell sends fits the strict structured-output subset, and
// every task there is was sent.
func TestEverySchemaMarkwellSendsFitsStrictMode(t *testing.T) {
	t.Parallel()
	all, _, srv := sendEverything(t)
	tasks := map[string][]string{}
	for _, s := range all {
		require.NoError(t, llm.CheckStrict(s.req.Schema), "%s: the %s schema", s.path, s.req.Task)
		tasks[s.req.Task] = append(tasks[s.req.Task], s.path)
	}
	t.Logf("%d requests checked, %d tasks", len(all), len(tasks))
	// The variations reach what they vary: the crops go with a
	// handwritten grading, the other benchmarks with a regrade.
	calibrated := map[string]bool{}
	for _, s := range all {
		msg := s.req.Messages[0]
		if s.path == "grading grade handwritten, with answer images" {
			require.Len(t, msg.ImageURLs, 4, "the answers' crops go with the request")
		}
		if strings.HasPrefix(s.path, "agreement check of ") && strings.Count(msg.Text, "The teacher's grading of example") == 2 {
			calibrated[s.req.Task] = true
		}
	}
	require.Equal(t, map[string]bool{grading.TaskGrade: true, grading.TaskRubricFeedback: true}, calibrated,
		"the agreement check's regrades show the two other benchmarks")

	// Completeness: a task the demo model is taught, or a Task constant
	// anywhere in Markwell, that no code path above sent is a task whose
	// schema is not checked: add its code path to codePaths.
	require.NotEmpty(t, srv.Taught())
	require.Empty(t, uncovered(tasks, srv.Taught(), taskConstants(t)))
	// And every registered assignment type the AI grades has a code path.
	graded := map[string]bool{}
	for _, fn := range functions() {
		graded[fn.Type] = true
	}
	for _, name := range process.Names() {
		if _, ok := grading.Type(name).(grading.Planner); ok {
			require.True(t, graded[name], "assignment type %s is graded by the AI, but functions() has no assignment of it", name)
		}
	}
}

// uncovered names the tasks the demo model is taught (taught) or a Task
// constant names (consts: value → where) that no recorded request sent.
func uncovered(sentTasks map[string][]string, taught []string, consts map[string]string) []string {
	var out []string
	for _, task := range taught {
		if _, ok := sentTasks[task]; !ok {
			out = append(out, "the demo model is taught "+task+", but no code path here sent it")
		}
	}
	for _, v := range slices.Sorted(maps.Keys(consts)) {
		if _, ok := sentTasks[v]; !ok {
			out = append(out, consts[v]+" names task "+v+", but no code path here sent it")
		}
	}
	return out
}

// The test of the test: the conformance test fails when one nested object
// of a schema Markwell sends lacks "additionalProperties": false, naming
// the place, and when a task has no code path that sends it.
func TestTheConformanceTestFailsOnABrokenSchemaOrAnUncoveredTask(t *testing.T) {
	t.Parallel()
	all, model, srv := sendEverything(t)
	i := slices.IndexFunc(all, func(s sent) bool { return s.req.Task == grading.TaskGrade })
	require.GreaterOrEqual(t, i, 0)
	good := all[i].req
	require.NoError(t, llm.CheckStrict(good.Schema))

	broken := withoutAdditionalProperties(t, good.Schema, "answers", "1", "criteria")
	err := llm.CheckStrict(broken)
	require.Error(t, err)
	t.Logf("CheckStrict: %v", err)
	require.Equal(t, "$.answers.1.criteria: 'additionalProperties' is required to be supplied and to be false", err.Error())
	require.NoError(t, llm.CheckStrict(good.Schema), "the recorded schema itself is untouched")

	// The demo model refuses that schema with the 400 of a strict
	// provider, which the client reports as permanent (no retry can fix
	// it), and answers the schema Markwell sends.
	bad := good
	bad.Schema = broken
	var out json.RawMessage
	_, err = model.CompleteJSON(t.Context(), bad, &out)
	require.Error(t, err)
	require.True(t, llm.IsPermanent(err), "%v", err)
	t.Logf("the demo model: %v", err)
	require.ErrorContains(t, err, "additionalProperties")
	_, err = model.CompleteJSON(t.Context(), good, &out)
	require.NoError(t, err)
	require.Contains(t, string(out), `"injection"`)

	tasks := map[string][]string{}
	for _, s := range all {
		tasks[s.req.Task] = append(tasks[s.req.Task], s.path)
	}
	srv.Handle("grade_poems", func(fakellm.ChatRequest) (any, error) { return map[string]any{}, nil })
	consts := taskConstants(t)
	consts["mark_maps"] = "internal/maps/maps.go: TaskMarkMaps"
	require.Equal(t, []string{
		"the demo model is taught grade_poems, but no code path here sent it",
		"internal/maps/maps.go: TaskMarkMaps names task mark_maps, but no code path here sent it",
	}, uncovered(tasks, srv.Taught(), consts))
}

// withoutAdditionalProperties is a deep copy of schema whose object at the
// path of property names has no "additionalProperties".
func withoutAdditionalProperties(t *testing.T, schema map[string]any, path ...string) map[string]any {
	t.Helper()
	b, err := json.Marshal(schema)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(b, &out))
	obj := out
	for _, name := range path {
		obj = obj["properties"].(map[string]any)[name].(map[string]any)
	}
	require.Equal(t, false, obj["additionalProperties"])
	delete(obj, "additionalProperties")
	return out
}
