package attachment_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/attachment"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

const (
	pdfType  = "application/pdf"
	docxType = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
)

type bundle struct {
	ctx   context.Context
	pool  *pgxpool.Pool
	blobs *blob.Local
	files *files.Service
	svc   *attachment.Service
	// gets counts the files the service opened.
	gets *atomic.Int32
}

// countingBlob counts Get calls, so a test can tell that nothing was read.
type countingBlob struct {
	blob.Blob
	gets *atomic.Int32
}

func (c countingBlob) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	c.gets.Add(1)
	return c.Blob.Get(ctx, key)
}

// setup serves the package database, a local blob store, the files service
// over both and the attachment service reading through them.
func setup(t *testing.T) *bundle {
	t.Helper()
	pool := testdb.Pool(t)
	blobs, err := blob.NewLocal(blob.Config{Dir: t.TempDir(), PublicURL: "http://markwell.test", Secret: bytes.Repeat([]byte("k"), 32)})
	require.NoError(t, err)
	fs := &files.Service{Blob: blobs, TTL: time.Minute, Pool: pool}
	gets := new(atomic.Int32)
	return &bundle{ctx: context.Background(), pool: pool, blobs: blobs, files: fs, gets: gets,
		svc: &attachment.Service{Files: fs, Blob: countingBlob{Blob: blobs, gets: gets}}}
}

// teacher creates a teacher with a team of their own.
func (b *bundle) teacher(t *testing.T) identity.Actor {
	t.Helper()
	email := "t-" + uuid.NewString()[:8] + "@school.test"
	tm, err := store.Q.CreateTeam(b.ctx, b.pool, "Team "+email)
	require.NoError(t, err)
	u, err := store.Q.CreateUser(b.ctx, b.pool, store.CreateUserParams{Email: email, Name: "T", TeamID: uuid.NullUUID{UUID: tm.ID, Valid: true}})
	require.NoError(t, err)
	return identity.Actor{UserID: u.ID, TeamID: tm.ID, Name: "T", Email: email}
}

// upload has a teacher of a's team upload body as fileName (with its folder,
// "chats/x.pdf" or "assignments/{id}/submissions/x.pdf") as the browser
// does: a signed key, then the bytes.
func (b *bundle) upload(t *testing.T, a identity.Actor, fileName, contentType string, body []byte) files.Upload {
	t.Helper()
	up, err := b.files.PresignUpload(b.ctx, files.Teacher, a.TeamID, files.UploadRequest{FileName: fileName, FileType: contentType, UserID: a.UserID})
	require.NoError(t, err)
	require.NoError(t, b.blobs.Put(b.ctx, up.Key, bytes.NewReader(body), int64(len(body)), contentType))
	return up
}

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "extract", "testdata", name))
	require.NoError(t, err)
	return data
}

// flat collapses white space, so page breaks do not matter.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

func requireCode(t *testing.T, err error, code apperr.Code, message string) {
	t.Helper()
	require.Error(t, err)
	e := apperr.From(err)
	require.Equal(t, code, e.Code, err.Error())
	if message != "" {
		require.Equal(t, message, e.Message)
	}
}

func TestReadsTheTextOfAPDFAndAWordFile(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.teacher(t)
	pdf := b.upload(t, a, "chats/essay.pdf", pdfType, fixture(t, "text-3pages.pdf"))
	docx := b.upload(t, a, "chats/report.docx", docxType, fixture(t, "report.docx"))

	// The signed URL without its query string, and the bare key, both name a file.
	res, err := b.svc.Read(b.ctx, a.TeamID, attachment.Request{
		Links: []string{pdf.FileURL, docx.Key}, Names: []string{"Essay.pdf", "Report.docx"},
	})
	require.NoError(t, err)
	require.False(t, res.Error)
	require.Empty(t, res.Message)
	require.Len(t, res.TextArray, 2)
	require.Contains(t, flat(res.TextArray[0]), "The Water Cycle Water moves between the oceans")
	require.Contains(t, flat(res.TextArray[0]), "Page three explains precipitation.")
	require.True(t, strings.HasPrefix(res.TextArray[1], "Lab Report: Plant Growth\nWe grew three bean plants"), res.TextArray[1])

	// A submission file of one of the team's assignments is readable too.
	asg, err := (&assignment.Service{Pool: b.pool}).Create(b.ctx, a, assignment.Input{Name: "Essay", Type: assignment.TypePrompt})
	require.NoError(t, err)
	sub := b.upload(t, a, "assignments/"+asg.ID.String()+"/submissions/essay.pdf", pdfType, fixture(t, "text-3pages.pdf"))
	res, err = b.svc.Read(b.ctx, a.TeamID, attachment.Request{Links: []string{sub.SignedURL}, PDFOnly: true})
	require.NoError(t, err)
	require.Contains(t, flat(res.TextArray[0]), "Page two explains condensation.")
}

