package result_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"github.com/markwell/markwell/internal/result"
	"github.com/markwell/markwell/internal/submission"
)

// class is a small class in upload order: names, students, reading states
// and results chosen so that every sort and bucket tells them apart.
func class() ([]submission.Submission, []result.RowResult) {
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	sub := func(i int, name, student, email, status string) submission.Submission {
		return submission.Submission{ID: uuid.New(), Name: name, StudentName: student, StudentEmail: email, Status: status, CreatedAt: t0.Add(time.Duration(i) * time.Minute)}
	}
	subs := []submission.Submission{
		sub(0, "Essay 10", "Zoë", "zoe@school.test", "ready"),
		sub(1, "essay 2", "Adam", "adam@school.test", "ready"),
		sub(2, "Essay 3", "", "bea@school.test", "extracting"),
		sub(3, "Essay 4", "Carl", "carl@school.test", "failed"),
		sub(4, "Essay 5", "Dana", "dana@school.test", "ready"),
		sub(5, "Essay 6", "Eve", "eve@school.test", "ready"),
	}
	pts := func(f float64) *float64 { return &f }
	results := []result.RowResult{
		{ID: uuid.New(), Submission: subs[0].ID, Status: "graded", TotalPoints: pts(7), MaxPoints: pts(10)},
		{ID: uuid.New(), Submission: subs[1].ID, Status: "reviewed", TotalPoints: pts(9), MaxPoints: pts(10)},
		{ID: uuid.New(), Submission: subs[4].ID, Status: "grading"},
		{ID: uuid.New(), Submission: subs[5].ID, Status: "failed", Error: "The model did not answer."},
	}
	return subs, results
}

func names(rows result.Rows) []string {
	out := []string{}
	for _, r := range rows.Rows {
		out = append(out, r.Name)
	}
	return out
}

func query(q result.RowQuery) result.RowQuery {
	if err := q.Normalize(); err != nil {
		panic(err)
	}
	return q
}

func TestRowsSortLikeTheTable(t *testing.T) {
	subs, results := class()
	page := result.BuildRows(subs, results, query(result.RowQuery{}))
	require.Equal(t, []string{"Essay 10", "essay 2", "Essay 3", "Essay 4", "Essay 5", "Essay 6"}, names(page), "upload order by default")

	page = result.BuildRows(subs, results, query(result.RowQuery{Sort: "name"}))
	require.Equal(t, []string{"essay 2", "Essay 3", "Essay 4", "Essay 5", "Essay 6", "Essay 10"}, names(page), "numbers as numbers, case aside")

	page = result.BuildRows(subs, results, query(result.RowQuery{Sort: "student", Order: "desc"}))
	require.Equal(t, []string{"Essay 10", "Essay 6", "Essay 5", "Essay 4", "Essay 3", "essay 2"}, names(page), "the name, else the email")

	page = result.BuildRows(subs, results, query(result.RowQuery{Sort: "score", Order: "desc"}))
	require.Equal(t, []string{"essay 2", "Essay 10"}, names(page)[:2], "highest score first")

	page = result.BuildRows(subs, results, query(result.RowQuery{Sort: "result"}))
	require.Equal(t, []string{"Essay 6", "Essay 5"}, names(page)[:2], "failures, then work in progress")
	require.Equal(t, "essay 2", names(page)[5], "reviewed last")
}

func TestRowsFilterSearchAndCount(t *testing.T) {
	subs, results := class()
	page := result.BuildRows(subs, results, query(result.RowQuery{Status: result.BucketFailed}))
	require.Equal(t, []string{"Essay 4", "Essay 6"}, names(page), "a failed reading and a failed grading")
	require.Equal(t, 2, page.Total)
	require.Equal(t, map[string]int{"reading": 1, "ungraded": 0, "grading": 1, "graded": 1, "reviewed": 1, "failed": 2}, page.Counts, "the whole class whatever the filter")
	require.Equal(t, 6, page.ClassSize)
	require.True(t, page.InProgress, "one is read, one graded")

	page = result.BuildRows(subs, results, query(result.RowQuery{Search: "  BEA@school "}))
	require.Equal(t, []string{"Essay 3"}, names(page), "the email, case aside")
	page = result.BuildRows(subs, results, query(result.RowQuery{Search: "zo"}))
	require.Equal(t, []string{"Essay 10"}, names(page), "the student's name")
	page = result.BuildRows(subs, results, query(result.RowQuery{Search: "ZOE"}))
	require.Equal(t, []string{"Essay 10"}, names(page), "Zoë without her accent")
	page = result.BuildRows(subs, results, query(result.RowQuery{Search: "dána"}))
	require.Equal(t, []string{"Essay 5"}, names(page), "an accent typed where the name has none")
	page = result.BuildRows(subs, results, query(result.RowQuery{Search: "essay 5"}))
	require.Equal(t, []string{"Essay 5"}, names(page), "the submission's name")
	require.Nil(t, page.SubmissionIDs, "ids only when asked")
}

