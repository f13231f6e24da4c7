package fakellm

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func cachedTokens(out map[string]any) float64 {
	return out["usage"].(map[string]any)["prompt_tokens_details"].(map[string]any)["cached_tokens"].(float64)
}

func TestPromptCache(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{})
	shared := strings.Repeat("Grade against the rubric. ", 240) // 6,240 characters
	// The serialised prompt begins "system\n" + shared: 6,247 characters
	// in common, 12 whole blocks of 512 characters, 1,536 tokens.
	_, _, out := b.post(t, body(t, shared, "First student.", nil))
	require.Zero(t, cachedTokens(out), "nothing is cached before the first request")
	_, _, out = b.post(t, body(t, shared, "Second student.", nil))
	require.Equal(t, 1536.0, cachedTokens(out))
	_, _, out = b.post(t, body(t, shared, "Second student.", nil))
	require.Equal(t, 1536.0, cachedTokens(out), "only whole blocks count")

	_, _, out = b.post(t, body(t, "Short.", "Hello.", nil))
	_, _, out = b.post(t, body(t, "Short.", "Hello.", nil))
	require.Zero(t, cachedTokens(out), "a prompt under 1,024 tokens is never cached")

	_, _, out = b.post(t, body(t, shared[:4000], "x", nil))
	require.Zero(t, cachedTokens(out), "a shared prefix of 7 blocks (896 tokens) is under the minimum")
	_, _, out = b.post(t, body(t, "Another teacher. "+shared, "Second student.", nil))
	require.Zero(t, cachedTokens(out), "only a shared beginning counts")
}

func TestPromptCacheBlocks(t *testing.T) {
	t.Parallel()
	var c promptCache
	req := func(text string, images ...string) ChatRequest {
		return ChatRequest{Model: DefaultModel, Messages: []Message{{Role: "user", Text: text, ImageURLs: images}}}
	}
	long := strings.Repeat("a", 20*512)
	require.Zero(t, c.match(req(long)))
	require.Equal(t, 20*128, c.match(req(long)), "the whole prompt, floored to blocks")
	require.Equal(t, 10*128, c.match(req(long[:10*512]+"different")), "the shared prefix only")
	other := req(long)
	other.Model = "other-model"
	require.Zero(t, c.match(other), "each model has its own cache")

	// "user\n", 4,196 characters and "\n" make 4,202; two images of 340
	// characters each bring it to 4,882: 9 blocks, the ninth holding the
	// first image's placeholder.
	var fresh promptCache
	text := long[:8*512+100]
	require.Zero(t, fresh.match(req(text, "https://example.com/1.png", "https://example.com/2.png")))
	require.Equal(t, 9*128, fresh.match(req(text, "https://example.com/1.png", "https://example.com/2.png")))
	require.Equal(t, 8*128, fresh.match(req(text, "https://example.com/3.png", "https://example.com/2.png")), "another image breaks the prefix where it starts")
}
