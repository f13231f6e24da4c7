package benchmark_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/auth"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/chat"
	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/docx"
	"github.com/markwell/markwell/internal/httpapi"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/ratelimit"
)

// The demo model of the streaming benchmark: 20 ms to the first token (as
// BenchmarkChatStream in internal/llm) and 5 ms between pieces of three
// words, a little faster than a hosted model streams.
const (
	streamLatency    = 20 * time.Millisecond
	streamTokenDelay = 5 * time.Millisecond
	// streamPairs is how many times the answer is streamed each way per
	// iteration, direct and through the API alternately.
	streamPairs = 12
)

// streamAsk asks for a lesson plan: the demo model answers with a sentence,
// a markdown document of about 1,100 characters between <document> tags and
// a closing sentence (a few hundred tokens), so the API's stream carries
// delta and document events as it does for a teacher.
const streamAsk = "Write a lesson plan about the water cycle for year four: evaporation, condensation, " +
	"precipitation and collection, with a short experiment the pupils can do in class."

// BenchmarkChatStreamOverhead streams the same chat answer from the demo
// model (over HTTP, through the real openai-go client) two ways, one after
// the other: (direct) llm.ChatStream with the request the route sent the model,
// and (api) POST /api/v1/chat/stream through the real router as a signed-in
// teacher: session, CSRF, the AI budget's two counters in PostgreSQL, the
// prompt, the document splitter and the server-sent events. It reports the
// medians over every stream:
//
//   - ttft_ms_direct, ttft_ms_api: from sending the request to the first
//     model delta (direct) or the first `delta` event (api); ttft_ratio is
//     api ÷ direct and ttft_overhead_ms their difference.
//   - tps_direct, tps_api: the answer's completion tokens ÷ the time from
//     the first token to the end of the stream (ChatStream returns; the
//     `done` event arrives); tps_ratio is api ÷ direct.
//
// Each figure is the median of the per-stream values; the ratios are of the
// medians. tokens/answer is the answer's completion tokens.
func BenchmarkChatStreamOverhead(b *testing.B) {
	api := newChatAPI(b, fakellm.Options{Latency: streamLatency, TokenDelay: streamTokenDelay})
	body, err := json.Marshal(map[string]any{"messages": []map[string]string{{"role": "user", "content": streamAsk}}})
	must(b, err)

	viaAPI := func() streamSample { return api.stream(b, body) }
	// Untimed warm-up, through the API first: connections opened, first-use
	// costs paid, and the model request the route made recorded, so the
	// direct calls ask exactly what the route asks.
	viaAPI()
	req := api.model.last
	if req == nil {
		b.Fatal("the route did not call the model")
	}
	direct := func() streamSample { return api.direct(b, *req) }
	direct()

	var directs, apis []streamSample
	for b.Loop() {
		for i := range streamPairs {
			if i%2 == 0 {
				directs = append(directs, direct())
				apis = append(apis, viaAPI())
			} else {
				apis = append(apis, viaAPI())
				directs = append(directs, direct())
			}
		}
	}
	b.StopTimer()
	for i := range directs {
		if directs[i].tokens != apis[i].tokens {
			b.Fatalf("stream %d: %d tokens direct, %d through the API: not the same answer", i, directs[i].tokens, apis[i].tokens)
		}
	}
	ttftD, ttftA := medianOf(directs, streamSample.ttftMS), medianOf(apis, streamSample.ttftMS)
	tpsD, tpsA := medianOf(directs, streamSample.tps), medianOf(apis, streamSample.tps)
	b.ReportMetric(ttftD, "ttft_ms_direct")
	b.ReportMetric(ttftA, "ttft_ms_api")
	b.ReportMetric(ttftA/ttftD, "ttft_ratio")
	b.ReportMetric(ttftA-ttftD, "ttft_overhead_ms")
	b.ReportMetric(tpsD, "tps_direct")
	b.ReportMetric(tpsA, "tps_api")
	b.ReportMetric(tpsA/tpsD, "tps_ratio")
	b.ReportMetric(float64(directs[0].tokens), "tokens/answer")
}

