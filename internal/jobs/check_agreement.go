package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/agreement"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
)

// CheckAgreementWorker regrades the benchmarks and stores the report on the
// assignment. Its regrades are never written to the results; their tokens
// count against the team's AI budget.
type CheckAgreementWorker struct {
	river.WorkerDefaults[queue.CheckAgreementArgs]
	deps Deps
}

// NewCheckAgreementWorker returns the worker of check_agreement jobs over d.
func NewCheckAgreementWorker(d Deps) *CheckAgreementWorker { return &CheckAgreementWorker{deps: d} }

// Timeout bounds one attempt: one run per benchmark.
func (w *CheckAgreementWorker) Timeout(*river.Job[queue.CheckAgreementArgs]) time.Duration {
	return 30 * time.Minute
}

// Work implements river.Worker.
func (w *CheckAgreementWorker) Work(ctx context.Context, job *river.Job[queue.CheckAgreementArgs]) error {
	a := job.Args
	report, err := w.check(ctx, a)
	if wait, ok := llm.RetryAfter(err); ok {
		return river.JobSnooze(wait)
	}
	if err != nil {
		// grading.Final: the provider refused, or an answer did not fit twice
		if !grading.Final(err) && !errors.Is(err, errNoDefinition) && job.Attempt < job.MaxAttempts {
			return err
		}
		w.deps.logger().Warn("agreement check failed", "assignment", a.AssignmentID, "err", err)
		if ferr := store.Q.FinishAgreement(context.WithoutCancel(ctx), w.deps.Pool, store.FinishAgreementParams{
			ID: a.AssignmentID, AgreementStatus: "failed",
		}); ferr != nil {
			return ferr
		}
		return river.JobCancel(err)
	}
	data, err := json.Marshal(report)
	if err != nil {
		return err
	}
	return store.Q.FinishAgreement(ctx, w.deps.Pool, store.FinishAgreementParams{
		ID: a.AssignmentID, Agreement: data, AgreementStatus: "done",
	})
}

func (w *CheckAgreementWorker) check(ctx context.Context, a queue.CheckAgreementArgs) (agreement.Report, error) {
	if w.deps.LLM == nil {
		return agreement.Report{}, fmt.Errorf("check agreement: %w: %w", errNoModel, llm.ErrPermanent)
	}
	fn, qr, err := LoadFunction(ctx, w.deps.Pool, a.TeamID, a.AssignmentID)
	if err != nil {
		return agreement.Report{}, err
	}
	bench, err := store.Q.ListBenchmarks(ctx, w.deps.Pool, store.ListBenchmarksParams{AssignmentID: a.AssignmentID, TeamID: a.TeamID})
	if err != nil {
		return agreement.Report{}, fmt.Errorf("load benchmarks of assignment %s: %w", a.AssignmentID, err)
	}
	if len(bench) < queue.MinBenchmarks {
		return agreement.Report{}, fmt.Errorf("assignment %s has %d benchmarks: %w", a.AssignmentID, len(bench), llm.ErrPermanent)
	}
	criteria, judge := judgeFor(fn)
	if criteria == nil {
		return agreement.Report{}, fmt.Errorf("assignment type %s has no criteria to compare: %w", fn.Type, llm.ErrPermanent)
	}
	var judgements []agreement.Judgement
	for i, b := range bench {
		in := grading.Input{Function: fn, QuestionRubrics: qr, Text: b.Text, Answers: b.Answers, FenceKey: w.deps.FenceKey}
		for j, other := range bench {
			if j != i {
				in.Examples = append(in.Examples, ExampleFromBenchmark(other))
			}
		}
		res, u, err := grading.Run(ctx, w.deps.LLM, in)
		// its tokens count against the team's AI budget, also of a failed
		// regrade; the report has no usage of its own
		w.deps.spendTokens(ctx, a.TeamID, u)
		if err != nil {
			return agreement.Report{}, fmt.Errorf("regrade benchmark %s: %w", b.SubmissionID, err)
		}
		teacher := ExampleFromBenchmark(b).Result
		for _, jd := range judge(teacher, res) {
			jd.SubmissionID, jd.SubmissionName = b.SubmissionID.String(), b.SubmissionName
			judgements = append(judgements, jd)
		}
	}
	return agreement.Compare(criteria, judgements, len(bench), time.Now()), nil
}

// judgeFor returns an assignment's criteria and how to compare a teacher's
// result with the AI's on them, as its type's grading.AgreementChecker
// says; nil for types without criteria.
func judgeFor(fn assignment.Function) ([]agreement.Criterion, func(teacher, ai grading.Result) []agreement.Judgement) {
	c, ok := grading.AgreementFor(fn.Type)
	if !ok {
		return nil, nil
	}
	return c.Agreement(fn)
}
