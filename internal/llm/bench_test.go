package llm_test

import (
	"context"
	"net/http/httptest"
	"testing"

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