func TestAScannedPDFGivesTheNoTextMarker(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.teacher(t)
	scan := b.upload(t, a, "chats/scan.pdf", pdfType, fixture(t, "scanned.pdf"))

	// Without a name, the name is the key's, without its random prefix.
	res, err := b.svc.Read(b.ctx, a.TeamID, attachment.Request{Links: []string{scan.FileURL}, PDFOnly: true})
	require.NoError(t, err)
	require.Equal(t, attachment.Result{TextArray: []string{"[No text found in scan.pdf]"}, NoText: []int{0}}, res,
		"the API has no OCR: a scanned page has no text, which is not an error, but is named so")

	// Beside a PDF with text, only the scan is named.
	text := b.upload(t, a, "chats/essay.pdf", pdfType, fixture(t, "text-3pages.pdf"))
	res, err = b.svc.Read(b.ctx, a.TeamID, attachment.Request{Links: []string{text.Key, scan.Key}, PDFOnly: true})
	require.NoError(t, err)
	require.False(t, res.Error)
	require.Equal(t, []int{1}, res.NoText)
}

func TestTheReadPDFCallRefusesOtherFilesWithAMarker(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.teacher(t)
	pdf := b.upload(t, a, "chats/essay.pdf", pdfType, fixture(t, "text-3pages.pdf"))
	// A Word file named .pdf: the bytes decide.
	fake := b.upload(t, a, "chats/notes.pdf", pdfType, fixture(t, "report.docx"))

	res, err := b.svc.Read(b.ctx, a.TeamID, attachment.Request{Links: []string{pdf.Key, fake.Key}, PDFOnly: true})
	require.NoError(t, err)
	require.True(t, res.Error)
	require.Equal(t, "Could not read notes.pdf.", res.Message)
	require.Equal(t, "[notes.pdf is not a PDF]", res.TextArray[1])
	require.Contains(t, flat(res.TextArray[0]), "The Water Cycle", "the other file is still read")
	require.Equal(t, []attachment.Failure{{Index: 1, Name: "notes.pdf", Reason: "notes.pdf is not a PDF."}}, res.Failures)

	// The files call reads the same bytes as the Word file they are.
	res, err = b.svc.Read(b.ctx, a.TeamID, attachment.Request{Links: []string{fake.Key}})
	require.NoError(t, err)
	require.False(t, res.Error)
	require.True(t, strings.HasPrefix(res.TextArray[0], "Lab Report: Plant Growth"))
}

func TestAnUnreadableFileIsFlaggedWithItsReason(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.teacher(t)
	bad := b.upload(t, a, "chats/broken.pdf", pdfType, fixture(t, "truncated.pdf")[:200])
	ok := b.upload(t, a, "chats/ok.txt", "text/plain", []byte("Notes for the chat."))

	res, err := b.svc.Read(b.ctx, a.TeamID, attachment.Request{Links: []string{bad.Key, ok.Key}, Names: []string{"broken.pdf", "ok.txt"}})
	require.NoError(t, err)
	require.True(t, res.Error)
	require.Equal(t, "Notes for the chat.", res.TextArray[1])
	require.Equal(t, "[Could not read broken.pdf: "+lower(extract.ReasonPDFDamaged)+"]", res.TextArray[0])
	require.Equal(t, "Could not read broken.pdf.", res.Message)
}

func lower(s string) string { return strings.ToLower(s[:1]) + s[1:] }

func TestAFileOverTheLimitIsNotRead(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.teacher(t)
	big := b.upload(t, a, "chats/big.txt", "text/plain", bytes.Repeat([]byte("word "), 400))
	svc := *b.svc
	svc.MaxBytes = 1000

	res, err := svc.Read(b.ctx, a.TeamID, attachment.Request{Links: []string{big.Key}})
	require.NoError(t, err)
	require.True(t, res.Error)
	require.Equal(t, []string{"[Could not read big.txt: it is larger than the 1000 bytes limit]"}, res.TextArray)
	require.Zero(t, b.gets.Load(), "a file larger than the limit is not opened")
}

