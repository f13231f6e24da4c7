package lti

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
)

// Score states (lti_scores.state).
const (
	ScorePending = "pending"
	ScoreSent    = "sent"
	ScoreFailed  = "failed"
	ScoreSkipped = "skipped"
	MsgNoPoints  = "This result has no points to send."
	MsgNoGrades  = "The platform did not offer grade passback for this activity."
)

// Released is one released result, as the release step hands it over.
type Released struct {
	SubmissionID uuid.UUID
	StudentName  string
	Points, Max  *float64
	// Link is the pupil's private link to their feedback.
	Link string
}

// QueueScores records the score of each released submission that came
// through an LTI launch and queues lti_score to post them. Submissions
// without LTI details are left alone.
func (s *Service) QueueScores(ctx context.Context, a identity.Actor, assignmentID uuid.UUID, released []Released) error {
	if len(released) == 0 {
		return nil
	}
	return store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		return s.QueueScoresTx(ctx, tx, a, assignmentID, released)
	})
}

// QueueScoresTx is QueueScores in the caller's transaction (the release's,
// so that a release and its scores commit together).
func (s *Service) QueueScoresTx(ctx context.Context, tx pgx.Tx, a identity.Actor, assignmentID uuid.UUID, released []Released) error {
	queued := false
	for _, r := range released {
		raw, err := store.Q.LtiSubmissionDetails(ctx, tx, store.LtiSubmissionDetailsParams{ID: r.SubmissionID, AssignmentID: assignmentID, TeamID: a.TeamID})
		if errors.Is(err, pgx.ErrNoRows) {
			continue
		}
		if err != nil {
			return fmt.Errorf("read lti details: %w", err)
		}
		var d LearnerDetails
		if len(raw) == 0 || json.Unmarshal(raw, &d) != nil || d.PlatformID == uuid.Nil || d.Subject == "" {
			continue
		}
		state, why, score, max := ScorePending, "", 0.0, 100.0
		switch {
		case r.Points == nil || math.IsNaN(*r.Points) || math.IsInf(*r.Points, 0):
			state, why = ScoreSkipped, MsgNoPoints
		default:
			score = *r.Points
			if r.Max != nil && *r.Max > 0 {
				max = *r.Max
			}
		}
		comment := ""
		if r.Link != "" {
			comment = "Your feedback: " + r.Link
		}
		err = store.Q.LtiRecordScore(ctx, tx, store.LtiRecordScoreParams{SubmissionID: r.SubmissionID, TeamID: a.TeamID, AssignmentID: assignmentID,
			PlatformID: d.PlatformID, ResourceLinkID: d.ResourceLinkID, UserSub: d.Subject, StudentName: r.StudentName, Score: score, MaxScore: max,
			Comment: comment, State: state, Error: why, UpdatedAt: s.now()})
		if err != nil {
			return fmt.Errorf("record score: %w", err)
		}
		queued = queued || state == ScorePending
	}
	if !queued {
		return nil
	}
	_, err := s.Jobs.InsertTx(ctx, tx, queue.LTIScoreArgs{TeamID: a.TeamID, AssignmentID: assignmentID}, nil)
	return err
}

// SendScores posts the assignment's pending and failed scores. Each one's
// outcome is stored; it returns an error when any failed, so the job tries
// again.
func (s *Service) SendScores(ctx context.Context, teamID, assignmentID uuid.UUID) error {
	todo, err := store.Q.LtiScoresToSend(ctx, s.Pool, store.LtiScoresToSendParams{TeamID: teamID, AssignmentID: assignmentID})
	if err != nil {
		return fmt.Errorf("list scores: %w", err)
	}
	tokens := map[uuid.UUID]string{}
	failed := 0
	for _, r := range todo {
		err := s.sendScore(ctx, r, tokens)
		state, why := ScoreSent, ""
		if err != nil {
			failed++
			state, why = ScoreFailed, sentence(err)
		}
		if err := store.Q.LtiSetScoreOutcome(ctx, s.Pool, store.LtiSetScoreOutcomeParams{SubmissionID: r.SubmissionID, State: state, Error: why, UpdatedAt: s.now()}); err != nil {
			return fmt.Errorf("store score outcome: %w", err)
		}
	}
	if failed > 0 {
		return fmt.Errorf("lti: %d of %d scores not sent", failed, len(todo))
	}
	return nil
}

// MsgScoresAbandoned is every score still unsent when the job gave up.
const MsgScoresAbandoned = "The platform kept refusing or could not be reached, so Markwell stopped trying. Release the results again to send it."

// AbandonScores marks the assignment's unsent scores failed for good (the
// lti_score job's last attempt failed): they no longer say they will be
// tried again.
func (s *Service) AbandonScores(ctx context.Context, teamID, assignmentID uuid.UUID) error {
	err := store.Q.LtiAbandonScores(ctx, s.Pool, store.LtiAbandonScoresParams{TeamID: teamID, AssignmentID: assignmentID, Error: MsgScoresAbandoned, UpdatedAt: s.now()})
	if err != nil {
		return fmt.Errorf("abandon scores: %w", err)
	}
	return nil
}

