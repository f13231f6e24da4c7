package fakellm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"unicode"
)

// wordsPerPiece is how many words each streamed piece carries.
const wordsPerPiece = 3

// chunk is one server-sent event of a streamed answer
// (chat.completion.chunk).
type chunk struct {
	ID                string        `json:"id"`
	Object            string        `json:"object"`
	Created           int64         `json:"created"`
	Model             string        `json:"model"`
	SystemFingerprint string        `json:"system_fingerprint"`
	Choices           []chunkChoice `json:"choices"`
	Usage             *usage        `json:"usage"`
}

type chunkChoice struct {
	Index        int     `json:"index"`
	Delta        delta   `json:"delta"`
	Logprobs     any     `json:"logprobs"`
	FinishReason *string `json:"finish_reason"`
}

type delta struct {
	Role    string  `json:"role,omitempty"`
	Content *string `json:"content,omitempty"`
}

// writeStream sends content as server-sent events, as OpenAI streams: a
// first chunk with the role, the content a few words per chunk with
// TokenDelay between them, a chunk with the finish reason, a usage chunk
// when asked for, then [DONE]. It stops as soon as the client goes away,
// counting a cancelled stream. A FaultTruncated stream stops halfway
// without finishing.
func (s *Server) writeStream(w http.ResponseWriter, r *http.Request, seq int64, req ChatRequest, content, finish string, fault Fault) {
	ctx := r.Context()
	rc := http.NewResponseController(w)
	done := newCompletion(seq, req, content, finish)
	base := chunk{ID: done.ID, Object: "chat.completion.chunk", Created: done.Created, Model: done.Model, SystemFingerprint: done.SystemFingerprint}
	send := func(c chunk) bool {
		b, err := json.Marshal(c)
		if err != nil {
			return false
		}
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return false
		}
		return rc.Flush() == nil && ctx.Err() == nil
	}
	piece := func(d delta, finish *string) chunk {
		c := base
		c.Choices = []chunkChoice{{Delta: d, FinishReason: finish}}
		return c
	}

	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	s.count(func(st *Stats) { st.Streams++ })

	empty := ""
	if !send(piece(delta{Role: "assistant", Content: &empty}, nil)) {
		s.gone(req)
		return
	}
	parts := split(content, wordsPerPiece)
	if fault == FaultTruncated {
		parts = parts[:len(parts)/2]
	}
	for i, p := range parts {
		if i > 0 && !sleep(ctx, s.opts.TokenDelay) {
			s.gone(req)
			return
		}
		if !send(piece(delta{Content: &p}, nil)) {
			s.gone(req)
			return
		}
	}
	if fault == FaultTruncated {
		s.count(func(st *Stats) { st.Malformed++ })
		return // the connection closes without a finish reason or [DONE]
	}
	if !send(piece(delta{}, &finish)) {
		s.gone(req)
		return
	}
	if req.IncludeUsage {
		c := base
		c.Choices = []chunkChoice{}
		c.Usage = &done.Usage
		if !send(c) {
			s.gone(req)
			return
		}
	}
	if _, err := fmt.Fprint(w, "data: [DONE]\n\n"); err != nil || rc.Flush() != nil {
		s.gone(req)
		return
	}
	if fault == FaultMalformed {
		s.count(func(st *Stats) { st.Malformed++ })
	} else {
		s.count(func(st *Stats) { st.Answered++; st.Tasks[req.Task]++ })
	}
}

// gone records that a streaming request's client went away before the
// answer ended.
func (s *Server) gone(req ChatRequest) {
	if req.Stream {
		s.count(func(st *Stats) { st.StreamsCancelled++ })
	}
}

// split cuts s into pieces of n words, each piece keeping the white space
// after its words, so the pieces join back into s exactly.
func split(s string, n int) []string {
	var out []string
	start, words, inWord := 0, 0, false
	for i, r := range s {
		space := unicode.IsSpace(r)
		if !space && !inWord {
			if words == n {
				out = append(out, s[start:i])
				start, words = i, 0
			}
			words++
		}
		inWord = !space
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
