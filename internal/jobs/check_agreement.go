package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/agreement"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/store"
)

// CheckAgreementArgs asks how closely the AI agrees with the teacher on an
// assignment's benchmark results: each benchmark is regraded with the other
// benchmarks as examples (leave-one-out) and compared with the teacher's
// grading.
type CheckAgreementArgs struct {
	AssignmentID uuid.UUID `json:"assignment_id"`
	TeamID       uuid.UUID `json:"team_id"`
}

// Kind implements river.JobArgs.
func (CheckAgreementArgs) Kind() string { return "check_agreement" }

// InsertOpts puts the job on the ai queue.
func (CheckAgreementArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueAI, MaxAttempts: 5}
}

// MinBenchmarks is how many benchmark results "Check agreement" needs.
const MinBenchmarks = 3

// CheckAgreementWorker regrades the benchmarks and stores the report on the
// assignment. Its regrades are never written to the results.
type CheckAgreementWorker struct {
	river.WorkerDefaults[CheckAgreementArgs]
	deps Deps
}

// NewCheckAgreementWorker returns the worker of check_agreement jobs over d.
func NewCheckAgreementWorker(d Deps) *CheckAgreementWorker { return &CheckAgreementWorker{deps: d} }

// Timeout bounds one attempt: one run per benchmark.
func (w *CheckAgreementWorker) Timeout(*river.Job[CheckAgreementArgs]) time.Duration {
	return 30 * time.Minute
}

// Work implements river.Worker.
func (w *CheckAgreementWorker) Work(ctx context.Context, job *river.Job[CheckAgreementArgs]) error {
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

func (w *CheckAgreementWorker) check(ctx context.Context, a CheckAgreementArgs) (agreement.Report, error) {
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
	if len(bench) < MinBenchmarks {
		return agreement.Report{}, fmt.Errorf("assignment %s has %d benchmarks: %w", a.AssignmentID, len(bench), llm.ErrPermanent)
	}
	criteria, judge := judgeFor(fn)
	if criteria == nil {
		return agreement.Report{}, fmt.Errorf("assignment type %s has no criteria to compare: %w", fn.Type, llm.ErrPermanent)
	}
	var judgements []agreement.Judgement
	for i, b := range bench {
		in := grading.Input{Function: fn, QuestionRubrics: qr, Text: b.Text, Answers: b.Answers}
		for j, other := range bench {
			if j != i {
				in.Examples = append(in.Examples, ExampleFromBenchmark(other))
			}
		}
		res, _, err := grading.Run(ctx, w.deps.LLM, in)
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
// result with the AI's on them; nil for types without criteria.
func judgeFor(fn assignment.Function) ([]agreement.Criterion, func(teacher, ai grading.Result) []agreement.Judgement) {
	switch {
	case fn.Type == assignment.TypeRubricFeedback && fn.Rubric != nil:
		r := *fn.Rubric
		criteria := make([]agreement.Criterion, len(r.Criteria))
		for i, c := range r.Criteria {
			criteria[i] = agreement.Criterion{Label: c.CriterionDescription, Kind: agreement.KindLevels, Levels: len(c.LevelDescriptions)}
		}
		return criteria, func(teacher, ai grading.Result) []agreement.Judgement {
			out := make([]agreement.Judgement, 0, len(criteria))
			for i := range criteria {
				out = append(out, agreement.Judgement{
					CriterionIndex: i,
					Teacher:        at(teacher.CriteriaLevels, i), AI: at(ai.CriteriaLevels, i),
					TeacherPoints: at(teacher.CriteriaPoints, i), AIPoints: at(ai.CriteriaPoints, i),
				})
			}
			return out
		}
	case fn.Type == assignment.TypeGrade:
		var criteria []agreement.Criterion
		var points []float64
		var walk func(qs []assignment.Question, prefix string)
		walk = func(qs []assignment.Question, prefix string) {
			for i, q := range qs {
				label := prefix + strconv.Itoa(i+1)
				for j, c := range q.Criteria {
					criteria = append(criteria, agreement.Criterion{
						Label: fmt.Sprintf("Q%s criterion %d: %s", label, j+1, c.Description), Kind: agreement.KindBoolean,
					})
					points = append(points, c.Points)
				}
				walk(q.Subquestions, label+".")
			}
		}
		walk(fn.Questions, "")
		if len(criteria) == 0 {
			return nil, nil
		}
		return criteria, func(teacher, ai grading.Result) []agreement.Judgement {
			t, m := flatCriteria(teacher.Answers, fn.Questions), flatCriteria(ai.Answers, fn.Questions)
			out := make([]agreement.Judgement, 0, len(criteria))
			for i := range criteria {
				tv, av := boolAt(t, i), boolAt(m, i)
				out = append(out, agreement.Judgement{
					CriterionIndex: i, Teacher: tv, AI: av, TeacherPoints: tv * points[i], AIPoints: av * points[i],
				})
			}
			return out
		}
	}
	return nil, nil
}

// flatCriteria lists an answers tree's criteria booleans depth first,
// aligned with the questions' criteria (missing ones are false), in the
// order judgeFor lists them.
func flatCriteria(raw json.RawMessage, qs []assignment.Question) []bool {
	var nodes []struct {
		Grade struct {
			Criteria []bool `json:"criteria"`
		} `json:"grade"`
		Subanswers json.RawMessage `json:"subanswers"`
	}
	_ = json.Unmarshal(raw, &nodes) // another shape reads as nothing met
	var out []bool
	for i, q := range qs {
		var got []bool
		var subs json.RawMessage
		if i < len(nodes) {
			got, subs = nodes[i].Grade.Criteria, nodes[i].Subanswers
		}
		for j := range q.Criteria {
			out = append(out, j < len(got) && got[j])
		}
		out = append(out, flatCriteria(subs, q.Subquestions)...)
	}
	return out
}

func at[T int | float64](s []T, i int) float64 {
	if i < len(s) {
		return float64(s[i])
	}
	return 0
}

func boolAt(s []bool, i int) float64 {
	if i < len(s) && s[i] {
		return 1
	}
	return 0
}
