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
		var raw []byte
		err := tx.QueryRow(ctx, `SELECT lti FROM submissions WHERE id = $1 AND assignment_id = $2 AND team_id = $3`, r.SubmissionID, assignmentID, a.TeamID).Scan(&raw)
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
		_, err = tx.Exec(ctx, `INSERT INTO lti_scores (submission_id, team_id, assignment_id, platform_id, resource_link_id, user_sub, student_name, score, max_score, comment, state, error, updated_at)
			SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13 WHERE EXISTS (SELECT 1 FROM lti_platforms WHERE id = $4)
			ON CONFLICT (submission_id) DO UPDATE SET score = EXCLUDED.score, max_score = EXCLUDED.max_score, comment = EXCLUDED.comment,
				state = EXCLUDED.state, error = EXCLUDED.error, updated_at = EXCLUDED.updated_at`,
			r.SubmissionID, a.TeamID, assignmentID, d.PlatformID, d.ResourceLinkID, d.Subject, r.StudentName, score, max, comment, state, why, s.now())
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

type scoreRow struct {
	submissionID   uuid.UUID
	platformID     uuid.UUID
	resourceLinkID string
	sub, comment   string
	score, max     float64
}

// SendScores posts the assignment's pending and failed scores. Each one's
// outcome is stored; it returns an error when any failed, so the job tries
// again.
func (s *Service) SendScores(ctx context.Context, teamID, assignmentID uuid.UUID) error {
	rows, err := s.Pool.Query(ctx, `SELECT submission_id, platform_id, resource_link_id, user_sub, comment, score, max_score FROM lti_scores
		WHERE team_id = $1 AND assignment_id = $2 AND state IN ('pending', 'failed') ORDER BY student_name`, teamID, assignmentID)
	if err != nil {
		return fmt.Errorf("list scores: %w", err)
	}
	todo, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (scoreRow, error) {
		var x scoreRow
		err := r.Scan(&x.submissionID, &x.platformID, &x.resourceLinkID, &x.sub, &x.comment, &x.score, &x.max)
		return x, err
	})
	if err != nil {
		return err
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
		if _, err := s.Pool.Exec(ctx, `UPDATE lti_scores SET state = $2, error = $3, updated_at = $4 WHERE submission_id = $1`, r.submissionID, state, why, s.now()); err != nil {
			return fmt.Errorf("store score outcome: %w", err)
		}
	}
	if failed > 0 {
		return fmt.Errorf("lti: %d of %d scores not sent", failed, len(todo))
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

func (s *Service) sendScore(ctx context.Context, r scoreRow, tokens map[uuid.UUID]string) error {
	p, err := s.platform(ctx, r.platformID)
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
	lineItem, err := s.lineItem(ctx, p, r.resourceLinkID, token)
	if err != nil {
		return err
	}
	body, _ := json.Marshal(map[string]any{
		"userId": r.sub, "scoreGiven": r.score, "scoreMaximum": r.max, "comment": r.comment,
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
	var asg uuid.UUID
	var lineitems, lineitem, name string
	err := s.Pool.QueryRow(ctx, `SELECT l.assignment_id, l.lineitems_url, l.lineitem_url, a.name FROM lti_links l JOIN assignments a ON a.id = l.assignment_id
		WHERE l.platform_id = $1 AND l.resource_link_id = $2`, p.ID, resourceLinkID).Scan(&asg, &lineitems, &lineitem, &name)
	if err != nil {
		return "", fmt.Errorf("find link: %w", err)
	}
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
	if _, err := s.Pool.Exec(ctx, `UPDATE lti_links SET lineitem_url = $3 WHERE platform_id = $1 AND resource_link_id = $2`, p.ID, resourceLinkID, lineitem); err != nil {
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
	var ok bool
	if err := s.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM assignments WHERE id = $1 AND team_id = $2)`, assignmentID, a.TeamID).Scan(&ok); err != nil {
		return Status{}, err
	}
	if !ok {
		return Status{}, apperr.ErrNotFound
	}
	out := Status{Scores: []ScoreStatus{}}
	if err := s.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM lti_links WHERE assignment_id = $1 AND team_id = $2)`, assignmentID, a.TeamID).Scan(&out.Linked); err != nil {
		return Status{}, err
	}
	rows, err := s.Pool.Query(ctx, `SELECT submission_id, student_name, score, max_score, state, error, updated_at FROM lti_scores
		WHERE assignment_id = $1 AND team_id = $2 ORDER BY student_name, submission_id`, assignmentID, a.TeamID)
	if err != nil {
		return Status{}, err
	}
	out.Scores, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (ScoreStatus, error) {
		var x ScoreStatus
		err := r.Scan(&x.SubmissionID, &x.StudentName, &x.Score, &x.MaxScore, &x.State, &x.Error, &x.UpdatedAt)
		return x, err
	})
	if err != nil {
		return Status{}, err
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
	var platformID uuid.UUID
	var nrps string
	err := s.Pool.QueryRow(ctx, `SELECT platform_id, nrps_url FROM lti_links WHERE assignment_id = $1 AND team_id = $2 AND nrps_url <> ''
		ORDER BY updated_at DESC LIMIT 1`, assignmentID, teamID).Scan(&platformID, &nrps)
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
	rows, err := s.Pool.Query(ctx, `SELECT coalesce(lti->>'sub', ''), lower(student_email) FROM submissions WHERE assignment_id = $1 AND team_id = $2`, assignmentID, teamID)
	if err != nil {
		return nil, err
	}
	done := map[string]bool{}
	for rows.Next() {
		var sub, email string
		if err := rows.Scan(&sub, &email); err != nil {
			rows.Close()
			return nil, err
		}
		done["sub:"+sub], done["email:"+email] = true, true
	}
	rows.Close()
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
