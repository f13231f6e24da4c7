package classroom

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/google/uuid"
	"golang.org/x/oauth2"
	classroomapi "google.golang.org/api/classroom/v1"
	"google.golang.org/api/drive/v3"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"

	"github.com/markwell/markwell/internal/apperr"
)

// Course is a class the teacher teaches.
type Course struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Section string `json:"section"`
}

// Coursework is an assignment of a course.
type Coursework struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// StudentSubmission is a student's turned-in work on one coursework.
type StudentSubmission struct {
	ID           string `json:"id"`
	StudentName  string `json:"studentName"`
	StudentEmail string `json:"studentEmail"`
	// State is Classroom's: TURNED_IN or RETURNED.
	State       string       `json:"state"`
	Attachments []Attachment `json:"attachments"`
}

// Attachment is a Drive file attached to a submission.
type Attachment struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// MimeType is Drive's; "" when Drive would not say (the file is gone
	// or not shared with the teacher).
	MimeType string `json:"mimeType"`
}

// File is a downloaded attachment.
type File struct {
	// Name is the Drive title, with ".pdf" added to an exported Google Doc.
	Name string
	// MimeType is the content's type (application/pdf for an export).
	MimeType string
	Data     []byte
}

// The turned-in states listed and imported.
var turnedIn = []string{"TURNED_IN", "RETURNED"}

// Drive's types of Google's own editors, exported as PDF: a PDF keeps the
// student's layout and drawings, and the extractor reads its text layer.
var exportAsPDF = map[string]bool{
	"application/vnd.google-apps.document":     true,
	"application/vnd.google-apps.presentation": true,
	"application/vnd.google-apps.drawing":      true,
}

// readable are the uploaded types Markwell's extractor reads, with the
// reader hint each gets.
var readable = map[string]string{
	"application/pdf": "pdf",
	"application/vnd.openxmlformats-officedocument.wordprocessingml.document":   "textract",
	"application/vnd.openxmlformats-officedocument.presentationml.presentation": "textract",
	"text/plain": "textract",
	"image/jpeg": "image",
	"image/png":  "image",
	// A phone's photos (an iPhone's HEIC), a scanner's TIFF, web images.
	"image/heic": "image",
	"image/heif": "image",
	"image/tiff": "image",
	"image/webp": "image",
	"image/gif":  "image",
	// Uploaded (not Google) documents the worker converts with LibreOffice.
	"application/vnd.oasis.opendocument.text":         "textract",
	"application/vnd.oasis.opendocument.presentation": "textract",
	"application/rtf":               "textract",
	"text/rtf":                      "textract",
	"application/msword":            "textract",
	"application/vnd.ms-powerpoint": "textract",
}

// Supported reports whether an attachment of mimeType can be imported, and
// the reader hint its submission gets.
func Supported(mimeType string) (hint string, ok bool) {
	if exportAsPDF[mimeType] {
		return "pdf", true
	}
	hint, ok = readable[mimeType]
	return hint, ok
}

// Client is one teacher's view of Classroom and Drive, on their token.
type Client struct {
	s           *Service
	user        uuid.UUID
	classroom   *classroomapi.Service
	drive       *drive.Service
	maxDownload int64
}

// Client returns a client on user's stored token, refreshed (and stored
// again) when it expires. It fails when Google is not configured (Invalid)
// or the teacher has not connected (Conflict, MsgNotConnected).
func (s *Service) Client(ctx context.Context, user uuid.UUID) (*Client, error) {
	if why := s.unavailable(); why != "" {
		return nil, apperr.New(apperr.Invalid, why)
	}
	tok, scopes, err := s.loadToken(ctx, user)
	if err != nil {
		return nil, err
	}
	hctx := s.httpContext(ctx)
	src := oauth2.ReuseTokenSource(tok, &savingSource{
		s: s, user: user, scopes: scopes, last: tok.AccessToken, base: s.oauth2().TokenSource(hctx, tok),
	})
	hc := oauth2.NewClient(hctx, src)
	cls, err := classroomapi.NewService(ctx, option.WithHTTPClient(hc), option.WithEndpoint(s.cfg.Endpoints.ClassroomURL))
	if err != nil {
		return nil, fmt.Errorf("classroom client: %w", err)
	}
	drv, err := drive.NewService(ctx, option.WithHTTPClient(hc), option.WithEndpoint(s.cfg.Endpoints.DriveURL))
	if err != nil {
		return nil, fmt.Errorf("drive client: %w", err)
	}
	return &Client{s: s, user: user, classroom: cls, drive: drv, maxDownload: s.cfg.MaxDownloadBytes}, nil
}

// errStop ends a paged listing early.
var errStop = errors.New("stop paging")

// pager counts pages and stops a listing after maxPages.
type pager struct{ n int }

func (p *pager) next() error {
	p.n++
	if p.n >= maxPages {
		return errStop
	}
	return nil
}

