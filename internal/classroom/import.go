package classroom

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/submission"
)

// Timeouts of the calls that wait on Google.
const (
	listTimeout   = time.Minute
	importTimeout = 5 * time.Minute
)

// Courses lists the teacher's courses.
func (s *Service) Courses(ctx context.Context, a identity.Actor) ([]Course, error) {
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	c, err := s.Client(ctx, a.UserID)
	if err != nil {
		return nil, err
	}
	return c.ListCourses(ctx)
}

// Coursework lists the coursework of course.
func (s *Service) Coursework(ctx context.Context, a identity.Actor, course string) ([]Coursework, error) {
	if strings.TrimSpace(course) == "" {
		return nil, apperr.New(apperr.Invalid, MsgClassRequired)
	}
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	c, err := s.Client(ctx, a.UserID)
	if err != nil {
		return nil, err
	}
	return c.ListCoursework(ctx, course)
}

// Submissions lists the turned-in submissions of coursework in course.
func (s *Service) Submissions(ctx context.Context, a identity.Actor, course, coursework string) ([]StudentSubmission, error) {
	if strings.TrimSpace(course) == "" {
		return nil, apperr.New(apperr.Invalid, MsgClassRequired)
	}
	if strings.TrimSpace(coursework) == "" {
		return nil, apperr.New(apperr.Invalid, MsgWorkRequired)
	}
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	c, err := s.Client(ctx, a.UserID)
	if err != nil {
		return nil, err
	}
	return c.ListTurnedIn(ctx, course, coursework)
}

// ImportRequest is the body of update-submissions-from-google.
type ImportRequest struct {
	AssignmentID uuid.UUID
	// Type must be the assignment's type when given.
	Type                  string
	ClassID, CourseworkID string
	// Selected are Classroom student submission ids.
	Selected []string
}

// Skipped is an attachment (or a selected submission) that was not imported.
type Skipped struct {
	SubmissionID string `json:"submissionId"`
	StudentName  string `json:"studentName"`
	// Title is the attachment's title; "" when the whole submission was skipped.
	Title  string `json:"title"`
	Reason string `json:"reason"`
}

// ImportResult is what an import created and what it left out.
type ImportResult struct {
	Submissions     []submission.Submission     `json:"submissions"`
	FunctionResults []assignment.FunctionResult `json:"functionResults"`
	Skipped         []Skipped                   `json:"skipped"`
}

// The reasons of Skipped.
const (
	ReasonNotTurnedIn = "This submission is no longer turned in."
	ReasonNoFiles     = "No Google Drive file is attached."
	ReasonImported    = "Already imported."
	ReasonUnreadable  = "Markwell cannot read this kind of file."
	ReasonNotShared   = "Google Drive did not share this file with you."
)

// pending is one attachment on its way in.
type pending struct {
	sub  StudentSubmission
	att  Attachment
	hint string
	key  string // set once stored
	file File
}

// externalID names an attachment of a Classroom submission, so a second
// import of it creates nothing.
func externalID(sub, att string) string { return sub + "/" + att }