// sentence is a failure as a teacher reads it.
func sentence(err error) string {
	var se *statusError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("The platform refused the score (HTTP %d). It will be tried again.", se.code)
	case errors.Is(err, errURL):
		return "The platform's grade service is not an https address, so Markwell did not call it."
	case strings.Contains(err.Error(), MsgNoGrades):
		return MsgNoGrades
	}
	return "The platform could not be reached. It will be tried again."
}

func (s *Service) sendScore(ctx context.Context, r store.LtiScoresToSendRow, tokens map[uuid.UUID]string) error {
	p, err := s.platform(ctx, r.PlatformID)
	if err != nil {
		return err
	}
	token, ok := tokens[p.ID]
	if !ok {
		if token, err = s.accessToken(ctx, p, []string{ScopeLineItem, ScopeScore}); err != nil {
			return err
		}
		tokens[p.ID] = token
	}
	lineItem, err := s.lineItem(ctx, p, r.ResourceLinkID, token)
	if err != nil {
		return err
	}
	body, _ := json.Marshal(map[string]any{
		"userId": r.UserSub, "scoreGiven": r.Score, "scoreMaximum": r.MaxScore, "comment": r.Comment,
		"timestamp":        s.now().UTC().Format("2006-01-02T15:04:05.000Z07:00"),
		"activityProgress": "Completed", "gradingProgress": "FullyGraded",
	})
	_, _, err = s.call(ctx, http.MethodPost, withPath(lineItem, "/scores"), "application/vnd.ims.lis.v1.score+json", bytes.NewReader(body),
		map[string]string{"Authorization": "Bearer " + token})
	return err
}

// withPath appends suffix to u's path, before its query.
func withPath(u, suffix string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u + suffix
	}
	p.Path = strings.TrimRight(p.Path, "/") + suffix
	return p.String()
}

// lineItem is the line item of a resource link: the one its launch named,
// else found (by resource id) or created in its lineitems container and
// remembered.
func (s *Service) lineItem(ctx context.Context, p Platform, resourceLinkID, token string) (string, error) {
	link, err := store.Q.LtiLinkForLineItem(ctx, s.Pool, store.LtiLinkForLineItemParams{PlatformID: p.ID, ResourceLinkID: resourceLinkID})
	if err != nil {
		return "", fmt.Errorf("find link: %w", err)
	}
	asg, lineitems, lineitem, name := link.AssignmentID, link.LineitemsUrl, link.LineitemUrl, link.Name
	if lineitem != "" {
		return lineitem, nil
	}
	if lineitems == "" {
		return "", errors.New(MsgNoGrades)
	}
	auth := map[string]string{"Authorization": "Bearer " + token, "Accept": "application/vnd.ims.lis.v2.lineitemcontainer+json"}
	q := url.Values{"resource_link_id": {resourceLinkID}, "resource_id": {asg.String()}}
	sep := "?"
	if strings.Contains(lineitems, "?") {
		sep = "&"
	}
	raw, _, err := s.call(ctx, http.MethodGet, lineitems+sep+q.Encode(), "", nil, auth)
	if err != nil {
		return "", err
	}
	var found []struct {
		ID         string `json:"id"`
		ResourceID string `json:"resourceId"`
	}
	if err := json.Unmarshal(raw, &found); err != nil {
		return "", fmt.Errorf("line items: %w", err)
	}
	for _, li := range found {
		if li.ResourceID == asg.String() && li.ID != "" {
			lineitem = li.ID
		}
	}
	if lineitem == "" {
		body, _ := json.Marshal(map[string]any{"scoreMaximum": 100, "label": name, "resourceId": asg.String(), "resourceLinkId": resourceLinkID})
		auth["Accept"] = "application/vnd.ims.lis.v2.lineitem+json"
		raw, _, err := s.call(ctx, http.MethodPost, lineitems, "application/vnd.ims.lis.v2.lineitem+json", bytes.NewReader(body), auth)
		if err != nil {
			return "", err
		}
		var made struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(raw, &made); err != nil || made.ID == "" {
			return "", fmt.Errorf("created line item has no id: %v", err)
		}
		lineitem = made.ID
	}
	if err := store.Q.LtiSetLineItem(ctx, s.Pool, store.LtiSetLineItemParams{PlatformID: p.ID, ResourceLinkID: resourceLinkID, LineitemUrl: lineitem}); err != nil {
		return "", fmt.Errorf("remember line item: %w", err)
	}
	return lineitem, nil
}