func TestAnotherTeamsFileIsNotFoundAndNothingIsRead(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, eve := b.teacher(t), b.teacher(t)
	adas := b.upload(t, ada, "chats/secret.pdf", pdfType, fixture(t, "text-3pages.pdf"))
	eves := b.upload(t, eve, "chats/mine.pdf", pdfType, fixture(t, "text-3pages.pdf"))
	asg, err := (&assignment.Service{Pool: b.pool}).Create(b.ctx, ada, assignment.Input{Name: "Essay", Type: assignment.TypePrompt})
	require.NoError(t, err)
	adaSub := b.upload(t, ada, "assignments/"+asg.ID.String()+"/submissions/essay.pdf", pdfType, fixture(t, "text-3pages.pdf"))

	for _, link := range []string{adas.Key, adas.FileURL, adaSub.Key,
		// a key of Ada's folder that does not exist is not found either
		"chats/" + ada.TeamID.String() + "/0123456789abcdef-nothing.pdf",
		"assignments/" + uuid.NewString() + "/submissions/0123456789abcdef-x.pdf"} {
		_, err := b.svc.Read(b.ctx, eve.TeamID, attachment.Request{Links: []string{eves.Key, link}})
		requireCode(t, err, apperr.NotFound, "Not found")
	}
	require.Zero(t, b.gets.Load(), "nothing was read, not even Eve's own file")
}

func TestOutsideURLsAreRefusedAndNeverFetched(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.teacher(t)
	own := b.upload(t, a, "chats/essay.pdf", pdfType, fixture(t, "text-3pages.pdf"))
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		t.Errorf("the server fetched %s", r.URL)
	}))
	defer srv.Close()

	for _, link := range []string{
		"https://evil.example/x.pdf",
		srv.URL + "/x.pdf",
		srv.URL + "/files/" + own.Key, // the right key on another host
		"file:///etc/passwd",
		"../../etc/passwd",
		"public/" + a.TeamID.String() + "/0123456789abcdef-logo.png",
		"chats/" + a.TeamID.String() + "/",
	} {
		_, err := b.svc.Read(b.ctx, a.TeamID, attachment.Request{Links: []string{own.Key, link}, Names: []string{"essay.pdf", "x.pdf"}})
		requireCode(t, err, apperr.Invalid, "")
		require.Contains(t, apperr.From(err).Message, "x.pdf", link)
	}
	require.Zero(t, hits.Load())
	require.Zero(t, b.gets.Load(), "nothing was read")
}

func TestMalformedRequestsAreRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.teacher(t)
	own := b.upload(t, a, "chats/essay.txt", "text/plain", []byte("Essay"))

	eleven := make([]string, attachment.MaxLinks+1)
	for i := range eleven {
		eleven[i] = own.Key
	}
	_, err := b.svc.Read(b.ctx, a.TeamID, attachment.Request{Links: eleven})
	requireCode(t, err, apperr.Invalid, "At most 10 files can be read at once.")
	_, err = b.svc.Read(b.ctx, a.TeamID, attachment.Request{})
	requireCode(t, err, apperr.Invalid, "fileLinks must list at least one file.")
	_, err = b.svc.Read(b.ctx, a.TeamID, attachment.Request{Links: []string{own.Key}, Names: []string{"a", "b"}})
	requireCode(t, err, apperr.Invalid, "fileNames must name each file of fileLinks, in the same order.")
	require.Zero(t, b.gets.Load())

	// A key issued but never uploaded.
	up, err := b.files.PresignUpload(b.ctx, files.Teacher, a.TeamID, files.UploadRequest{FileName: "chats/late.pdf", FileType: pdfType})
	require.NoError(t, err)
	_, err = b.svc.Read(b.ctx, a.TeamID, attachment.Request{Links: []string{up.Key}, Names: []string{"late.pdf"}})
	requireCode(t, err, apperr.Invalid, "late.pdf has not finished uploading. Please upload it again.")

	// Ten is allowed.
	res, err := b.svc.Read(b.ctx, a.TeamID, attachment.Request{Links: eleven[:10]})
	require.NoError(t, err)
	require.Len(t, res.TextArray, 10)
	require.Equal(t, "Essay", res.TextArray[9])
}

// slowReader records how many files it reads at once, and blocks until
// released or the context ends.
type slowReader struct {
	mu        sync.Mutex
	now, most int
	release   chan struct{}
}

func (r *slowReader) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	r.mu.Lock()
	r.now++
	r.most = max(r.most, r.now)
	r.mu.Unlock()
	defer func() { r.mu.Lock(); r.now--; r.mu.Unlock() }()
	select {
	case <-r.release:
	case <-ctx.Done():
		return extract.Result{}, ctx.Err()
	}
	data, _ := io.ReadAll(in.Body)
	return extract.Result{Text: string(data)}, nil
}

