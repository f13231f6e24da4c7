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

type deepLinkRow struct {
	platformID                    uuid.UUID
	platformName, issuer, client  string
	deploymentID, returnURL, data string
	lineItem                      bool
}

func (s *Service) deepLinkRow(ctx context.Context, db store.DBTX, a identity.Actor, id uuid.UUID) (deepLinkRow, error) {
	var r deepLinkRow
	err := db.QueryRow(ctx, `SELECT d.platform_id, p.name, p.issuer, p.client_id, d.deployment_id, d.return_url, d.data, d.line_item
		FROM lti_deep_links d JOIN lti_platforms p ON p.id = d.platform_id
		WHERE d.id = $1 AND d.user_id = $2 AND d.team_id = $3 AND d.expires_at > $4`, id, a.UserID, a.TeamID, s.now()).
		Scan(&r.platformID, &r.platformName, &r.issuer, &r.client, &r.deploymentID, &r.returnURL, &r.data, &r.lineItem)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, apperr.ErrNotFound
	}
	return r, err
}

// DeepLink returns the actor's own deep-linking request (anyone else's, or
// an expired one, is not found).
func (s *Service) DeepLink(ctx context.Context, a identity.Actor, id uuid.UUID) (DeepLinkRequest, error) {
	r, err := s.deepLinkRow(ctx, s.Pool, a, id)
	if err != nil {
		return DeepLinkRequest{}, err
	}
	name := r.platformName
	if name == "" {
		name = r.issuer
	}
	return DeepLinkRequest{ID: id, Platform: name, LineItem: r.lineItem}, nil
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
		var name string
		err = tx.QueryRow(ctx, `SELECT name FROM assignments WHERE id = $1 AND team_id = $2`, assignmentID, a.TeamID).Scan(&name)
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
		if r.lineItem {
			item["lineItem"] = map[string]any{"scoreMaximum": 100, "label": name, "resourceId": assignmentID.String()}
		}
		now := s.now()
		claims := map[string]any{
			"iss": r.client, "aud": r.issuer, "azp": r.client, "iat": now.Unix(), "exp": now.Add(5 * 60e9).Unix(),
			"nonce":                       randomToken(),
			claimPrefix + "message_type":  MsgDeepLinkingRes,
			claimPrefix + "version":       "1.3.0",
			claimPrefix + "deployment_id": r.deploymentID,
			"https://purl.imsglobal.org/spec/lti-dl/claim/content_items": []any{item},
		}
		if r.data != "" {
			claims["https://purl.imsglobal.org/spec/lti-dl/claim/data"] = r.data
		}
		jwt, err := s.sign(ctx, claims)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM lti_deep_links WHERE id = $1`, id); err != nil {
			return fmt.Errorf("use deep link request: %w", err)
		}
		out = DeepLinkResponse{ReturnURL: r.returnURL, JWT: jwt}
		return nil
	})
	return out, err
}