// accessToken is a client-credentials token for scopes, asked for with a
// JWT assertion signed by Markwell's key.
func (s *Service) accessToken(ctx context.Context, p Platform, scopes []string) (string, error) {
	now := s.now()
	assertion, err := s.sign(ctx, map[string]any{
		"iss": p.ClientID, "sub": p.ClientID, "aud": p.TokenURL, "iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(), "jti": randomToken(),
	})
	if err != nil {
		return "", err
	}
	form := url.Values{
		"grant_type":            {"client_credentials"},
		"client_assertion_type": {"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"},
		"client_assertion":      {assertion},
		"scope":                 {strings.Join(scopes, " ")},
	}
	raw, _, err := s.call(ctx, http.MethodPost, p.TokenURL, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()), map[string]string{"Accept": "application/json"})
	if err != nil {
		return "", err
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(raw, &tok); err != nil || tok.AccessToken == "" {
		return "", fmt.Errorf("token endpoint gave no access token: %v", err)
	}
	return tok.AccessToken, nil
}

// ScoreStatus is one pupil's score as the teacher sees it.
type ScoreStatus struct {
	SubmissionID uuid.UUID `json:"submissionId"`
	StudentName  string    `json:"studentName"`
	Score        float64   `json:"score"`
	MaxScore     float64   `json:"maxScore"`
	State        string    `json:"state"`
	Error        string    `json:"error,omitempty"`
	UpdatedAt    time.Time `json:"updatedAt"`
}

// Member is one pupil of the course roster (Names and Roles).
type Member struct {
	Name      string `json:"name"`
	Email     string `json:"email"`
	Submitted bool   `json:"submitted"`
}

// Status is an assignment's LTI side: whether an LMS activity opens it,
// each released pupil's score, and (when asked, through Names and Roles)
// the course's pupils and whether each has submitted.
type Status struct {
	Linked      bool          `json:"linked"`
	Scores      []ScoreStatus `json:"scores"`
	Roster      []Member      `json:"roster,omitempty"`
	RosterError string        `json:"rosterError,omitempty"`
}

// Status returns the LTI side of one of the actor's team's assignments
// (another team's is not found).
func (s *Service) Status(ctx context.Context, a identity.Actor, assignmentID uuid.UUID, roster bool) (Status, error) {
	ok, err := store.Q.LtiTeamHasAssignment(ctx, s.Pool, store.LtiTeamHasAssignmentParams{ID: assignmentID, TeamID: a.TeamID})
	if err != nil {
		return Status{}, err
	}
	if !ok {
		return Status{}, apperr.ErrNotFound
	}
	out := Status{Scores: []ScoreStatus{}}
	if out.Linked, err = store.Q.LtiAssignmentLinked(ctx, s.Pool, store.LtiAssignmentLinkedParams{AssignmentID: assignmentID, TeamID: a.TeamID}); err != nil {
		return Status{}, err
	}
	scores, err := store.Q.LtiListScores(ctx, s.Pool, store.LtiListScoresParams{AssignmentID: assignmentID, TeamID: a.TeamID})
	if err != nil {
		return Status{}, err
	}
	for _, x := range scores {
		out.Scores = append(out.Scores, ScoreStatus(x))
	}
	if roster && out.Linked {
		out.Roster, err = s.roster(ctx, a.TeamID, assignmentID)
		if err != nil {
			out.RosterError = "The course roster could not be read from the platform: " + sentence(err)
		}
	}
	return out, nil
}

// roster reads the course's members through Names and Roles and marks the
// pupils who submitted (by their LTI subject or their email).
func (s *Service) roster(ctx context.Context, teamID, assignmentID uuid.UUID) ([]Member, error) {
	link, err := store.Q.LtiRosterLink(ctx, s.Pool, store.LtiRosterLinkParams{AssignmentID: assignmentID, TeamID: teamID})
	platformID, nrps := link.PlatformID, link.NrpsUrl
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	p, err := s.platform(ctx, platformID)
	if err != nil {
		return nil, err
	}
	token, err := s.accessToken(ctx, p, []string{ScopeNRPS})
	if err != nil {
		return nil, err
	}
	raw, _, err := s.call(ctx, http.MethodGet, nrps, "", nil, map[string]string{"Authorization": "Bearer " + token,
		"Accept": "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"})
	if err != nil {
		return nil, err
	}
	var body struct {
		Members []struct {
			UserID string   `json:"user_id"`
			Name   string   `json:"name"`
			Email  string   `json:"email"`
			Roles  []string `json:"roles"`
			Status string   `json:"status"`
		} `json:"members"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, fmt.Errorf("roster: %w", err)
	}
	submitters, err := store.Q.LtiSubmitters(ctx, s.Pool, store.LtiSubmittersParams{AssignmentID: assignmentID, TeamID: teamID})
	if err != nil {
		return nil, err
	}
	done := map[string]bool{}
	for _, x := range submitters {
		done["sub:"+x.Sub], done["email:"+x.Email] = true, true
	}
	out := []Member{}
	for _, m := range body.Members {
		if !hasRole(m.Roles, "Learner", "Student") || (m.Status != "" && m.Status != "Active") {
			continue
		}
		out = append(out, Member{Name: m.Name, Email: m.Email,
			Submitted: (m.UserID != "" && done["sub:"+m.UserID]) || (m.Email != "" && done["email:"+strings.ToLower(m.Email)])})
	}
	return out, nil
}
