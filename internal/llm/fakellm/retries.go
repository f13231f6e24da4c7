package fakellm

import (
	"crypto/sha256"
	"time"
)

// maxWaits bounds the remembered Retry-After deadlines; past it, those
// already over are forgotten.
const maxWaits = 4096

// retryKey names what a request is about, so that a retry of the same work
// can be recognised whatever changed around it: the fenced SUBMISSION block
// of a grading request (its fence code is new on every call), else the
// whole user text.
func retryKey(req ChatRequest) [sha256.Size]byte {
	if in, err := readGrading(req); err == nil {
		return sha256.Sum256([]byte(in.text))
	}
	return sha256.Sum256([]byte(req.UserText()))
}

// checkRetry counts a request that arrived before the Retry-After of a 429
// given to the same work had passed.
func (s *Server) checkRetry(key [sha256.Size]byte, arrived time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	until, ok := s.waits[key]
	if !ok {
		return
	}
	if arrived.Before(until) {
		s.stats.EarlyRetries++
		return
	}
	delete(s.waits, key)
}

// rateLimited remembers until when a 429 told the request's work to wait.
func (s *Server) rateLimited(key [sha256.Size]byte) {
	if s.opts.RetryAfter <= 0 {
		return // no Retry-After sent: nothing was asked of the client
	}
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.waits) >= maxWaits {
		for k, until := range s.waits {
			if !now.Before(until) {
				delete(s.waits, k)
			}
		}
	}
	s.waits[key] = now.Add(s.opts.RetryAfter)
}
