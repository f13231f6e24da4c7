package llm_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
)

// BenchmarkCompleteJSON measures one structured-output round trip through
// the real openai-go client to the demo model over loopback HTTP: the
// overhead Markwell adds to every AI job, without the model's own latency.
func BenchmarkCompleteJSON(b *testing.B) {
	srv := httptest.NewServer(fakellm.New(fakellm.Options{}))
	defer srv.Close()
	c, err := llm.NewOpenAI(llm.Config{BaseURL: srv.URL + "/v1", APIKey: "bench", Model: fakellm.DefaultModel})
	if err != nil {
		b.Fatal(err)
	}
	req := llm.Request{Task: "bench_grade", Schema: criteriaSchema, Messages: []llm.Message{llm.UserText(essay)}}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		var out grade
		if _, err := c.CompleteJSON(ctx, req, &out); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChatStream streams a document answer through the real openai-go
// client from the demo model over loopback HTTP, the model set to 20 ms to
// the first token and 1 ms between pieces. It reports the time to the first
// token (ttft-ms, ideally just over 20) and the completion tokens per second
// of the whole stream (tokens/s): what Markwell's client adds to a chat
// answer's streaming. The API's own stream benchmark divides by these.
func BenchmarkChatStream(b *testing.B) {
	const latency = 20 * time.Millisecond
	srv := httptest.NewServer(fakellm.New(fakellm.Options{Latency: latency, TokenDelay: time.Millisecond}))
	defer srv.Close()
	c, err := llm.NewOpenAI(llm.Config{BaseURL: srv.URL + "/v1", APIKey: "bench", Model: fakellm.DefaultModel})
	if err != nil {
		b.Fatal(err)
	}
	req := llm.ChatRequest{System: "You help teachers.", Messages: []llm.Message{llm.UserText("Write a lesson plan about the water cycle for year four.")}}
	ctx := context.Background()
	var ttft, total time.Duration
	var tokens int
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		first := time.Time{}
		usage, err := c.ChatStream(ctx, req, func(string) error {
			if first.IsZero() {
				first = time.Now()
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		ttft += first.Sub(start)
		total += time.Since(start)
		tokens += usage.CompletionTokens
	}
	n := float64(b.N)
	b.ReportMetric(float64(ttft)/n/float64(time.Millisecond), "ttft-ms")
	b.ReportMetric(float64(tokens)/total.Seconds(), "tokens/s")
}
