package result

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/submission"
)

// A page of the submissions table (submission-rows): a class of 1,500
// sent whole with every result's answers was 1.8 MB per poll and 37,000
// DOM nodes; the table now asks for one sorted, filtered page of light rows.

// LightClassSize is the largest class whose every result the assignment
// page loads on open (assignment/get with light); a larger one is read a
// page at a time and its class summary on request.
const LightClassSize = 300

// Row limits of one page.
const (
	DefaultRowLimit = 50
	MaxRowLimit     = 200
)

// Sort keys of submission-rows: the table's columns, and when it arrived.
var rowSorts = []string{"name", "student", "email", "status", "result", "score", "preview", "pages", "submitted"}

// Status buckets, each submission in exactly one (the table's chips: its
// reading status while it is not ready, else its result's).
const (
	BucketReading  = "reading"  // queued or being read
	BucketUngraded = "ungraded" // ready, never graded (or ready to grade)
	BucketGrading  = "grading"  // the AI is working on it
	BucketGraded   = "graded"   // graded or annotated, not reviewed
	BucketReviewed = "reviewed" // reviewed by the teacher
	BucketFailed   = "failed"   // reading or grading failed
)

// RowBuckets are the buckets in the order the UI lists them.
var RowBuckets = []string{BucketReading, BucketUngraded, BucketGrading, BucketGraded, BucketReviewed, BucketFailed}

// RowQuery is what one page of the table asks for.
type RowQuery struct {
	Offset int    `json:"offset"`
	Limit  int    `json:"limit"`
	Sort   string `json:"sort"`
	Order  string `json:"order"`
	Status string `json:"status"`
	Search string `json:"search"`
	// IDs asks for every matching submission's id (select all, grade all).
	IDs bool `json:"ids"`
}

// Normalize fills defaults and refuses what the table cannot ask.
func (q *RowQuery) Normalize() error {
	if q.Offset < 0 {
		return apperr.Invalidf("offset must be 0 or more.")
	}
	switch {
	case q.Limit == 0:
		q.Limit = DefaultRowLimit
	case q.Limit < 0 || q.Limit > MaxRowLimit:
		return apperr.Invalidf("limit must be between 1 and %d.", MaxRowLimit)
	}
	if q.Sort == "" {
		q.Sort = "submitted"
	}
	if !slices.Contains(rowSorts, q.Sort) {
		return apperr.Invalidf("sort must be one of %s.", strings.Join(rowSorts, ", "))
	}
	if q.Order == "" {
		q.Order = "asc"
	}
	if q.Order != "asc" && q.Order != "desc" {
		return apperr.Invalidf("order must be asc or desc.")
	}
	if q.Status == "" {
		q.Status = "all"
	}
	if q.Status != "all" && !slices.Contains(RowBuckets, q.Status) {
		return apperr.Invalidf("status must be all or one of %s.", strings.Join(RowBuckets, ", "))
	}
	q.Search = strings.TrimSpace(q.Search)
	return nil
}

// RowResult is what the table shows of a submission's result.
type RowResult struct {
	ID            uuid.UUID       `json:"_id"`
	Submission    uuid.UUID       `json:"submission"`
	Status        string          `json:"status"`
	Error         string          `json:"error"`
	TotalPoints   *float64        `json:"totalPoints"`
	MaxPoints     *float64        `json:"maxPoints"`
	Flags         json.RawMessage `json:"flags,omitempty"`
	IsBenchmark   bool            `json:"isBenchmark"`
	Reviewed      bool            `json:"reviewed"`
	Outdated      bool            `json:"outdated"`
	OutdatedParts []string        `json:"outdatedParts,omitempty"`
	// QuestionsAdded: a question or criterion was added since it was graded.
	QuestionsAdded bool       `json:"questionsAdded,omitempty"`
	GradedAt       *time.Time `json:"gradedAt"`
	ReviewedAt     *time.Time `json:"reviewedAt"`
}

