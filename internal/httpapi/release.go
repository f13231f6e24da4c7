package httpapi

import (
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/lti"
	"github.com/markwell/markwell/internal/release"
	"github.com/markwell/markwell/internal/result"
)

// releaseHandlers release an assignment's results to their students by
// private link and email, list and revoke them (docs/api-results.md,
// "Releasing results to students").
type releaseHandlers struct {
	svc *release.Service
	// lti, when set, posts the released scores of pupils who came from an
	// LMS to its gradebook (lti_score); results gives their totals.
	lti     *lti.Service
	results *result.Service
}

func (h *releaseHandlers) register(g *gin.RouterGroup) {
	g.POST("/db/assignment/release", handle(h.release))
	g.POST("/db/assignment/release/list", handle(h.list))
	g.POST("/db/assignment/release/revoke", handle(h.revoke))
	g.POST("/db/assignment/release/links-csv", handleWith(sendLinksCSV, h.linksCSV))
}

type releaseBody struct {
	assignmentRef
	SubmissionIDs []id `json:"submissionIds"`
	SendEmail     bool `json:"sendEmail"`
}

func (h *releaseHandlers) release(c *gin.Context, a identity.Actor, in *releaseBody) (release.Outcome, error) {
	rin := release.Input{AssignmentID: in.AssignmentID.UUID(), SubmissionIDs: uuids(in.SubmissionIDs), SendEmail: in.SendEmail}
	if h.lti != nil && h.results != nil {
		step, err := h.lti.ReleaseStep(c, h.results, a, rin.AssignmentID)
		if err != nil {
			return release.Outcome{}, err
		}
		rin.InTx = step
	}
	return h.svc.Release(c, a, rin)
}

// maxListIDs is how many submissions one release/list may name (a page of
// the submissions table is at most 100).
const maxListIDs = 1000

// msgTooManyIDs refuses a release/list naming more than maxListIDs.
const msgTooManyIDs = "Ask for the releases of at most 1,000 submissions at a time."

type listReleasesBody struct {
	assignmentRef
	// SubmissionIDs, when given, are the rows asked about (a page of the
	// table); without them every submission is listed.
	SubmissionIDs []id `json:"submissionIds"`
}

func (h *releaseHandlers) list(c *gin.Context, a identity.Actor, in *listReleasesBody) (gin.H, error) {
	var (
		rs  []release.Release
		err error
	)
	switch {
	case in.SubmissionIDs == nil:
		rs, err = h.svc.List(c, a, in.AssignmentID.UUID())
	case len(in.SubmissionIDs) > maxListIDs:
		err = apperr.New(apperr.Invalid, msgTooManyIDs)
	default:
		rs, err = h.svc.ListOf(c, a, in.AssignmentID.UUID(), uuids(in.SubmissionIDs))
	}
	return gin.H{"releases": rs}, err
}

type revokeBody struct {
	assignmentRef
	SubmissionIDs []id `json:"submissionIds"`
}

func (h *releaseHandlers) revoke(c *gin.Context, a identity.Actor, in *revokeBody) (gin.H, error) {
	rs, err := h.svc.Revoke(c, a, in.AssignmentID.UUID(), uuids(in.SubmissionIDs))
	return gin.H{"releases": rs}, err
}

// linksFile is the links CSV and the assignment it lists.
type linksFile struct {
	name string
	csv  []byte
}

func (h *releaseHandlers) linksCSV(c *gin.Context, a identity.Actor, in *assignmentRef) (linksFile, error) {
	name, data, err := h.svc.LinksCSV(c, a, in.AssignmentID.UUID())
	return linksFile{name: name, csv: data}, err
}

// sendLinksCSV answers with the CSV as a download named after the
// assignment ("<name> - links.csv"; a name of any script, RFC 2231).
func sendLinksCSV(c *gin.Context, f linksFile) {
	name := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(`/\"`, r) {
			return '_'
		}
		return r
	}, f.name) + " - links.csv"
	sendAttachment(c, name, "text/csv; charset=utf-8", f.csv)
}
