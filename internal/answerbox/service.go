package answerbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/bounded"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/process"
	"github.com/markwell/markwell/internal/store"
)

// MsgNoPage is a page image asked of a page the submission does not have.
const MsgNoPage = "This submission has no such page"

// MsgPageTooLarge refuses a page of more than MaxPagePixels.
const MsgPageTooLarge = "This page is too large to show (more than 50 megapixels)."

// The bounds of rendering pages in one API process: at most PageSlots at
// once (others wait up to PageWait, then 429 with MsgPagesBusy), each within
// PageTimeout (MsgPageSlow).
const (
	PageSlots   = 2
	PageWait    = 2 * time.Second
	PageTimeout = 30 * time.Second
)

// MsgPagesBusy and MsgPageSlow refuse a page image (see PageSlots).
const (
	MsgPagesBusy = "Too many pages are being prepared right now. Please try again in a few seconds."
	MsgPageSlow  = "The page took too long to prepare. Please try again later."
)

// NewPageGate returns a gate with the page bounds above; the API process
// shares one (Service.Pages).
func NewPageGate() *bounded.Gate {
	return bounded.New(bounded.Config{Slots: PageSlots, Wait: PageWait, Timeout: PageTimeout,
		Busy: MsgPagesBusy, Slow: MsgPageSlow})
}

// processPages bounds the services whose Pages is nil: every one of this
// process.
var processPages = NewPageGate()

// Service keeps assignments' answer-box templates and shows the pages they
// are drawn on. Every method takes the actor from the session; ids of other
// teams are answered as not found.
type Service struct {
	Pool *pgxpool.Pool
	// Jobs queues crop_answers when a template is saved.
	Jobs *river.Client[pgx.Tx]
	// Blob keeps page images; TTL is how long their signed URLs live (the
	// files service's).
	Blob   blob.Blob
	TTL    time.Duration
	Render Renderer
	// Pages bounds the page images rendered at once; nil is the process's
	// gate (NewPageGate).
	Pages *bounded.Gate
}

// Sample is the submission whose pages the teacher draws the template on.
type Sample struct {
	SubmissionID uuid.UUID `json:"submissionId"`
	PageCount    int       `json:"pageCount"`
}

// Template is an assignment's answer boxes and the sample to draw them on
// (nil while no submission is ready).
type Template struct {
	Boxes  []Box   `json:"boxes"`
	Sample *Sample `json:"sample"`
}

// Get returns an assignment's template and its sample.
func (s *Service) Get(ctx context.Context, a identity.Actor, assignmentID uuid.UUID) (Template, error) {
	asg, err := store.Q.AnswerBoxAssignment(ctx, s.Pool, store.AnswerBoxAssignmentParams{ID: assignmentID, TeamID: a.TeamID})
	if err != nil {
		return Template{}, store.NotFound(fmt.Errorf("load assignment %s: %w", assignmentID, err))
	}
	boxes, err := ParseBoxes(asg.AnswerBoxes)
	if err != nil {
		return Template{}, err
	}
	out := Template{Boxes: boxes}
	sample, err := store.Q.AnswerBoxSample(ctx, s.Pool, store.AnswerBoxSampleParams{AssignmentID: assignmentID, TeamID: a.TeamID})
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return Template{}, fmt.Errorf("find the sample of assignment %s: %w", assignmentID, err)
	default:
		out.Sample = &Sample{SubmissionID: sample.ID, PageCount: int(sample.PageCount)}
	}
	return out, nil
}