// Row is one line of the table: the submission without its text, its
// bucket and its result (nil when it has none).
type Row struct {
	submission.Submission
	Bucket string     `json:"bucket"`
	Result *RowResult `json:"result"`
}

// Rows is one page of the table.
type Rows struct {
	Rows []Row `json:"rows"`
	// Total is how many submissions match the filter and search.
	Total int `json:"total"`
	// Counts is the whole class by bucket, whatever the filter.
	Counts map[string]int `json:"counts"`
	// ClassSize is every submission of the assignment.
	ClassSize int `json:"classSize"`
	// InProgress says something is still being read or graded: poll.
	InProgress bool `json:"inProgress"`
	// SubmissionIDs are every match's ids in order, when asked.
	SubmissionIDs []uuid.UUID `json:"submissionIds,omitempty"`
	// ReviewedIDs are those of them the teacher reviewed (grade-all asks
	// whether to skip them), when ids are asked.
	ReviewedIDs []uuid.UUID `json:"reviewedIds,omitempty"`
	// UnreadableIDs are those of them whose file could not be read (the
	// submission failed): there is no text to grade, so grade-all leaves
	// them out and says how many, when ids are asked.
	UnreadableIDs []uuid.UUID `json:"unreadableIds,omitempty"`
	// OutdatedIDs are the whole class's submissions (whatever the filter,
	// search and page) whose result was graded against an earlier version
	// of the definition, in upload order: "Grade changed questions again"
	// grades those.
	OutdatedIDs []uuid.UUID `json:"outdatedIds"`
	// OutdatedReviewed is how many of them the teacher reviewed (skipped).
	OutdatedReviewed int `json:"outdatedReviewed"`
	// QuestionsAddedIDs are those of them graded before a question or
	// criterion was added (not only changed): their students would see it
	// as not met, so the Release dialog warns about them.
	QuestionsAddedIDs []uuid.UUID `json:"questionsAddedIds"`
	// QuestionsAddedReviewed is how many of those the teacher reviewed.
	QuestionsAddedReviewed int `json:"questionsAddedReviewed"`
	// ClassroomSubmissions is how many of the whole class were imported
	// from Google Classroom ("Send grades to Classroom" is shown when one
	// is, on any page).
	ClassroomSubmissions int `json:"classroomSubmissions"`
	// Version is where the read stood (changes.Version), the ETag's value.
	Version string `json:"version"`
}

// Bucket is the status bucket of a submission with its result (nil: none).
func Bucket(s submission.Submission, r *RowResult) string {
	switch {
	case s.Status == "failed":
		return BucketFailed
	case s.Status != "ready":
		return BucketReading
	case r == nil:
		return BucketUngraded
	case r.Status == "failed":
		return BucketFailed
	case grading.IsInProgress(r.Status):
		return BucketGrading
	case r.Status == "reviewed":
		return BucketReviewed
	case r.Status == "graded" || r.Status == "annotated":
		return BucketGraded
	}
	return BucketUngraded
}

// resultOrder puts failures first, then work in progress, then by points
// (the table's own order, lib/sort.ts).
func resultOrder(r *RowResult) int {
	if r == nil {
		return 2
	}
	switch {
	case r.Status == "failed":
		return 0
	case grading.IsInProgress(r.Status):
		return 1
	case r.Status == "ready-to-grade":
		return 3
	case r.Status == "graded" || r.Status == "annotated":
		return 4
	case r.Status == "reviewed":
		return 5
	}
	return 2
}

var statusOrder = map[string]int{"failed": 0, "queued": 1, "extracting": 2, "ready": 3}

func points(r *RowResult) float64 {
	if r == nil || r.TotalPoints == nil {
		return -1
	}
	return *r.TotalPoints
}

