package lti

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/google/uuid"
)

// errURL is a platform URL Markwell will not call.
var errURL = errors.New("lti: the platform URL is not https")

// statusError is a platform's answer that is not 2xx.
type statusError struct {
	code int
	body string
}

func (e *statusError) Error() string {
	return fmt.Sprintf("the platform answered %d: %s", e.code, e.body)
}

func (s *Service) client() *http.Client {
	if s.Client != nil {
		return s.Client
	}
	return &http.Client{Timeout: FetchTimeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// call sends one request to a platform URL (checked with URLAllowed) under
// FetchTimeout and reads at most FetchLimit bytes of its answer. It
// returns the body and the response headers.
func (s *Service) call(ctx context.Context, method, url, contentType string, body io.Reader, header map[string]string) ([]byte, http.Header, error) {
	if !s.URLAllowed(url) {
		return nil, nil, fmt.Errorf("%w: %s", errURL, url)
	}
	ctx, cancel := context.WithTimeout(ctx, FetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return nil, nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := s.client().Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, FetchLimit+1))
	if err != nil {
		return nil, nil, err
	}
	if len(raw) > FetchLimit {
		return nil, nil, fmt.Errorf("the platform's answer from %s is larger than %d bytes", url, FetchLimit)
	}
	if res.StatusCode/100 != 2 {
		b := strings.TrimSpace(string(raw))
		if len(b) > 200 {
			b = b[:200]
		}
		return nil, nil, &statusError{code: res.StatusCode, body: b}
	}
	return raw, res.Header, nil
}

// platformKeys is a platform's JWKS as last fetched.
type platformKeys struct {
	set     jose.JSONWebKeySet
	fetched time.Time
}

func (s *Service) forgetKeys(id uuid.UUID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.jwks, id)
}

// platformKey finds kid in the platform's JWKS: from the cache while it is
// younger than JWKSTTL, else fetched; an unknown kid fetches again at most
// once every JWKSRefreshGap (a key the platform just rotated in).
func (s *Service) platformKey(ctx context.Context, p Platform, kid string) (*jose.JSONWebKey, error) {
	s.mu.Lock()
	cached := s.jwks[p.ID]
	s.mu.Unlock()
	now := s.now()
	find := func(set jose.JSONWebKeySet) *jose.JSONWebKey {
		for i, k := range set.Keys {
			if k.KeyID == kid || (kid == "" && len(set.Keys) == 1) {
				return &set.Keys[i]
			}
		}
		return nil
	}
	if cached != nil && now.Sub(cached.fetched) < JWKSTTL {
		if k := find(cached.set); k != nil {
			return k, nil
		}
		if now.Sub(cached.fetched) < JWKSRefreshGap {
			return nil, nil
		}
	}
	raw, _, err := s.call(ctx, http.MethodGet, p.JWKSURL, "", nil, map[string]string{"Accept": "application/json"})
	if err != nil {
		return nil, fmt.Errorf("fetch the platform's keys: %w", err)
	}
	var set jose.JSONWebKeySet
	if err := json.Unmarshal(raw, &set); err != nil {
		return nil, fmt.Errorf("the platform's keys are not a JWKS: %w", err)
	}
	s.mu.Lock()
	if s.jwks == nil {
		s.jwks = map[uuid.UUID]*platformKeys{}
	}
	s.jwks[p.ID] = &platformKeys{set: set, fetched: now}
	s.mu.Unlock()
	return find(set), nil
}