// BenchmarkDownloadDocx20Pages exports the 20-page document of
// internal/docx's BenchmarkFromMarkdown20Pages (testdata/20-pages.md) two
// ways, one after the other: docx.FromMarkdown alone (direct) and
// POST /api/v1/chat/download-docx through the real router as a signed-in
// teacher, the .docx read to its last byte (api). It reports the medians
// ms_direct and ms_api, and ms_ratio, api ÷ direct.
func BenchmarkDownloadDocx20Pages(b *testing.B) {
	md, err := os.ReadFile("../docx/testdata/20-pages.md")
	must(b, err)
	api := newChatAPI(b, fakellm.Options{})
	body, err := json.Marshal(map[string]string{"markdown": string(md)})
	must(b, err)
	ctx := context.Background()

	direct := func() (time.Duration, int) {
		start := time.Now()
		var buf bytes.Buffer
		must(b, docx.FromMarkdown(ctx, &buf, string(md), nil))
		return time.Since(start), buf.Len()
	}
	viaAPI := func() (time.Duration, int) {
		start := time.Now()
		res := api.post(b, "/api/v1/chat/download-docx", body)
		doc, err := io.ReadAll(res.Body)
		_ = res.Body.Close()
		must(b, err)
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(string(doc), "PK") {
			b.Fatalf("download-docx: %d %.200s", res.StatusCode, doc)
		}
		return time.Since(start), len(doc)
	}
	direct()
	viaAPI()

	var directs, apis []float64
	size := 0
	b.ReportAllocs()
	for b.Loop() {
		d, n := direct()
		a, m := viaAPI()
		if n != m {
			b.Fatalf("the API's .docx has %d bytes, docx.FromMarkdown's %d", m, n)
		}
		directs = append(directs, ms(d))
		apis = append(apis, ms(a))
		size = n
	}
	b.StopTimer()
	msD, msA := median(directs), median(apis)
	b.ReportMetric(msD, "ms_direct")
	b.ReportMetric(msA, "ms_api")
	b.ReportMetric(msA/msD, "ms_ratio")
	b.ReportMetric(float64(size), "bytes/doc")
}

// chatAPI is the real router over the package's database, serving the chat
// routes with the demo model over HTTP and the AI budget, and a teacher
// signed in through the development sign-in with her CSRF token, as the
// frontend's API client holds them.
type chatAPI struct {
	srv    *httptest.Server
	client *http.Client
	csrf   string
	// model is the chat service's model: the demo model over HTTP through
	// the real openai-go client.
	model *recordingModel
}

// recordingModel keeps the last chat request it was asked.
type recordingModel struct {
	llm.Client
	last *llm.ChatRequest
}

func (m *recordingModel) ChatStream(ctx context.Context, req llm.ChatRequest, onDelta func(string) error) (llm.Usage, error) {
	m.last = &req
	return m.Client.ChatStream(ctx, req, onDelta)
}

// newChatAPI serves the router with the demo model configured by opts and
// signs a new teacher in.
func newChatAPI(b *testing.B, opts fakellm.Options) *chatAPI {
	b.Helper()
	ctx := context.Background()
	pool := newPool(b, 0)
	demo := httptest.NewServer(fakellm.New(opts))
	b.Cleanup(demo.Close)
	model, err := llm.NewOpenAI(llm.Config{BaseURL: demo.URL + "/v1", Model: fakellm.DefaultModel, Timeout: time.Minute})
	must(b, err)

	a := &chatAPI{model: &recordingModel{Client: model}}
	var router http.Handler
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { router.ServeHTTP(w, r) }))
	b.Cleanup(a.srv.Close)
	blobs, blobHandler, err := blob.New(ctx, blob.Config{
		Dir: b.TempDir(), PublicURL: a.srv.URL, Secret: bytes.Repeat([]byte("k"), 32), MaxUploadBytes: 1 << 20,
	})
	must(b, err)
	cfg := config.Config{
		PublicURL: a.srv.URL, SecretKey: strings.Repeat("s", 32), AuthBasePath: "/api/auth", StaticDir: b.TempDir(),
		SessionMaxAge: 30 * 24 * time.Hour, SessionUpdateAge: 24 * time.Hour, DevSignIn: true,
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	authSvc, err := auth.FromConfig(pool, cfg, log)
	must(b, err)
	limiter := &ratelimit.Limiter{Pool: pool}
	// The AI budget is spent as in production (two counters per stream)
	// but set high enough never to refuse the benchmark.
	never := ratelimit.Rule{Limit: 1 << 30, Window: time.Hour}
	router = httpapi.NewRouter(httpapi.Deps{
		Config: cfg, Pool: pool, Log: log, BlobHandler: blobHandler, Auth: authSvc, Limiter: limiter,
		Services: httpapi.Services{
			Chats:    &chat.Service{Pool: pool, Blob: blobs, Model: a.model},
			AIBudget: &ratelimit.AIBudget{Limiter: limiter, Teacher: never, Team: never},
		},
	})

	jar, err := cookiejar.New(nil)
	must(b, err)
	a.client = &http.Client{Jar: jar}
	a.signIn(b)
	return a
}