func studentLabel(s submission.Submission) string {
	if s.StudentName != "" {
		return s.StudentName
	}
	return s.StudentEmail
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// BuildRows is the page q asks of a class: its submissions (in upload
// order) and their results.
func BuildRows(subs []submission.Submission, results []RowResult, q RowQuery) Rows {
	bySub := make(map[uuid.UUID]*RowResult, len(results))
	for i := range results {
		bySub[results[i].Submission] = &results[i]
	}
	out := Rows{Counts: make(map[string]int, len(RowBuckets)), ClassSize: len(subs), Rows: []Row{}, OutdatedIDs: []uuid.UUID{}, QuestionsAddedIDs: []uuid.UUID{}}
	for _, b := range RowBuckets {
		out.Counts[b] = 0
	}
	search := searchKey(q.Search)
	match := make([]Row, 0, len(subs))
	for _, s := range subs {
		r := bySub[s.ID]
		b := Bucket(s, r)
		out.Counts[b]++
		if b == BucketReading || b == BucketGrading {
			out.InProgress = true
		}
		if s.Source == submission.SourceGoogle {
			out.ClassroomSubmissions++
		}
		if r != nil && r.Outdated {
			out.OutdatedIDs = append(out.OutdatedIDs, s.ID)
			if r.Reviewed {
				out.OutdatedReviewed++
			}
			if r.QuestionsAdded {
				out.QuestionsAddedIDs = append(out.QuestionsAddedIDs, s.ID)
				if r.Reviewed {
					out.QuestionsAddedReviewed++
				}
			}
		}
		if q.Status != "all" && q.Status != "" && b != q.Status {
			continue
		}
		if search != "" && !strings.Contains(searchKey(s.Name), search) &&
			!strings.Contains(searchKey(s.StudentName), search) &&
			!strings.Contains(searchKey(s.StudentEmail), search) {
			continue
		}
		match = append(match, Row{Submission: s, Bucket: b, Result: r})
	}
	order := sortRows(match, q)
	out.Total = len(match)
	if q.IDs {
		out.SubmissionIDs = make([]uuid.UUID, len(match))
		out.ReviewedIDs = []uuid.UUID{}
		out.UnreadableIDs = []uuid.UUID{}
		for i, k := range order {
			out.SubmissionIDs[i] = match[k].ID
			if match[k].Bucket == BucketReviewed {
				out.ReviewedIDs = append(out.ReviewedIDs, match[k].ID)
			}
			if match[k].Status == "failed" {
				out.UnreadableIDs = append(out.UnreadableIDs, match[k].ID)
			}
		}
	}
	if q.Offset < len(order) {
		page := order[q.Offset:min(len(order), q.Offset+q.Limit)]
		out.Rows = make([]Row, len(page))
		for i, k := range page {
			out.Rows[i] = match[k]
		}
	}
	return out
}

// rowText is the text a column sorts by under the collator, or nil for
// the columns that sort by something else.
func rowText(sort string) func(r *Row) string {
	switch sort {
	case "name":
		return func(r *Row) string { return r.Name }
	case "student":
		return func(r *Row) string { return studentLabel(r.Submission) }
	case "email":
		return func(r *Row) string { return r.StudentEmail }
	case "preview":
		return func(r *Row) string { return r.Preview }
	}
	return nil
}

// rowCmp orders two rows by a column that is not text (rowText).
func rowCmp(sort string) func(a, b *Row) int {
	switch sort {
	case "status":
		return func(a, b *Row) int { return statusOrder[a.Status] - statusOrder[b.Status] }
	case "result":
		return func(a, b *Row) int {
			if d := resultOrder(a.Result) - resultOrder(b.Result); d != 0 {
				return d
			}
			return cmpFloat(points(a.Result), points(b.Result))
		}
	case "score":
		return func(a, b *Row) int { return cmpFloat(points(a.Result), points(b.Result)) }
	case "pages":
		return func(a, b *Row) int { return a.PageCount - b.PageCount }
	}
	// submitted: upload order
	return func(a, b *Row) int { return a.CreatedAt.Compare(b.CreatedAt) }
}

// NameKeys returns a function that makes sort keys of names as the table
// sorts them in the browser: numbers as numbers ("Essay 2" before "Essay
// 10"), case and accents aside. Its collator is its own (one per sort, not
// shared between goroutines). Every run of digits is keyed as "1" and the
// number without its leading zeros: collate's numeric keys put a lone "0"
// after the other numbers ("essay-0" after "essay-1"), and no number keyed
// this way is 0.
func NameKeys() func(string) []byte {
	col := collate.New(language.Und, collate.Numeric, collate.Loose)
	var buf collate.Buffer
	return func(s string) []byte {
		return col.KeyFromString(&buf, digitRuns.ReplaceAllStringFunc(s, func(run string) string {
			return "1" + strings.TrimLeft(run, "0")
		}))
	}
}

// digitRuns matches the runs of ASCII digits NameKeys rewrites.
var digitRuns = regexp.MustCompile(`[0-9]+`)

// sortRows returns the indexes of rows in q's order; rows that tie keep
// upload order (their order in rows), whichever way the column runs.
// Numbers in names sort as numbers ("Essay 2" before "Essay 10"), case and
// accents aside, as the table sorted in the browser. Each row's collation
// key is made once: comparing the strings under the collator at every
// comparison, and moving whole rows, was two thirds of a year group's read
// (BenchmarkReadRows10000).
func sortRows(rows []Row, q RowQuery) []int {
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	sign := 1
	if q.Order == "desc" {
		sign = -1
	}
	var cmp func(i, j int) int
	if text := rowText(q.Sort); text != nil {
		key := NameKeys()
		keys := make([][]byte, len(rows))
		for i := range rows {
			keys[i] = key(text(&rows[i]))
		}
		cmp = func(i, j int) int { return bytes.Compare(keys[i], keys[j]) }
	} else {
		by := rowCmp(q.Sort)
		cmp = func(i, j int) int { return by(&rows[i], &rows[j]) }
	}
	slices.SortFunc(order, func(i, j int) int {
		if c := sign * cmp(i, j); c != 0 {
			return c
		}
		return i - j
	})
	return order
}

// RowResults are the assignment's results as the table shows them, with
// their totals (the scorer's memo makes a poll of an unchanged class cheap)
// and whether they are outdated. Another team's assignment is not found.
func (s *Service) RowResults(ctx context.Context, a identity.Actor, assignmentID uuid.UUID) ([]RowResult, error) {
	asg, fn, results, err := s.Assignments.GetForTable(ctx, a, assignmentID)
	if err != nil {
		return nil, err
	}
	sc := s.scorer(asg.Type, fn)
	out := make([]RowResult, len(results))
	for i := range results {
		fr := &results[i]
		sc.score(fr)
		if fn != nil {
			fr.MarkOutdated(*fn)
		}
		out[i] = RowResult{
			ID: fr.ID, Submission: fr.Submission, Status: fr.Status, Error: fr.Error,
			TotalPoints: fr.TotalPoints, MaxPoints: fr.MaxPoints, Flags: fr.Flags,
			IsBenchmark: fr.IsBenchmark, Reviewed: fr.Status == "reviewed",
			Outdated: fr.Outdated, OutdatedParts: fr.OutdatedParts, QuestionsAdded: fr.QuestionsAdded,
			GradedAt: fr.GradedAt, ReviewedAt: fr.ReviewedAt,
		}
	}
	return out, nil
}

// searchKey is s as the table's search compares it: lower case, accents
// and other combining marks left out, so "chloe" finds "Chloé" and
// "Chloé" finds "Chloe".
func searchKey(s string) string {
	if isPlainASCII(s) {
		return strings.ToLower(s)
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// isPlainASCII reports whether s has no byte beyond ASCII (nothing to fold).
func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
