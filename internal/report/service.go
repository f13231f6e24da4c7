package report

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/office"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/result"
	"github.com/markwell/markwell/internal/store"
)

// Messages users see.
const (
	MsgRunning       = "Reports are already being made for this assignment. Wait for them to finish."
	MsgNoOffice      = "Reports cannot be made on this server: LibreOffice is not installed. Ask your administrator."
	MsgConvertFailed = "The report could not be turned into a PDF. Please try again."
	MsgSlow          = "Making the report took too long. Please try again."
	MsgBusy          = "The server is making many reports at the moment. Please try again in a minute."
)

// Converter turns reports into PDF; office.LibreOffice implements it.
type Converter interface {
	Convert(ctx context.Context, data []byte, fromExt, toFilter string) ([]byte, error)
	ConvertMany(ctx context.Context, files []office.BatchFile, toFilter string, perFile time.Duration) ([][]byte, []error, error)
}

// Blobs stores the reports' files and signs their downloads; blob.Blob
// implements it.
type Blobs interface {
	Get(ctx context.Context, key string) (io.ReadCloser, error)
	Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error
	PresignDownload(ctx context.Context, key, fileName string, ttl time.Duration) (string, error)
}

// Service makes feedback reports: one student's PDF at once, a class's in
// the build_reports job.
type Service struct {
	Pool *pgxpool.Pool
	// Blob holds the answers' crops and the runs' files; TTL is how long
	// signed URLs live.
	Blob Blobs
	TTL  time.Duration
	// Jobs queues build_reports (the API's insert client).
	Jobs *queue.Client
	// Office converts (nil: LibreOffice from PATH, sandboxed).
	Office Converter
	// Converts bounds the single-student conversions of a process (nil:
	// two at once).
	Converts chan struct{}

	once        sync.Once
	res         *result.Service
	asg         *assignment.Service
	convertSlot chan struct{}
}

// init builds the reads: a result service without media signing (the
// crops are read from the store, not through URLs).
func (s *Service) init() {
	s.once.Do(func() {
		s.asg = &assignment.Service{Pool: s.Pool}
		s.res = &result.Service{Pool: s.Pool, Assignments: s.asg}
		s.convertSlot = s.Converts
		if s.convertSlot == nil {
			s.convertSlot = make(chan struct{}, 2)
		}
	})
}

func (s *Service) results() *result.Service         { s.init(); return s.res }
func (s *Service) assignments() *assignment.Service { s.init(); return s.asg }

func (s *Service) office() Converter {
	if s.Office != nil {
		return s.Office
	}
	return office.LibreOffice{}
}

// StudentTimeout bounds one student's report (waiting for a slot and the
// conversion).
const StudentTimeout = 90 * time.Second

// Student returns the PDF report of one submission and its file name.
func (s *Service) Student(ctx context.Context, a identity.Actor, assignmentID, submissionID uuid.UUID) ([]byte, string, error) {
	items, err := s.Load(ctx, a, assignmentID, []uuid.UUID{submissionID})
	if err != nil {
		if apperr.From(err).Code == apperr.NotFound {
			return nil, "", apperr.ErrNotFound
		}
		return nil, "", err
	}
	ctx, cancel := context.WithTimeout(ctx, StudentTimeout)
	defer cancel()
	s.init()
	select {
	case s.convertSlot <- struct{}{}:
		defer func() { <-s.convertSlot }()
	case <-ctx.Done():
		return nil, "", apperr.New(apperr.RateLimited, MsgBusy)
	}
	pdf, err := s.office().Convert(ctx, FODT(items[0].Report), "fodt", office.ToPDF)
	if err != nil {
		return nil, "", convertError(err)
	}
	return pdf, items[0].FileName, nil
}