// signIn signs a new teacher in as next-auth/react's signIn("credentials")
// does, then fetches the CSRF token of her session.
func (a *chatAPI) signIn(b *testing.B) {
	b.Helper()
	email := "bench-" + uuid.NewString()[:8] + "@school.test"
	form := url.Values{"csrfToken": {a.csrfToken(b)}, "json": {"true"}, "name": {"Bench"}, "email": {email},
		"redirect": {"false"}, "callbackUrl": {"/library"}}
	req, err := http.NewRequest("POST", a.srv.URL+"/api/auth/callback/credentials", strings.NewReader(form.Encode()))
	must(b, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Auth-Return-Redirect", "1")
	res, err := a.client.Do(req)
	must(b, err)
	got, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b.Fatalf("sign-in: %d %s", res.StatusCode, got)
	}
	a.csrf = "" // signing in renews the CSRF cookie
	a.csrf = a.csrfToken(b)
}

// csrfToken returns the CSRF token, fetching it from /api/auth/csrf once.
func (a *chatAPI) csrfToken(b *testing.B) string {
	b.Helper()
	if a.csrf != "" {
		return a.csrf
	}
	res, err := a.client.Get(a.srv.URL + "/api/auth/csrf")
	must(b, err)
	defer res.Body.Close()
	var out struct {
		CSRFToken string `json:"csrfToken"`
	}
	must(b, json.NewDecoder(res.Body).Decode(&out))
	if out.CSRFToken == "" {
		b.Fatal("no CSRF token")
	}
	a.csrf = out.CSRFToken
	return a.csrf
}

// post sends a JSON write with the CSRF token and returns the response
// unread.
func (a *chatAPI) post(b *testing.B, path string, body []byte) *http.Response {
	b.Helper()
	req, err := http.NewRequest("POST", a.srv.URL+path, bytes.NewReader(body))
	must(b, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(httpapi.CSRFHeader, a.csrf)
	res, err := a.client.Do(req)
	must(b, err)
	return res
}

// streamSample is one streamed answer's timing.
type streamSample struct {
	first, end time.Duration // from sending the request
	tokens     int
}

func (s streamSample) ttftMS() float64 { return ms(s.first) }

func (s streamSample) tps() float64 { return float64(s.tokens) / (s.end - s.first).Seconds() }

// direct streams req from the model through llm.ChatStream.
func (a *chatAPI) direct(b *testing.B, req llm.ChatRequest) streamSample {
	b.Helper()
	var s streamSample
	start := time.Now()
	usage, err := a.model.Client.ChatStream(context.Background(), req, func(string) error {
		if s.first == 0 {
			s.first = time.Since(start)
		}
		return nil
	})
	s.end = time.Since(start)
	must(b, err)
	s.tokens = usage.CompletionTokens
	if s.first == 0 || s.tokens == 0 {
		b.Fatalf("direct stream: no text (%d tokens)", s.tokens)
	}
	return s
}

// stream posts body to /api/v1/chat/stream and reads the events to `done`.
func (a *chatAPI) stream(b *testing.B, body []byte) streamSample {
	b.Helper()
	var s streamSample
	start := time.Now()
	res := a.post(b, "/api/v1/chat/stream", body)
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		got, _ := io.ReadAll(res.Body)
		b.Fatalf("chat/stream: %d %s", res.StatusCode, got)
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			event = name
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		switch event {
		case "delta":
			if s.first == 0 {
				s.first = time.Since(start)
			}
		case "error":
			b.Fatalf("chat/stream error event: %s", data)
		case "done":
			s.end = time.Since(start)
			var done struct {
				Usage struct {
					CompletionTokens int `json:"completionTokens"`
				} `json:"usage"`
			}
			must(b, json.Unmarshal([]byte(data), &done))
			s.tokens = done.Usage.CompletionTokens
		}
	}
	must(b, sc.Err())
	if s.first == 0 || s.end == 0 || s.tokens == 0 {
		b.Fatalf("chat/stream ended without a delta and a done event (%d tokens)", s.tokens)
	}
	return s
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// median is the middle value of xs (the mean of the middle two).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		panic(fmt.Sprintf("median of %d values", len(xs)))
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func medianOf(samples []streamSample, f func(streamSample) float64) float64 {
	xs := make([]float64, len(samples))
	for i, s := range samples {
		xs[i] = f(s)
	}
	return median(xs)
}
