package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// uploadAs uploads body to an assignment's submissions folder as the
// browser does (s3-upload, then a PUT with the file's type) and returns the
// file URL.
func uploadAs(t *testing.T, br *browser, assignmentID, name, contentType, body string) string {
	t.Helper()
	status, data, e := br.call(t, "/api/v1/s3-upload", map[string]any{
		"fileName": "assignments/" + assignmentID + "/submissions/" + name, "fileType": contentType, "fileSize": len(body),
	})
	require.Equal(t, 200, status, e)
	put, err := http.NewRequest("PUT", data["signedUrl"].(string), strings.NewReader(body))
	require.NoError(t, err)
	put.Header.Set("Content-Type", contentType)
	res, err := http.DefaultClient.Do(put)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, 200, res.StatusCode)
	return data["fileUrl"].(string)
}

// gradeAssignment creates a grade assignment with two questions through
// the API and returns its id.
func gradeAssignment(t *testing.T, br *browser) string {
	t.Helper()
	status, data, e := br.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "WW1 quiz", "type": "grade"})
	require.Equal(t, 200, status, e)
	id := data["assignment"].(map[string]any)["_id"].(string)
	question := func(text string) map[string]any {
		return map[string]any{"questionText": text, "criteria": []any{map[string]any{"description": "Right", "points": 1}}, "subquestions": []any{}}
	}
	status, _, e = br.call(t, "/api/v1/db/function/put", map[string]any{"assignmentId": id, "questions": []any{
		question("What caused the war?"), question("Name one consequence."),
	}})
	require.Equal(t, 200, status, e)
	return id
}

