package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/answerbox"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/assist"
	"github.com/markwell/markwell/internal/assistant"
	"github.com/markwell/markwell/internal/attachment"
	"github.com/markwell/markwell/internal/auth"
	"github.com/markwell/markwell/internal/chat"
	"github.com/markwell/markwell/internal/classroom"
	"github.com/markwell/markwell/internal/export"
	"github.com/markwell/markwell/internal/library"
	"github.com/markwell/markwell/internal/lti"
	"github.com/markwell/markwell/internal/original"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/release"
	"github.com/markwell/markwell/internal/report"
	"github.com/markwell/markwell/internal/result"
	"github.com/markwell/markwell/internal/rubric"
	"github.com/markwell/markwell/internal/studentlink"
	"github.com/markwell/markwell/internal/submission"
	"github.com/markwell/markwell/internal/team"
)

// Services are the domain services behind the signed-in routes.
type Services struct {
	Team *team.Service
	// Library is the team library: folders, deletes, duplicates, sharing.
	Library *library.Service
	// Rubrics, Assignments (with their functions) and Assist (AI help in
	// the wizard) are the authoring services.
	Rubrics     *rubric.Service
	Assignments *assignment.Service
	Assist      *assist.Service
	// AIBudget caps AI calls per teacher and per team; nil means no cap.
	AIBudget *ratelimit.AIBudget
	// StudentLink is the assignments' student submission links, and what
	// students send and read through them.
	StudentLink *studentlink.Service
	// Submissions are the assignments' submissions: teacher uploads, their
	// text, edits and deletes.
	Submissions *submission.Service
	// Classroom imports from Google Classroom; nil answers "not configured".
	Classroom *classroom.Service
	// AnswerBoxes is the answer-box templates of handwritten grade
	// assignments and the page images they are drawn on.
	AnswerBoxes *answerbox.Service
	// Originals shows a submission's original file beside its text: page
	// images, Word and PowerPoint files converted, the file to download.
	Originals *original.Service
	// Attachments reads the text of the files a teacher attaches to a chat.
	Attachments *attachment.Service
	// Results are the function results: AI runs, reads with totals, the
	// teacher's edits, class summaries and agreement checks.
	Results *result.Service
	// Assistants are the team's AI assistants and its saved ones.
	Assistants *assistant.Service
	// Chats are the teachers' saved chats and their Word export.
	Chats *chat.Service
	// Reports are the printable feedback reports (PDF) of one student or a
	// class.
	Reports *report.Service
	// Releases publish finished results to their students by private link
	// and email.
	Releases *release.Service
	// LTI is Markwell as an LTI 1.3 tool (launches, deep linking, scores
	// back to the LMS); nil turns its routes off.
	LTI *lti.Service
}

// signedInRoutes registers every /api/v1 route that needs a signed-in
// teacher; g already requires a session (or, for the view-only calls, a
// student's view token: see signedInOrViewToken) and a CSRF token on writes.
func signedInRoutes(g *gin.RouterGroup, s Services, sessions *auth.Service) {
	forget := func() {}
	if sessions != nil {
		forget = sessions.ForgetSessions
	}
	(&teamHandlers{svc: s.Team, forgetSessions: forget}).register(g)
	(&libraryHandlers{svc: s.Library}).register(g)
	(&shareHandlers{svc: s.Library}).register(g)
	(&rubricHandlers{svc: s.Rubrics}).register(g)
	(&assignmentHandlers{svc: s.Assignments, subs: s.Submissions, results: s.Results}).register(g)
	(&submissionHandlers{svc: s.Submissions}).register(g)
	(&assistHandlers{svc: s.Assist, rubrics: s.Rubrics, budget: s.AIBudget}).register(g)
	(&studentHandlers{svc: s.StudentLink}).registerTeacher(g)
	(&classroomHandlers{svc: s.Classroom, results: s.Results}).register(g)
	(&answerBoxHandlers{svc: s.AnswerBoxes}).register(g)
	(&originalHandlers{svc: s.Originals}).register(g)
	(&attachmentHandlers{svc: s.Attachments}).register(g)
	(&resultHandlers{svc: s.Results, budget: s.AIBudget}).register(g)
	(&exportHandlers{svc: &export.Service{Results: s.Results}}).register(g)
	(&assistantHandlers{svc: s.Assistants}).register(g)
	(&chatHandlers{svc: s.Chats, budget: s.AIBudget}).register(g)
	(&reportHandlers{svc: s.Reports}).register(g)
	(&releaseHandlers{svc: s.Releases, lti: s.LTI, results: s.Results}).register(g)
	catalogHandlers{}.register(g)
}
