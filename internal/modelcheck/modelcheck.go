// Package modelcheck is the provider check an operator runs before a class
// is graded (`api check-model`, and the operator page's "Run the check"): a
// small built-in set of tasks sent through the configured AI provider
// exactly as Markwell sends them — a grade, a feedback, a rubric-feedback
// and a prompt task through grading.Run, and one handwritten page through
// the transcription call of the OCR pipeline when a vision model is set —
// and, for each, the structured-output mode that worked, whether the
// answer followed the schema, the latency, the tokens, what a class of 30
// would cost at the configured prices and the first error in plain words.
package modelcheck

import (
	"bytes"
	"context"
	_ "embed" // the handwritten page
	"errors"
	"fmt"
	"image"
	"image/draw"
	_ "image/png" // page.png
	"strings"
	"sync"
	"time"

	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/llm"
)

// DefaultClassSize is the class the cost column is for.
const DefaultClassSize = 30

// The tasks' names, in the order they run (the rows of the report; not
// structured-output task names).
const (
	CheckGrade          = "grade"
	CheckFeedback       = "feedback"
	CheckRubricFeedback = "rubric-feedback"
	CheckPrompt         = "prompt"
	CheckHandwriting    = "handwriting"
)

// Options say what the check is run against; they name things in the
// report and in its errors, the client itself is given to [Run].
type Options struct {
	// BaseURL, Model and VisionModel are the provider's settings
	// (LLM_BASE_URL, LLM_MODEL, LLM_VISION_MODEL). An empty VisionModel
	// skips the handwritten page: the text model would be asked to read
	// it, which is not what the operator configured.
	BaseURL     string
	Model       string
	VisionModel string
	// Mode is the output mode the client was built with (LLM_OUTPUT_MODE
	// or the check's -mode); empty means auto.
	Mode llm.OutputMode
	// Timeout is one model call's limit (LLM_TIMEOUT), for the words of a
	// timeout; 0 when none is set.
	Timeout time.Duration
	// Prices are LLM_PRICES; a model they do not price is "not priced".
	Prices llm.Prices
	// ClassSize is the class the cost is given for; 0 means
	// [DefaultClassSize].
	ClassSize int
}

// Result is one task's outcome.
type Result struct {
	// Task is one of the Check* names.
	Task string `json:"task"`
	// Skipped says why the task was not run ("" when it was).
	Skipped string `json:"skipped,omitempty"`
	// Model is the model that answered (as the provider names it), else
	// the one asked.
	Model string `json:"model"`
	// Mode is the structured-output mode of the last call ("" when the
	// provider never answered).
	Mode llm.OutputMode `json:"mode"`
	// Valid is whether the task finished with an answer that followed the
	// schema and fitted the assignment; Retried that it took a second
	// answer (the first did not fit and the model was told why).
	Valid   bool `json:"valid"`
	Retried bool `json:"retried"`
	// Answered is whether the provider answered at all (false for a
	// refused key, a wrong model, nothing at the address, a timeout).
	Answered bool `json:"answered"`
	// LatencyMS is the task's wall time, every call included.
	LatencyMS int64 `json:"latencyMs"`
	// Calls and the tokens are summed over the task's calls.
	Calls              int `json:"calls"`
	PromptTokens       int `json:"promptTokens"`
	CachedPromptTokens int `json:"cachedPromptTokens"`
	CompletionTokens   int `json:"completionTokens"`
	// ClassCost is what the task would cost for a class (Options.ClassSize
	// submissions, or pages) in US dollars; nil when LLM_PRICES does not
	// price the model.
	ClassCost *float64 `json:"classCost"`
	// Error is the task's error in plain words for an operator ("" when
	// it passed); Detail is the error as Markwell logs it.
	Error  string `json:"error,omitempty"`
	Detail string `json:"detail,omitempty"`
	// Note is said about a task that passed: what went wrong on the way.
	Note string `json:"note,omitempty"`
}

// Report is what the check found.
type Report struct {
	BaseURL     string         `json:"baseUrl"`
	Model       string         `json:"model"`
	VisionModel string         `json:"visionModel"`
	Mode        llm.OutputMode `json:"mode"`
	ClassSize   int            `json:"classSize"`
	Results     []Result       `json:"results"`
	// Passed is whether every task that ran passed.
	Passed bool `json:"passed"`
	// FirstError is the first failed task's error in plain words, with the
	// task's name ("" when every task passed).
	FirstError string `json:"firstError,omitempty"`
	// Advice is the setting to make when automatic detection settled on
	// another mode than json_schema ("" otherwise).
	Advice     string    `json:"advice,omitempty"`
	StartedAt  time.Time `json:"startedAt"`
	DurationMS int64     `json:"durationMs"`
}