func TestTeacherPreviewsAndImportsACSV(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.newBrowser(t)
	ada.signIn(t, "Ada", "ada.csv@school.test")
	asg := gradeAssignment(t, ada)
	csv := "\ufeffTimestamp,Email Address,Name,Q1,Q2,Q3\r\n" +
		"2024/03/01 9:14:02 AM GMT,ann@school.test,Ann Lee,\"Alliances,\r\nmilitarism\",Versailles,extra\r\n" +
		"2024/03/01 9:20:45 AM GMT,,Bo Chen,\"=HYPERLINK(\"\"http://x\"\")\",,extra\r\n"
	loc := uploadAs(t, ada, asg, "class 9B.csv", "text/csv", csv)

	status, data, e := ada.call(t, "/api/v1/db/assignment/preview-csv", map[string]any{"assignmentId": asg, "csvLocation": loc})
	require.Equal(t, 200, status, e)
	require.Equal(t, map[string]any{
		"headers": []any{"Timestamp", "Email Address", "Name", "Q1", "Q2", "Q3"},
		"rows": []any{
			[]any{"2024/03/01 9:14:02 AM GMT", "ann@school.test", "Ann Lee", "Alliances,\nmilitarism", "Versailles", "extra"},
			[]any{"2024/03/01 9:20:45 AM GMT", "", "Bo Chen", `=HYPERLINK("http://x")`, "", "extra"},
		},
		"rowCount":  float64(2),
		"delimiter": ",",
		"mapping": map[string]any{"nameColumn": float64(2), "emailColumn": float64(1), "questions": []any{
			map[string]any{"question": float64(0), "column": float64(3)}, map[string]any{"question": float64(1), "column": float64(4)},
		}},
		"questions": []any{
			map[string]any{"index": float64(0), "text": "What caused the war?"}, map[string]any{"index": float64(1), "text": "Name one consequence."},
		},
	}, data)

	// The teacher maps only the first question; no email column.
	status, data, e = ada.call(t, "/api/v1/db/assignment/update-submissions-csv", map[string]any{
		"assignmentId": asg, "submissionRole": "teacher", "type": "grade", "csvLocation": loc,
		"parsedCSV": map[string]any{"nameColumn": 2, "questions": []any{map[string]any{"question": 0, "column": 3}}},
	})
	require.Equal(t, 200, status, e)
	require.Equal(t, float64(2), data["imported"])
	require.Len(t, data["functionResults"], 2)
	subs := data["submissions"].([]any)
	require.Len(t, subs, 2)
	ann := subs[0].(map[string]any)
	require.Equal(t, "Ann Lee", ann["name"])
	require.Equal(t, "Ann Lee", ann["studentName"])
	require.Equal(t, "", ann["studentEmail"], "no email column was chosen")
	require.Equal(t, "csv", ann["source"])
	require.Equal(t, "ready", ann["status"])
	require.Equal(t, "Question 1: What caused the war?\nAlliances,\nmilitarism", ann["preview"])

	status, data, e = ada.call(t, "/api/v1/db/submission/get", map[string]any{"submissionId": subs[1].(map[string]any)["_id"]})
	require.Equal(t, 200, status, e)
	require.Equal(t, "Question 1: What caused the war?\n=HYPERLINK(\"http://x\")", data["submission"].(map[string]any)["text"], "stored as written")

	// The page's polling call lists them, and nothing is being read.
	status, data, e = ada.call(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": asg})
	require.Equal(t, 200, status, e)
	require.Len(t, data["submissions"], 2)
	require.Len(t, data["functionResults"], 2)

	// Sent again (a double click): refused, nothing added.
	ada.refused(t, "/api/v1/db/assignment/update-submissions-csv", map[string]any{
		"assignmentId": asg, "csvLocation": loc, "parsedCSV": map[string]any{"nameColumn": 2, "questions": []any{map[string]any{"question": 0, "column": 3}}},
	}, "This CSV file has already been imported into this assignment.")
	_, data, _ = ada.call(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": asg})
	require.Len(t, data["submissions"], 2)
}

func TestCSVImportMessages(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.newBrowser(t)
	ada.signIn(t, "Ada", "ada.csv-messages@school.test")
	asg := gradeAssignment(t, ada)
	status, data, e := ada.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Essay", "type": "feedback"})
	require.Equal(t, 200, status, e)
	essay := data["assignment"].(map[string]any)["_id"].(string)
	good := "Name,Q1\nAnn,Yes\n"
	mapping := map[string]any{"nameColumn": 0, "emailColumn": -1, "questions": []any{map[string]any{"question": 0, "column": 1}}}

	for _, c := range []struct {
		asg, location, msg string
	}{
		{essay, uploadAs(t, ada, essay, "a.csv", "text/csv", good), "This assignment type does not support CSV uploads"},
		{asg, "", "No file uploaded."},
		{asg, uploadAs(t, ada, asg, "scan.png", "image/png", good), "Uploaded file is not a CSV file."},
		{asg, uploadAs(t, ada, asg, "book.csv", "text/csv", "PK\x03\x04\x00\x00"), "Uploaded file is not a CSV file."},
		{asg, uploadAs(t, ada, asg, "bad.csv", "text/csv", "Name,Q1\nAnn,Yes\nBo,No,\"stray\"\n"),
			"Error reading CSV file: line 3: 3 cells, but the header has 2 columns (is a quotation mark missing?)"},
	} {
		ada.refused(t, "/api/v1/db/assignment/preview-csv", map[string]any{"assignmentId": c.asg, "csvLocation": c.location}, c.msg)
		ada.refused(t, "/api/v1/db/assignment/update-submissions-csv", map[string]any{
			"assignmentId": c.asg, "submissionRole": "teacher", "csvLocation": c.location, "parsedCSV": mapping,
		}, c.msg)
	}
	// A mapping without a name column (left out: none, not column 0).
	ada.refused(t, "/api/v1/db/assignment/update-submissions-csv", map[string]any{
		"assignmentId": asg, "csvLocation": uploadAs(t, ada, asg, "n.csv", "text/csv", good),
		"parsedCSV": map[string]any{"questions": []any{map[string]any{"question": 0, "column": 1}}},
	}, "Error reading CSV file: invalid column mapping: choose the column that holds the students' names")

	for _, id := range []string{asg, essay} {
		_, data, _ := ada.call(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": id})
		require.Empty(t, data["submissions"], "nothing was created")
		require.Empty(t, data["functionResults"])
	}
}

func TestCSVOfAnotherTeamIsNotFound(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, eve := b.newBrowser(t), b.newBrowser(t)
	ada.signIn(t, "Ada", "ada.csv-crossteam@school.test")
	eve.signIn(t, "Eve", "eve.csv-crossteam@school.test")
	adas, eves := gradeAssignment(t, ada), gradeAssignment(t, eve)
	loc := uploadAs(t, ada, adas, "class.csv", "text/csv", "Name,Q1\nAnn,Yes\n")
	mapping := map[string]any{"nameColumn": 0, "emailColumn": -1, "questions": []any{map[string]any{"question": 0, "column": 1}}}

	for _, asg := range []string{adas, eves} {
		eve.missing(t, "/api/v1/db/assignment/preview-csv", map[string]any{"assignmentId": asg, "csvLocation": loc})
		eve.missing(t, "/api/v1/db/assignment/update-submissions-csv", map[string]any{"assignmentId": asg, "csvLocation": loc, "parsedCSV": mapping})
	}
	for br, asg := range map[*browser]string{ada: adas, eve: eves} {
		_, data, _ := br.call(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": asg})
		require.Empty(t, data["submissions"])
	}
}