func TestRowsPageAndIDs(t *testing.T) {
	subs, results := class()
	page := result.BuildRows(subs, results, query(result.RowQuery{Sort: "name", Offset: 4, Limit: 4, IDs: true}))
	require.Equal(t, []string{"Essay 6", "Essay 10"}, names(page), "the last page is short")
	require.Equal(t, 6, page.Total)
	require.Len(t, page.SubmissionIDs, 6, "every match, not only the page")
	require.Equal(t, subs[1].ID, page.SubmissionIDs[0], "in the page's order")
	require.Equal(t, []uuid.UUID{subs[1].ID}, page.ReviewedIDs, "the reviewed among them")
	require.Equal(t, []uuid.UUID{subs[3].ID}, page.UnreadableIDs, "the one whose file could not be read, not the one whose grading failed")

	page = result.BuildRows(subs, results, query(result.RowQuery{Offset: 50}))
	require.Empty(t, page.Rows)
	require.NotNil(t, page.Rows, "an empty list, not null")

	require.NotNil(t, page.Counts)
	require.Nil(t, result.BuildRows(subs, results, query(result.RowQuery{})).Rows[2].Result, "no result yet")
}

func TestRowQueryRefusesWhatTheTableCannotAsk(t *testing.T) {
	for _, q := range []result.RowQuery{{Sort: "colour"}, {Status: "done"}, {Order: "up"}, {Limit: 201}, {Limit: -1}, {Offset: -1}} {
		require.Error(t, q.Normalize(), "%+v", q)
	}
	q := result.RowQuery{}
	require.NoError(t, q.Normalize())
	require.Equal(t, result.RowQuery{Limit: 50, Sort: "submitted", Order: "asc", Status: "all"}, q)
}

// A class of 120 read a page of 25 at a time: "Grade changed questions
// again" is given every outdated result of the class, not the page's, and
// how many of them the teacher reviewed, and "Send grades to Classroom"
// how many came from Google Classroom, whatever the page, filter or search.
func TestRowsListEveryOutdatedResultOfAClassBiggerThanAPage(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	var subs []submission.Submission
	var results []result.RowResult
	var outdated, added []uuid.UUID
	for i := range 120 {
		s := submission.Submission{ID: uuid.New(), Name: "Essay " + string(rune('A'+i%26)), Status: "ready", Source: submission.SourceCSV, CreatedAt: t0.Add(time.Duration(i) * time.Second)}
		if i >= 110 { // the last page's 10 came from Google Classroom
			s.Source = submission.SourceGoogle
		}
		subs = append(subs, s)
		r := result.RowResult{ID: uuid.New(), Submission: s.ID, Status: "graded"}
		if i%3 == 0 { // 40 graded before the definition changed
			r.Outdated = true
			outdated = append(outdated, s.ID)
			if i%5 == 0 { // 8 of them reviewed
				r.Status, r.Reviewed = "reviewed", true
			}
			if i%2 == 0 { // 20 of them before a question was added, 4 of those reviewed
				r.QuestionsAdded = true
				added = append(added, s.ID)
			}
		}
		results = append(results, r)
	}
	for _, q := range []result.RowQuery{
		{Limit: 25},
		{Limit: 25, Offset: 100},
		{Limit: 25, Status: result.BucketReviewed},
		{Limit: 25, Search: "Essay B"},
	} {
		page := result.BuildRows(subs, results, query(q))
		require.LessOrEqual(t, len(page.Rows), 25)
		require.Equal(t, outdated, page.OutdatedIDs, "the whole class's outdated results, in upload order: %+v", q)
		require.Equal(t, 8, page.OutdatedReviewed)
		require.Equal(t, added, page.QuestionsAddedIDs, "those graded before a question was added, not only changed: %+v", q)
		require.Equal(t, 4, page.QuestionsAddedReviewed)
		require.Equal(t, 10, page.ClassroomSubmissions, "the whole class's, whatever the page shows")
	}
	subs, results = class()
	page := result.BuildRows(subs, results, query(result.RowQuery{}))
	require.NotNil(t, page.OutdatedIDs, "none is an empty list, not null")
	require.Empty(t, page.OutdatedIDs)
	require.NotNil(t, page.QuestionsAddedIDs, "none is an empty list, not null")
}

// The table's order by a text column is the collator's (numbers as
// numbers, case and accents aside), ties in upload order, however the
// class's names are written: the same as comparing every pair of names.
func TestRowsSortByTextAsTheCollatorCompares(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	names := []string{"Émile 2", "emile 10", "Emile 2", "Zoë", "zoe", "Ana-Maria", "Ana Maria", "anna", "Ánna", "Student 100", "Student 20",
		"student 3", "Student 3", "", " Lea", "Léa", "O'Brien", "obrien", "Student 2a", "Student 2", "ß", "ss", "10", "9", "Ωmega", "Ørjan", "Orjan"}
	var subs []submission.Submission
	for i, n := range names {
		subs = append(subs, submission.Submission{ID: uuid.New(), Name: n, StudentEmail: n + "@school.test", Status: "ready", CreatedAt: t0.Add(time.Duration(i) * time.Second)})
	}
	col := collate.New(language.Und, collate.Numeric, collate.Loose)
	for _, order := range []string{"asc", "desc"} {
		want := slices.Clone(subs)
		slices.SortStableFunc(want, func(a, b submission.Submission) int {
			if order == "desc" {
				return col.CompareString(b.Name, a.Name)
			}
			return col.CompareString(a.Name, b.Name)
		})
		page := result.BuildRows(subs, nil, query(result.RowQuery{Sort: "name", Order: order, Limit: 200}))
		got := make([]uuid.UUID, len(page.Rows))
		for i, r := range page.Rows {
			got[i] = r.ID
		}
		wantIDs := make([]uuid.UUID, len(want))
		for i, s := range want {
			wantIDs[i] = s.ID
		}
		require.Equal(t, wantIDs, got, order)
	}
}