// Run sends the built-in tasks through client, one after the other, and
// reports on each. It never stops early: every task runs, so the operator
// sees everything that is wrong at once.
func Run(ctx context.Context, client llm.Client, o Options) Report {
	if o.ClassSize <= 0 {
		o.ClassSize = DefaultClassSize
	}
	if o.Mode == "" {
		o.Mode = llm.ModeAuto
	}
	rep := Report{BaseURL: o.BaseURL, Model: o.Model, VisionModel: o.VisionModel, Mode: o.Mode,
		ClassSize: o.ClassSize, StartedAt: time.Now().UTC(), Passed: true}
	for _, t := range gradingTasks() {
		rep.add(runTask(ctx, client, o, t.name, o.Model, func(ctx context.Context, c llm.Client) (llm.Usage, error) {
			_, u, err := grading.Run(ctx, c, t.input)
			return u, err
		}))
	}
	if o.VisionModel == "" {
		rep.add(Result{Task: CheckHandwriting, Skipped: "LLM_VISION_MODEL is not set"})
	} else {
		rep.add(runTask(ctx, client, o, CheckHandwriting, o.VisionModel, transcribe))
	}
	rep.DurationMS = time.Since(rep.StartedAt).Milliseconds()
	rep.Advice = advice(o.Mode, rep.Results)
	return rep
}

// advice is what to set when auto settled, for every task that was
// answered, on one mode other than json_schema: each process that starts
// would otherwise send a refused json_schema request first.
func advice(mode llm.OutputMode, results []Result) string {
	if mode != llm.ModeAuto {
		return ""
	}
	var settled llm.OutputMode
	for _, r := range results {
		switch {
		case r.Skipped != "" || r.Mode == "":
			continue
		case settled == "":
			settled = r.Mode
		case r.Mode != settled:
			return ""
		}
	}
	if settled == "" || settled == llm.ModeJSONSchema {
		return ""
	}
	return fmt.Sprintf("the provider refused json_schema and automatic detection settled on %s: set LLM_OUTPUT_MODE=%s, "+
		"so that a worker does not send a refused request first after each start", settled, settled)
}

func (r *Report) add(res Result) {
	r.Results = append(r.Results, res)
	if res.Skipped == "" && !res.Valid {
		if r.Passed {
			r.FirstError = res.Task + ": " + res.Error
		}
		r.Passed = false
	}
}

// runTask runs one task through a client that counts its attempts.
func runTask(ctx context.Context, client llm.Client, o Options, name, model string,
	do func(context.Context, llm.Client) (llm.Usage, error)) Result {
	c := &counting{Client: client}
	start := time.Now()
	u, err := do(ctx, c)
	res := Result{
		Task: name, Model: model, Mode: u.Mode, Valid: err == nil,
		LatencyMS: time.Since(start).Milliseconds(), Calls: u.Calls,
		PromptTokens: u.PromptTokens, CachedPromptTokens: u.CachedPromptTokens, CompletionTokens: u.CompletionTokens,
	}
	if u.Model != "" {
		res.Model = u.Model
	}
	attempts, first := c.result()
	res.Retried = attempts > 1
	res.Answered = err == nil || errors.Is(err, llm.ErrBadOutput) || u.CompletionTokens > 0
	if !res.Answered {
		res.Mode = ""
	}
	if _, ok := o.Prices.Lookup(res.Model); ok {
		cost := o.Prices.Cost(llm.Usage{Model: res.Model, PromptTokens: u.PromptTokens,
			CachedPromptTokens: u.CachedPromptTokens, CompletionTokens: u.CompletionTokens}) * float64(o.ClassSize)
		res.ClassCost = &cost
	}
	switch {
	case err != nil:
		res.Error = Explain(err, o, model)
		res.Detail = err.Error()
	case res.Retried && first != nil:
		res.Note = "the first answer did not fit (" + Explain(first, o, model) + "); the retry did"
	}
	return res
}