// Update replaces an assignment's template and, in the same transaction,
// queues crop_answers for each of its submissions that is ready, so every
// answers tree follows the new boxes. Only handwritten grade assignments
// have templates.
func (s *Service) Update(ctx context.Context, a identity.Actor, assignmentID uuid.UUID, boxes []Box) ([]Box, error) {
	var out []Box
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		asg, err := store.Q.AnswerBoxAssignment(ctx, tx, store.AnswerBoxAssignmentParams{ID: assignmentID, TeamID: a.TeamID})
		if err != nil {
			return store.NotFound(fmt.Errorf("load assignment %s: %w", assignmentID, err))
		}
		if !process.AnswerBoxes(string(asg.Type), asg.IsHandWritten) {
			return apperr.New(apperr.Invalid, MsgNotHandwrittenGrade)
		}
		qs, err := ParseQuestions(asg.Questions)
		if err != nil {
			return err
		}
		if out, err = Validate(qs, boxes); err != nil {
			return err
		}
		raw, err := json.Marshal(out)
		if err != nil {
			return fmt.Errorf("encode answer boxes: %w", err)
		}
		n, err := store.Q.SaveAnswerBoxes(ctx, tx, store.SaveAnswerBoxesParams{AnswerBoxes: raw, ID: assignmentID, TeamID: a.TeamID})
		if err != nil {
			return fmt.Errorf("save answer boxes of assignment %s: %w", assignmentID, err)
		}
		if err := store.Affected(n); err != nil {
			return err
		}
		if len(out) == 0 {
			return nil
		}
		ids, err := store.Q.ReadySubmissionIDsWithFile(ctx, tx, store.ReadySubmissionIDsWithFileParams{AssignmentID: assignmentID, TeamID: a.TeamID})
		if err != nil {
			return fmt.Errorf("list ready submissions of assignment %s: %w", assignmentID, err)
		}
		if len(ids) == 0 {
			return nil
		}
		params := make([]river.InsertManyParams, len(ids))
		for i, id := range ids {
			params[i] = river.InsertManyParams{Args: CropArgs{SubmissionID: id}}
		}
		if _, err := s.Jobs.InsertManyTx(ctx, tx, params); err != nil {
			return fmt.Errorf("queue crop_answers for assignment %s: %w", assignmentID, err)
		}
		return nil
	})
	return out, err
}

// PageImage returns a short-lived signed URL of a JPEG of one page
// (0-based) of a submission, rendered once and kept for the next asks.
func (s *Service) PageImage(ctx context.Context, a identity.Actor, submissionID uuid.UUID, page int) (string, error) {
	src, err := store.Q.SubmissionPageSource(ctx, s.Pool, store.SubmissionPageSourceParams{ID: submissionID, TeamID: a.TeamID})
	if err != nil {
		return "", store.NotFound(fmt.Errorf("load submission %s: %w", submissionID, err))
	}
	if src.FileKey == "" || page < 0 || (src.PageCount > 0 && page >= int(src.PageCount)) {
		return "", apperr.New(apperr.Invalid, MsgNoPage)
	}
	p := &Pages{Store: s.Blob, Render: s.Render, Assignment: src.AssignmentID, Submission: src.ID, FileKey: src.FileKey}
	gate := s.Pages
	if gate == nil {
		gate = processPages
	}
	var key string
	err = gate.Run(ctx, func(ctx context.Context) error {
		var err error
		_, key, err = p.Image(ctx, page)
		return err
	})
	switch {
	case errors.Is(err, ErrPageTooLarge):
		return "", apperr.Wrap(apperr.Invalid, MsgPageTooLarge, err)
	case errors.Is(err, ErrNoSuchPage):
		return "", apperr.Wrap(apperr.Invalid, MsgNoPage, err)
	case errors.Is(err, blob.ErrNotFound):
		return "", apperr.Wrap(apperr.Invalid, "The uploaded file is missing. Please upload it again.", err)
	case err != nil:
		return "", fmt.Errorf("page %d of submission %s: %w", page, submissionID, err)
	}
	u, err := s.Blob.PresignGet(ctx, key, s.TTL)
	if err != nil {
		return "", fmt.Errorf("presign get %s: %w", key, err)
	}
	return u, nil
}

// Signer adds signed URLs of answer crops to answers trees as they are
// returned to a teacher: it is assignment.Service's AnswerMedia.
type Signer struct {
	Blob blob.Blob
	// TTL is the signed URLs' lifetime: the files service's.
	TTL time.Duration
}

// SignAnswers adds signedAnswerMedia to the nodes of answers (a function
// result's of assignment) that have answerMedia; only crops of assignment's
// own submissions are signed.
func (s Signer) SignAnswers(ctx context.Context, assignment uuid.UUID, answers json.RawMessage) (json.RawMessage, error) {
	prefix := "assignments/" + assignment.String() + "/submissions/crops/"
	return SignAnswers(ctx, answers, prefix, func(ctx context.Context, key string) (string, error) {
		return s.Blob.PresignGet(ctx, key, s.TTL)
	})
}