// Import copies the Drive attachments of the selected turned-in submissions
// into assignments/{id}/submissions/google/ and creates a submission for
// each (source "google", the student's name and email from the roster),
// queued for text extraction. An attachment imported before, one Markwell
// cannot read, one Drive does not share and a submission without files are
// skipped and reported. The assignment of another team is not found.
func (s *Service) Import(ctx context.Context, a identity.Actor, req ImportRequest) (ImportResult, error) {
	if s == nil {
		return ImportResult{}, apperr.New(apperr.Invalid, MsgNotConfigured)
	}
	asg, err := store.Q.GetAssignment(ctx, s.cfg.Pool, store.GetAssignmentParams{ID: req.AssignmentID, TeamID: a.TeamID})
	if err != nil {
		return ImportResult{}, store.NotFound(fmt.Errorf("load assignment %s: %w", req.AssignmentID, err))
	}
	selected, err := checkImport(req, string(asg.Type))
	if err != nil {
		return ImportResult{}, err
	}
	if why := s.unavailable(); why != "" {
		return ImportResult{}, apperr.New(apperr.Invalid, why)
	}
	if s.cfg.Blob == nil || s.cfg.Submissions == nil {
		return ImportResult{}, errors.New("classroom: import needs a blob store and the submissions service")
	}
	ctx, cancel := context.WithTimeout(ctx, importTimeout)
	defer cancel()
	c, err := s.Client(ctx, a.UserID)
	if err != nil {
		return ImportResult{}, err
	}
	subs, err := c.turnedIn(ctx, req.ClassID, req.CourseworkID, selected)
	if err != nil {
		return ImportResult{}, err
	}

	res := ImportResult{Submissions: []submission.Submission{}, FunctionResults: []assignment.FunctionResult{}, Skipped: []Skipped{}}
	skip := func(sub StudentSubmission, title, reason string) {
		res.Skipped = append(res.Skipped, Skipped{SubmissionID: sub.ID, StudentName: sub.StudentName, Title: title, Reason: reason})
	}
	found := map[string]bool{}
	var todo []*pending
	var ids []string
	for _, sub := range subs {
		found[sub.ID] = true
		if len(sub.Attachments) == 0 {
			skip(sub, "", ReasonNoFiles)
			continue
		}
		for _, att := range sub.Attachments {
			if att.MimeType == "" {
				skip(sub, att.Title, ReasonNotShared)
				continue
			}
			hint, ok := Supported(att.MimeType)
			if !ok {
				skip(sub, att.Title, ReasonUnreadable)
				continue
			}
			todo = append(todo, &pending{sub: sub, att: att, hint: hint})
			ids = append(ids, externalID(sub.ID, att.ID))
		}
	}
	for id := range selected {
		if !found[id] {
			skip(StudentSubmission{ID: id}, "", ReasonNotTurnedIn)
		}
	}
	if len(ids) > 0 {
		done, err := store.Q.ImportedExternalIDs(ctx, s.cfg.Pool, store.ImportedExternalIDsParams{AssignmentID: asg.ID, TeamID: a.TeamID, ExternalIds: ids})
		if err != nil {
			return ImportResult{}, fmt.Errorf("find imported attachments of assignment %s: %w", asg.ID, err)
		}
		imported := map[string]bool{}
		for _, id := range done {
			imported[id] = true
		}
		todo = slices.DeleteFunc(todo, func(p *pending) bool {
			if imported[externalID(p.sub.ID, p.att.ID)] {
				skip(p.sub, p.att.Title, ReasonImported)
				return true
			}
			return false
		})
	}
	if len(todo) == 0 {
		return res, nil
	}

	stored, err := s.fetch(ctx, c, asg.ID, todo, skip)
	if err != nil {
		return ImportResult{}, err
	}
	if len(stored) == 0 {
		return res, nil
	}
	news := make([]submission.NewSubmission, len(stored))
	for i, p := range stored {
		news[i] = submission.NewSubmission{
			Name: p.file.Name, Key: p.key, ContentType: p.file.MimeType, Source: submission.SourceGoogle,
			Role: submission.RoleTeacher, StudentName: p.sub.StudentName, StudentEmail: p.sub.StudentEmail,
			ReaderHint: p.hint, IsHandWritten: asg.IsHandWritten, ExternalID: externalID(p.sub.ID, p.att.ID),
		}
	}
	err = store.InTx(ctx, s.cfg.Pool, func(tx pgx.Tx) error {
		var err error
		res.Submissions, res.FunctionResults, err = s.cfg.Submissions.CreateTx(ctx, tx, a.TeamID, asg, news)
		if err != nil {
			return err
		}
		// Where each came from, so its grade can be sent back.
		from := map[string]*pending{}
		for _, p := range stored {
			from[p.key] = p
		}
		for _, sub := range res.Submissions {
			p, ok := from[sub.Location]
			if !ok {
				continue
			}
			if err := store.Q.InsertClassroomSubmission(ctx, tx, store.InsertClassroomSubmissionParams{
				SubmissionID: sub.ID, TeamID: a.TeamID, AssignmentID: asg.ID,
				CourseID: req.ClassID, CourseworkID: req.CourseworkID, StudentSubmissionID: p.sub.ID,
			}); err != nil {
				return fmt.Errorf("record the classroom origin of submission %s: %w", sub.ID, err)
			}
		}
		return nil
	})
	created := map[string]bool{}
	for _, sub := range res.Submissions {
		created[sub.Location] = true
	}
	var orphans []string
	for _, p := range stored {
		if err != nil || !created[p.key] { // failed, or imported meanwhile by another request
			orphans = append(orphans, p.key)
		}
	}
	s.deleteBlobs(ctx, orphans)
	if err != nil {
		return ImportResult{}, fmt.Errorf("create imported submissions of assignment %s: %w", asg.ID, err)
	}
	s.log.InfoContext(ctx, "google classroom import", "assignment_id", asg.ID, "user_id", a.UserID,
		"created", len(res.Submissions), "skipped", len(res.Skipped))
	return res, nil
}

