package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/report"
)

// reportHandlers are the printable feedback reports: one student's PDF,
// and a class's run (a ZIP of PDFs and one combined PDF) built by the
// build_reports job.
type reportHandlers struct {
	svc *report.Service
}

func (h *reportHandlers) register(g *gin.RouterGroup) {
	g.POST("/db/assignment/report/student", handleWith(sendPDF, h.student))
	g.POST("/db/assignment/reports/start", handle(h.start))
	g.POST("/db/assignment/reports/get", handle(h.get))
}

type reportStudentBody struct {
	assignmentRef
	SubmissionID id `json:"submissionId"`
}

// pdfFile is a PDF and the name it downloads as.
type pdfFile struct {
	data []byte
	name string
}

func (h *reportHandlers) student(c *gin.Context, a identity.Actor, in *reportStudentBody) (pdfFile, error) {
	pdf, name, err := h.svc.Student(c, a, in.AssignmentID.UUID(), in.SubmissionID.UUID())
	return pdfFile{data: pdf, name: name}, err
}

// sendPDF answers with the PDF itself as a download under its name.
func sendPDF(c *gin.Context, f pdfFile) {
	sendAttachment(c, f.name, "application/pdf", f.data)
}

type reportsStartBody struct {
	assignmentRef
	SubmissionIDs []id `json:"submissionIds"`
}

func (h *reportHandlers) start(c *gin.Context, a identity.Actor, in *reportsStartBody) (gin.H, error) {
	run, err := h.svc.Start(c, a, in.AssignmentID.UUID(), uuids(in.SubmissionIDs))
	return gin.H{"report": run}, err
}

func (h *reportHandlers) get(c *gin.Context, a identity.Actor, in *assignmentRef) (gin.H, error) {
	run, err := h.svc.Get(c, a, in.AssignmentID.UUID())
	return gin.H{"report": run}, err
}
