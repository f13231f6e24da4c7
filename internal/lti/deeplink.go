package lti

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/store"
)

// DeepLinkRequest is a teacher's deep-linking launch waiting for them to
// pick an assignment.
type DeepLinkRequest struct {
	ID       uuid.UUID `json:"id"`
	Platform string    `json:"platform"`
	// LineItem reports that the platform offers grade passback: the link
	// comes with a gradebook column.
	LineItem bool `json:"lineItem"`
}

// DeepLinkResponse is what the browser form-posts to the platform.
type DeepLinkResponse struct {
	ReturnURL string `json:"returnUrl"`
	JWT       string `json:"jwt"`
}

// deepLinkRow is the actor's own live request (anyone else's, or an
// expired one, is not found).
func (s *Service) deepLinkRow(ctx context.Context, db store.DBTX, a identity.Actor, id uuid.UUID) (store.LtiGetDeepLinkRow, error) {
	r, err := store.Q.LtiGetDeepLink(ctx, db, store.LtiGetDeepLinkParams{ID: id, UserID: a.UserID, TeamID: a.TeamID, Now: s.now()})
	return r, store.NotFound(err)
}

// DeepLink returns the actor's own deep-linking request (anyone else's, or
// an expired one, is not found).
func (s *Service) DeepLink(ctx context.Context, a identity.Actor, id uuid.UUID) (DeepLinkRequest, error) {
	r, err := s.deepLinkRow(ctx, s.Pool, a, id)
	if err != nil {
		return DeepLinkRequest{}, err
	}
	name := r.PlatformName
	if name == "" {
		name = r.Issuer
	}
	return DeepLinkRequest{ID: id, Platform: name, LineItem: r.LineItem}, nil
}

// RespondDeepLink answers the request with one of the actor's team's
// assignments: a signed LtiDeepLinkingResponse holding one ltiResourceLink
// (and a line item when the platform offers grades). The request is used
// up.
func (s *Service) RespondDeepLink(ctx context.Context, a identity.Actor, id, assignmentID uuid.UUID) (DeepLinkResponse, error) {
	var out DeepLinkResponse
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		r, err := s.deepLinkRow(ctx, tx, a, id)
		if err != nil {
			return err
		}
		name, err := store.Q.LtiTeamAssignmentName(ctx, tx, store.LtiTeamAssignmentNameParams{ID: assignmentID, TeamID: a.TeamID})
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("load assignment: %w", err)
		}
		item := map[string]any{
			"type": "ltiResourceLink", "title": name, "url": s.LaunchURL(),
			"custom": map[string]string{customLink: s.linkRef(assignmentID)},
		}
		if r.LineItem {
			item["lineItem"] = map[string]any{"scoreMaximum": 100, "label": name, "resourceId": assignmentID.String()}
		}
		now := s.now()
		claims := map[string]any{
			"iss": r.ClientID, "aud": r.Issuer, "azp": r.ClientID, "iat": now.Unix(), "exp": now.Add(5 * 60e9).Unix(),
			"nonce":                       randomToken(),
			claimPrefix + "message_type":  MsgDeepLinkingRes,
			claimPrefix + "version":       "1.3.0",
			claimPrefix + "deployment_id": r.DeploymentID,
			"https://purl.imsglobal.org/spec/lti-dl/claim/content_items": []any{item},
		}
		if r.Data != "" {
			claims["https://purl.imsglobal.org/spec/lti-dl/claim/data"] = r.Data
		}
		jwt, err := s.sign(ctx, claims)
		if err != nil {
			return err
		}
		if err := store.Q.LtiDeleteDeepLink(ctx, tx, id); err != nil {
			return fmt.Errorf("use deep link request: %w", err)
		}
		out = DeepLinkResponse{ReturnURL: r.ReturnUrl, JWT: jwt}
		return nil
	})
	return out, err
}