// counting is a client that counts the structured calls made through it
// (grading.Run's attempts) and keeps the first one's error.
type counting struct {
	llm.Client
	mu       sync.Mutex
	attempts int
	first    error
}

func (c *counting) CompleteJSON(ctx context.Context, req llm.Request, out any) (llm.Usage, error) {
	u, err := c.Client.CompleteJSON(ctx, req, out)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.attempts++
	if c.attempts == 1 {
		c.first = err
	}
	return u, err
}

func (c *counting) result() (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.attempts, c.first
}

//go:embed page.png
var pagePNG []byte

// pagePGM is the handwritten page as the pipeline's Reader hands a page to
// its OCR: a greyscale binary PGM.
var pagePGM = sync.OnceValues(func() ([]byte, error) {
	img, _, err := image.Decode(bytes.NewReader(pagePNG))
	if err != nil {
		return nil, fmt.Errorf("decode the built-in page: %w", err)
	}
	b := img.Bounds()
	gray := image.NewGray(b)
	draw.Draw(gray, b, img, b.Min, draw.Src)
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "P5\n%d %d\n255\n", b.Dx(), b.Dy())
	for y := range b.Dy() {
		buf.Write(gray.Pix[y*gray.Stride : y*gray.Stride+b.Dx()])
	}
	return buf.Bytes(), nil
})

// transcribe sends the handwritten page through the transcription worker's
// own page call (jobs.TranscribePage: scaled, JPEG, the same request) and
// checks that some writing came back.
func transcribe(ctx context.Context, c llm.Client) (llm.Usage, error) {
	pgm, err := pagePGM()
	if err != nil {
		return llm.Usage{}, err
	}
	text, u, err := jobs.TranscribePage(ctx, c, pgm)
	if err != nil {
		return u, err
	}
	if strings.TrimSpace(text) == "" {
		return u, fmt.Errorf("the transcript of a page with five lines of writing is empty: %w", llm.ErrBadOutput)
	}
	return u, nil
}

// Checker runs the check against a configured provider, with a fresh
// client each time: nothing a previous run learnt (such as the output mode
// automatic detection settled on) carries over, so each run shows what a
// freshly started worker meets.
type Checker struct {
	// Config is the model client's configuration (config.Config.Model).
	Config llm.Config
	// Prices are LLM_PRICES.
	Prices llm.Prices
	// Wrap, when set, wraps each fresh client: the API counts the check's
	// calls against the limit shared with the workers (LLM_RPM, LLM_TPM).
	Wrap func(llm.Client) llm.Client
}

// Settings are what a check would be run against, for the operator page
// to show before it runs.
type Settings struct {
	BaseURL     string         `json:"baseUrl"`
	Model       string         `json:"model"`
	VisionModel string         `json:"visionModel"`
	Mode        llm.OutputMode `json:"mode"`
	// Priced is whether LLM_PRICES prices the model.
	Priced    bool  `json:"priced"`
	TimeoutMS int64 `json:"timeoutMs"`
}

// Settings are the checker's settings.
func (c *Checker) Settings() Settings {
	_, priced := c.Prices.Lookup(c.Config.Model)
	return Settings{BaseURL: c.Config.BaseURL, Model: c.Config.Model, VisionModel: c.Config.VisionModel,
		Mode: cmpMode(c.Config.OutputMode), Priced: priced, TimeoutMS: c.Config.Timeout.Milliseconds()}
}

// Check runs the check with the output mode mode, or the configured one
// when mode is empty. An error means no client could be built.
func (c *Checker) Check(ctx context.Context, mode llm.OutputMode) (Report, error) {
	cfg := c.Config
	if mode != "" {
		cfg.OutputMode = mode
	}
	provider, err := llm.NewOpenAI(cfg)
	if err != nil {
		return Report{}, fmt.Errorf("model client: %w", err)
	}
	var client llm.Client = provider
	if c.Wrap != nil {
		client = c.Wrap(client)
	}
	return Run(ctx, client, Options{
		BaseURL: cfg.BaseURL, Model: cfg.Model, VisionModel: cfg.VisionModel,
		Mode: cmpMode(cfg.OutputMode), Timeout: cfg.Timeout, Prices: c.Prices,
	}), nil
}

// cmpMode is mode, or auto when it is empty.
func cmpMode(mode llm.OutputMode) llm.OutputMode {
	if mode == "" {
		return llm.ModeAuto
	}
	return mode
}