// ListCourses lists the active courses the teacher teaches.
func (c *Client) ListCourses(ctx context.Context) ([]Course, error) {
	out := []Course{}
	var p pager
	err := c.classroom.Courses.List().TeacherId("me").CourseStates("ACTIVE").PageSize(100).
		Fields("courses(id,name,section)", "nextPageToken").
		Pages(ctx, func(r *classroomapi.ListCoursesResponse) error {
			for _, co := range r.Courses {
				out = append(out, Course{ID: co.Id, Name: co.Name, Section: co.Section})
			}
			return p.next()
		})
	if err != nil && !errors.Is(err, errStop) {
		return nil, c.fail(ctx, err, "list courses")
	}
	return out, nil
}

// ListCoursework lists the published coursework of course.
func (c *Client) ListCoursework(ctx context.Context, course string) ([]Coursework, error) {
	out := []Coursework{}
	var p pager
	err := c.classroom.Courses.CourseWork.List(course).CourseWorkStates("PUBLISHED").PageSize(100).
		Fields("courseWork(id,title)", "nextPageToken").
		Pages(ctx, func(r *classroomapi.ListCourseWorkResponse) error {
			for _, w := range r.CourseWork {
				out = append(out, Coursework{ID: w.Id, Title: w.Title})
			}
			return p.next()
		})
	if err != nil && !errors.Is(err, errStop) {
		return nil, c.fail(ctx, err, "list coursework of course %s", course)
	}
	return out, nil
}

// ListTurnedIn lists the turned-in (or returned) submissions of coursework
// in course, with each student's name and email from the course roster and
// each Drive attachment's type.
func (c *Client) ListTurnedIn(ctx context.Context, course, coursework string) ([]StudentSubmission, error) {
	return c.turnedIn(ctx, course, coursework, nil)
}

// turnedIn is ListTurnedIn, limited to the submission ids in only when it
// is not nil.
func (c *Client) turnedIn(ctx context.Context, course, coursework string, only map[string]bool) ([]StudentSubmission, error) {
	out := []StudentSubmission{}
	users := map[string]string{} // submission id → user id
	var p pager
	err := c.classroom.Courses.CourseWork.StudentSubmissions.List(course, coursework).States(turnedIn...).PageSize(100).
		Fields("studentSubmissions(id,userId,state,assignmentSubmission/attachments/driveFile(id,title))", "nextPageToken").
		Pages(ctx, func(r *classroomapi.ListStudentSubmissionsResponse) error {
			for _, sub := range r.StudentSubmissions {
				if only != nil && !only[sub.Id] {
					continue
				}
				s := StudentSubmission{ID: sub.Id, State: sub.State, Attachments: []Attachment{}}
				if sub.AssignmentSubmission != nil {
					for _, a := range sub.AssignmentSubmission.Attachments {
						if a.DriveFile != nil && a.DriveFile.Id != "" {
							s.Attachments = append(s.Attachments, Attachment{ID: a.DriveFile.Id, Title: a.DriveFile.Title})
						}
					}
				}
				users[sub.Id] = sub.UserId
				out = append(out, s)
			}
			return p.next()
		})
	if err != nil && !errors.Is(err, errStop) {
		return nil, c.fail(ctx, err, "list submissions of coursework %s in course %s", coursework, course)
	}
	if len(out) == 0 {
		return out, nil
	}
	roster, err := c.roster(ctx, course)
	if err != nil {
		return nil, err
	}
	for i := range out {
		st := roster[users[out[i].ID]]
		out[i].StudentName, out[i].StudentEmail = st.name, st.email
	}
	if err := c.fillTypes(ctx, out); err != nil {
		return nil, err
	}
	return out, nil
}

type student struct{ name, email string }

// roster maps the user ids of course's students to their names and emails.
func (c *Client) roster(ctx context.Context, course string) (map[string]student, error) {
	out := map[string]student{}
	var p pager
	err := c.classroom.Courses.Students.List(course).PageSize(100).
		Fields("students(userId,profile(name/fullName,emailAddress))", "nextPageToken").
		Pages(ctx, func(r *classroomapi.ListStudentsResponse) error {
			for _, st := range r.Students {
				var s student
				if st.Profile != nil {
					s.email = st.Profile.EmailAddress
					if st.Profile.Name != nil {
						s.name = st.Profile.Name.FullName
					}
				}
				out[st.UserId] = s
			}
			return p.next()
		})
	if err != nil && !errors.Is(err, errStop) {
		return nil, c.fail(ctx, err, "list students of course %s", course)
	}
	return out, nil
}

// fillTypes asks Drive for each attachment's type, a few at a time. A file
// Drive does not show the teacher keeps MimeType "".
func (c *Client) fillTypes(ctx context.Context, subs []StudentSubmission) error {
	type job struct{ i, j int }
	var jobs []job
	for i := range subs {
		for j := range subs[i].Attachments {
			jobs = append(jobs, job{i, j})
		}
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  = make(chan job)
	)
	for range min(metaWorkers, len(jobs)) {
		wg.Go(func() {
			for jb := range next {
				a := &subs[jb.i].Attachments[jb.j]
				f, err := c.drive.Files.Get(a.ID).SupportsAllDrives(true).Fields("id,name,mimeType").Context(ctx).Do()
				if err != nil {
					if code := googleCode(err); code == http.StatusNotFound || code == http.StatusForbidden {
						continue
					}
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					continue
				}
				a.MimeType = f.MimeType
				if a.Title == "" {
					a.Title = f.Name
				}
			}
		})
	}
	for _, jb := range jobs {
		next <- jb
	}
	close(next)
	wg.Wait()
	if first != nil {
		return c.fail(ctx, first, "read attachment types")
	}
	return nil
}