func TestFilesAreReadTwoAtATimeWithinTheCallsTime(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.teacher(t)
	links := make([]string, 6)
	for i := range links {
		links[i] = b.upload(t, a, "chats/n.txt", "text/plain", []byte("note")).Key
	}

	r := &slowReader{release: make(chan struct{})}
	svc := *b.svc
	svc.Reader = r
	go func() {
		time.Sleep(100 * time.Millisecond)
		close(r.release)
	}()
	res, err := svc.Read(b.ctx, a.TeamID, attachment.Request{Links: links})
	require.NoError(t, err)
	require.Equal(t, []string{"note", "note", "note", "note", "note", "note"}, res.TextArray)
	require.Equal(t, attachment.Concurrency, r.most, "files are read concurrently, at most two at once")

	// Past the call's time, the files not read are flagged, not lost.
	svc.Reader = &slowReader{release: make(chan struct{})}
	svc.Timeout = 150 * time.Millisecond
	res, err = svc.Read(b.ctx, a.TeamID, attachment.Request{Links: links[:3]})
	require.NoError(t, err)
	require.True(t, res.Error)
	require.Equal(t, "Could not read 3 of the 3 files.", res.Message)
	require.Equal(t, "[Could not read n.txt: it took too long to read]", res.TextArray[2])
}

// stuckReader reads a file only once release is closed, whatever its context
// says (a reader busy in a step that does not watch it); started gets a
// value as each read begins.
type stuckReader struct {
	started chan struct{}
	release chan struct{}
}

func newStuckReader(t *testing.T) *stuckReader {
	r := &stuckReader{started: make(chan struct{}, 16), release: make(chan struct{})}
	t.Cleanup(func() {
		select {
		case <-r.release:
		default:
			close(r.release)
		}
	})
	return r
}

func (r *stuckReader) Extract(_ context.Context, in extract.Input) (extract.Result, error) {
	r.started <- struct{}{}
	<-r.release
	data, _ := io.ReadAll(in.Body)
	return extract.Result{Text: string(data)}, nil
}

// TestCallsReadingAtOnceAreBoundedPerProcess: with Slots calls reading,
// another waits Wait and is refused with 429, Retry-After and a sentence.
func TestCallsReadingAtOnceAreBoundedPerProcess(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.teacher(t)
	link := b.upload(t, a, "chats/n.txt", "text/plain", []byte("note")).Key
	r := newStuckReader(t)
	svc := *b.svc
	svc.Reader = r
	svc.Gate = attachment.NewGate() // this test's own
	errs := make(chan error, attachment.Slots)
	for range attachment.Slots {
		go func() {
			_, err := svc.Read(b.ctx, a.TeamID, attachment.Request{Links: []string{link}})
			errs <- err
		}()
		<-r.started
	}

	start := time.Now()
	_, err := svc.Read(b.ctx, a.TeamID, attachment.Request{Links: []string{link}})
	var ae *apperr.Error
	require.ErrorAs(t, err, &ae)
	require.Equal(t, apperr.RateLimited, ae.Code)
	require.Equal(t, attachment.MsgBusy, ae.Message)
	require.Equal(t, attachment.Wait, ae.RetryAfter)
	require.GreaterOrEqual(t, time.Since(start), attachment.Wait)

	close(r.release)
	for range attachment.Slots {
		require.NoError(t, <-errs)
	}
	res, err := svc.Read(b.ctx, a.TeamID, attachment.Request{Links: []string{link}})
	require.NoError(t, err)
	require.Equal(t, []string{"note"}, res.TextArray)
}

// TestReadReturnsWhenTheCallerLeaves: a caller whose client goes away is
// answered at once, although a read is stuck; the slot frees when it ends.
func TestReadReturnsWhenTheCallerLeaves(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.teacher(t)
	link := b.upload(t, a, "chats/n.txt", "text/plain", []byte("note")).Key
	r := newStuckReader(t)
	svc := *b.svc
	svc.Reader = r
	svc.Gate = attachment.NewGate()
	ctx, cancel := context.WithCancel(b.ctx)
	errc := make(chan error, 1)
	go func() {
		_, err := svc.Read(ctx, a.TeamID, attachment.Request{Links: []string{link}})
		errc <- err
	}()
	<-r.started
	cancel()
	select {
	case err := <-errc:
		require.ErrorIs(t, err, context.Canceled)
	case <-time.After(2 * time.Second):
		t.Fatal("Read kept its caller waiting after the client left")
	}
	require.Equal(t, 1, svc.Gate.Running())
	close(r.release)
	require.Eventually(t, func() bool { return svc.Gate.Running() == 0 }, 2*time.Second, 5*time.Millisecond)
}