// convertError is a conversion's error in a sentence for the teacher.
func convertError(err error) error {
	switch {
	case errors.Is(err, office.ErrNotInstalled):
		return apperr.Wrap(apperr.Internal, MsgNoOffice, err)
	case errors.Is(err, office.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return apperr.Wrap(apperr.Upstream, MsgSlow, err)
	default:
		return apperr.Wrap(apperr.Internal, MsgConvertFailed, err)
	}
}

// StaleAfter is how long a run may go without moving (a batch done, an
// attempt begun) before the next start or read of the assignment's runs
// fails it: its job died for good (a worker killed on the last attempt),
// and it would otherwise block every later run. It is well past an
// attempt's 30 minutes and River's rescue of a dead worker's job.
const StaleAfter = 2 * time.Hour

// MsgStale is the error of such a run.
const MsgStale = "Making the reports stopped without finishing. Please try again."

// failStale fails the assignment's run that stopped moving (StaleAfter).
func (s *Service) failStale(ctx context.Context, teamID, assignmentID uuid.UUID) error {
	err := store.Q.FailStaleReports(ctx, s.Pool, store.FailStaleReportsParams{
		Error: MsgStale, AssignmentID: assignmentID, TeamID: teamID,
		StaleAfter: pgtype.Interval{Microseconds: StaleAfter.Microseconds(), Valid: true},
	})
	if err != nil {
		return fmt.Errorf("fail stale reports of assignment %s: %w", assignmentID, err)
	}
	return nil
}

// Run is a "Print reports" run as the API shows it.
type Run struct {
	ID        uuid.UUID `json:"_id"`
	Status    string    `json:"status"`
	Done      int       `json:"done"`
	Total     int       `json:"total"`
	Error     string    `json:"error,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	ZipURL    string    `json:"zipUrl,omitempty"`
	PdfURL    string    `json:"pdfUrl,omitempty"`
}

// Start queues a run over the assignment's submissions (ids, or all of
// them when empty). A run already queued or running answers 409.
func (s *Service) Start(ctx context.Context, a identity.Actor, assignmentID uuid.UUID, ids []uuid.UUID) (Run, error) {
	asg, err := store.Q.GetAssignment(ctx, s.Pool, store.GetAssignmentParams{ID: assignmentID, TeamID: a.TeamID})
	if err != nil {
		return Run{}, store.NotFound(fmt.Errorf("load assignment %s: %w", assignmentID, err))
	}
	subs, err := store.Q.ListReportSubmissions(ctx, s.Pool, store.ListReportSubmissionsParams{
		AssignmentID: asg.ID, TeamID: a.TeamID, Ids: orEmpty(ids),
	})
	if err != nil {
		return Run{}, fmt.Errorf("list submissions of assignment %s: %w", assignmentID, err)
	}
	if len(ids) > 0 && len(subs) < len(unique(ids)) {
		return Run{}, apperr.ErrNotFound
	}
	if len(subs) == 0 {
		return Run{}, apperr.New(apperr.Invalid, msgNoSubmissions)
	}
	if err := s.failStale(ctx, a.TeamID, asg.ID); err != nil {
		return Run{}, err
	}
	chosen := make([]uuid.UUID, len(subs))
	for i, sub := range subs {
		chosen[i] = sub.ID
	}
	if len(ids) == 0 {
		chosen = []uuid.UUID{} // every submission, as the class is when the job runs
	}
	var row store.Report
	err = store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		var err error
		row, err = store.Q.CreateReport(ctx, tx, store.CreateReportParams{
			TeamID: a.TeamID, AssignmentID: asg.ID, SubmissionIds: chosen, Total: int32(len(subs)),
			CreatedBy: uuid.NullUUID{UUID: a.UserID, Valid: a.UserID != uuid.Nil},
		})
		var pg *pgconn.PgError
		if errors.As(err, &pg) && pg.Code == "23505" {
			return apperr.New(apperr.Conflict, MsgRunning)
		}
		if err != nil {
			return fmt.Errorf("create report of assignment %s: %w", assignmentID, err)
		}
		_, err = s.Jobs.InsertTx(ctx, tx, queue.BuildReportsArgs{ReportID: row.ID, TeamID: a.TeamID}, nil)
		return err
	})
	if err != nil {
		return Run{}, err
	}
	return s.present(ctx, asg.Name, row)
}

// Get returns the assignment's latest run, or nil.
func (s *Service) Get(ctx context.Context, a identity.Actor, assignmentID uuid.UUID) (*Run, error) {
	asg, err := store.Q.GetAssignment(ctx, s.Pool, store.GetAssignmentParams{ID: assignmentID, TeamID: a.TeamID})
	if err != nil {
		return nil, store.NotFound(fmt.Errorf("load assignment %s: %w", assignmentID, err))
	}
	if err := s.failStale(ctx, a.TeamID, asg.ID); err != nil {
		return nil, err
	}
	row, err := store.Q.GetLatestReport(ctx, s.Pool, store.GetLatestReportParams{AssignmentID: asg.ID, TeamID: a.TeamID})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load report of assignment %s: %w", assignmentID, err)
	}
	run, err := s.present(ctx, asg.Name, row)
	return &run, err
}

// present is a run with its files' download URLs when done.
func (s *Service) present(ctx context.Context, assignmentName string, row store.Report) (Run, error) {
	run := Run{ID: row.ID, Status: row.Status, Done: int(row.Done), Total: int(row.Total), Error: row.Error, CreatedAt: row.CreatedAt}
	if row.Status != "done" {
		return run, nil
	}
	name := SafeName(assignmentName) + " - reports"
	var err error
	if row.ZipKey != "" {
		if run.ZipURL, err = s.Blob.PresignDownload(ctx, row.ZipKey, name+".zip", s.TTL); err != nil {
			return run, fmt.Errorf("sign %s: %w", row.ZipKey, err)
		}
	}
	if row.PdfKey != "" {
		if run.PdfURL, err = s.Blob.PresignDownload(ctx, row.PdfKey, name+".pdf", s.TTL); err != nil {
			return run, fmt.Errorf("sign %s: %w", row.PdfKey, err)
		}
	}
	return run, nil
}