// Download returns the Drive file fileID: a Google Doc, Slides or Drawing
// exported as PDF, any other readable type as stored. A type Markwell cannot
// read is Invalid; a file past MaxDownloadBytes is TooLarge; one Drive does
// not show the teacher is NotFound.
func (c *Client) Download(ctx context.Context, fileID string) (File, error) {
	meta, err := c.drive.Files.Get(fileID).SupportsAllDrives(true).Fields("id,name,mimeType,size").Context(ctx).Do()
	if err != nil {
		return File{}, c.fail(ctx, err, "read drive file %s", fileID)
	}
	f := File{Name: meta.Name, MimeType: meta.MimeType}
	var res *http.Response
	switch {
	case exportAsPDF[meta.MimeType]:
		f.MimeType = "application/pdf"
		if !strings.EqualFold(path.Ext(f.Name), ".pdf") {
			f.Name += ".pdf"
		}
		res, err = c.drive.Files.Export(fileID, f.MimeType).Context(ctx).Download()
	case readable[meta.MimeType] != "":
		if meta.Size > c.maxDownload {
			return File{}, c.tooLarge(meta.Name)
		}
		res, err = c.drive.Files.Get(fileID).SupportsAllDrives(true).Context(ctx).Download()
	default:
		return File{}, apperr.Invalidf("Markwell cannot read %q (%s)", meta.Name, meta.MimeType)
	}
	if err != nil {
		return File{}, c.fail(ctx, err, "download drive file %s", fileID)
	}
	defer res.Body.Close()
	f.Data, err = io.ReadAll(io.LimitReader(res.Body, c.maxDownload+1))
	if err != nil {
		return File{}, c.fail(ctx, err, "read drive file %s", fileID)
	}
	if int64(len(f.Data)) > c.maxDownload {
		return File{}, c.tooLarge(meta.Name)
	}
	return f, nil
}

func (c *Client) tooLarge(name string) error {
	return apperr.New(apperr.TooLarge, fmt.Sprintf("%q is larger than the %s limit", name, formatSize(c.maxDownload)))
}

// formatSize writes n bytes for people: "50 MB", "512 KB", "10 bytes".
func formatSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// googleCode is the HTTP status of a Google API error, or 0.
func googleCode(err error) int {
	var ge *googleapi.Error
	if errors.As(err, &ge) {
		return ge.Code
	}
	return 0
}

// fail turns an error of a Google call into one a teacher understands. A
// token Google no longer accepts is forgotten, so Status asks the teacher
// to connect again.
func (c *Client) fail(ctx context.Context, err error, format string, args ...any) error {
	what := fmt.Sprintf(format, args...)
	wrapped := fmt.Errorf("%s: %w", what, err)
	var re *oauth2.RetrieveError
	if errors.As(err, &re) || googleCode(err) == http.StatusUnauthorized {
		c.s.log.WarnContext(ctx, "google refused the teacher's token; forgetting it", "user_id", c.user, "err", err)
		if derr := c.s.Disconnect(context.WithoutCancel(ctx), c.user); derr != nil {
			c.s.log.ErrorContext(ctx, "could not forget a refused google token", "user_id", c.user, "err", derr)
		}
		return apperr.Wrap(apperr.Conflict, MsgReconnect, wrapped)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %w", what, ctx.Err())
	}
	switch code := googleCode(err); {
	case code == http.StatusNotFound:
		return apperr.Wrap(apperr.NotFound, apperr.ErrNotFound.Message, wrapped)
	case code == http.StatusForbidden && insufficientScopes(err):
		return apperr.Wrap(apperr.Conflict, MsgMissingScopes, wrapped)
	case code == http.StatusForbidden:
		return apperr.Wrap(apperr.Forbidden, MsgForbidden, wrapped)
	case code == http.StatusTooManyRequests:
		return apperr.Wrap(apperr.RateLimited, MsgGoogleBusy, wrapped)
	}
	return apperr.Wrap(apperr.Upstream, MsgGoogleDown, wrapped)
}

// insufficientScopes reports a 403 for a scope the token lacks.
func insufficientScopes(err error) bool {
	var ge *googleapi.Error
	if !errors.As(err, &ge) {
		return false
	}
	if slices.ContainsFunc(ge.Errors, func(e googleapi.ErrorItem) bool { return e.Reason == "insufficientPermissions" }) {
		return true
	}
	return strings.Contains(ge.Body, "ACCESS_TOKEN_SCOPE_INSUFFICIENT") || strings.Contains(ge.Message, "insufficient authentication scopes")
}