// checkImport validates req against the assignment's type and returns the
// selected ids as a set.
func checkImport(req ImportRequest, asgType string) (map[string]bool, error) {
	switch {
	case req.Type != "" && req.Type != asgType:
		return nil, apperr.New(apperr.Invalid, submission.MsgTypeMismatch)
	case strings.TrimSpace(req.ClassID) == "":
		return nil, apperr.New(apperr.Invalid, MsgClassRequired)
	case strings.TrimSpace(req.CourseworkID) == "":
		return nil, apperr.New(apperr.Invalid, MsgWorkRequired)
	}
	selected := map[string]bool{}
	for _, id := range req.Selected {
		if id = strings.TrimSpace(id); id != "" {
			selected[id] = true
		}
	}
	switch {
	case len(selected) == 0:
		return nil, apperr.New(apperr.Invalid, MsgNoneSelected)
	case len(selected) > MaxSelected:
		return nil, apperr.New(apperr.Invalid, MsgTooMany)
	}
	return selected, nil
}

// fetch downloads each pending attachment and stores it under a new key in
// the assignment's google folder, a few at a time. An attachment Markwell
// cannot take (not shared, unreadable, too large) is skipped; any other
// failure deletes what was stored and ends the import.
func (s *Service) fetch(ctx context.Context, c *Client, asg uuid.UUID, todo []*pending, skip func(StudentSubmission, string, string)) ([]*pending, error) {
	folder := GoogleFolder(asg)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  = make(chan *pending)
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range min(downloadWorkers, len(todo)) {
		wg.Go(func() {
			for p := range next {
				err := s.fetchOne(ctx, c, folder, p)
				if err == nil {
					continue
				}
				mu.Lock()
				if reason, ok := skippable(err); ok {
					skip(p.sub, p.att.Title, reason)
				} else if first == nil {
					first = err
					cancel()
				}
				mu.Unlock()
			}
		})
	}
	for _, p := range todo {
		next <- p
	}
	close(next)
	wg.Wait()

	var stored []*pending
	var keys []string
	for _, p := range todo {
		if p.key != "" {
			stored = append(stored, p)
			keys = append(keys, p.key)
		}
	}
	if first != nil {
		s.deleteBlobs(ctx, keys)
		return nil, first
	}
	return stored, nil
}

func (s *Service) fetchOne(ctx context.Context, c *Client, folder string, p *pending) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	f, err := c.Download(ctx, p.att.ID)
	if err != nil {
		return err
	}
	if f.Name == "" {
		f.Name = p.att.Title
	}
	key, err := blob.NewKey(folder, f.Name)
	if err != nil {
		return fmt.Errorf("key for %q: %w", f.Name, err)
	}
	if err := s.cfg.Blob.Put(ctx, key, bytes.NewReader(f.Data), int64(len(f.Data)), f.MimeType); err != nil {
		return fmt.Errorf("store drive file %s: %w", p.att.ID, err)
	}
	p.key, p.file = key, File{Name: f.Name, MimeType: f.MimeType}
	return nil
}

// skippable reports whether a download error concerns one file only, and
// the reason the teacher is shown.
func skippable(err error) (string, bool) {
	var e *apperr.Error
	if !errors.As(err, &e) {
		return "", false
	}
	switch e.Code {
	case apperr.NotFound, apperr.Forbidden:
		return ReasonNotShared, true
	case apperr.Invalid:
		return ReasonUnreadable, true
	case apperr.TooLarge:
		return e.Message + ".", true
	}
	return "", false
}

// GoogleFolder is the folder of the files imported from Google Classroom
// into assignment: "assignments/{assignmentId}/submissions/google/".
func GoogleFolder(assignment uuid.UUID) string {
	return "assignments/" + assignment.String() + "/submissions/google/"
}

// deleteBlobs removes stored files nothing refers to, best effort.
func (s *Service) deleteBlobs(ctx context.Context, keys []string) {
	ctx = context.WithoutCancel(ctx)
	for _, k := range keys {
		if err := s.cfg.Blob.Delete(ctx, k); err != nil {
			s.log.WarnContext(ctx, "could not delete an unused imported file", "key", k, "err", err)
		}
	}
}
