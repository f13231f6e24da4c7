package fakellm

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"
)

// The demo model's prompt cache imitates OpenAI's: a request whose prompt
// begins with the same text as an earlier request's reports that shared
// prefix as usage.prompt_tokens_details.cached_tokens, counted as OpenAI
// counts it: nothing below 1,024 tokens, then in steps of 128 tokens.
//
// The prompt is the request's messages serialised in order, each as its
// role, a newline, its text and a newline, then for each image a
// placeholder of 85 tokens naming the image's URL by its SHA-256 (an image
// costs 85 prompt tokens here, whatever its size). Tokens are four
// characters. The prompt is cut into blocks of 128 tokens (512 characters),
// and each block's hash chains the model and every block before it, so a
// hash stands for a whole prefix. The cached tokens are 128 times the
// number of leading blocks whose hashes an earlier request produced (none
// when fewer than 8), never more than the prompt's tokens. The set of
// hashes is bounded and starts afresh when full.
const (
	cacheBlockTokens = 128
	cacheMinTokens   = 1024
	cacheBlockChars  = cacheBlockTokens * 4
	imageTokens      = 85
	maxCacheEntries  = 200_000
)

// promptCache is the set of prefix hashes earlier requests produced.
type promptCache struct {
	mu   sync.Mutex
	seen map[[sha256.Size]byte]struct{}
}

// match returns how many of req's prompt tokens the cache serves, and
// remembers req's prefixes for later requests.
func (c *promptCache) match(req ChatRequest) int {
	hashes := prefixHashes(req)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil || len(c.seen)+len(hashes) > maxCacheEntries {
		c.seen = make(map[[sha256.Size]byte]struct{}, len(hashes))
	}
	blocks := 0
	for blocks < len(hashes) {
		if _, ok := c.seen[hashes[blocks]]; !ok {
			break
		}
		blocks++
	}
	for _, h := range hashes {
		c.seen[h] = struct{}{}
	}
	if blocks*cacheBlockTokens < cacheMinTokens {
		return 0
	}
	return blocks * cacheBlockTokens
}

// prefixHashes returns the chained hash of each whole 128-token block of
// req's serialised prompt.
func prefixHashes(req ChatRequest) [][sha256.Size]byte {
	prompt := []rune(serialisePrompt(req))
	n := len(prompt) / cacheBlockChars
	out := make([][sha256.Size]byte, 0, n)
	prev := sha256.Sum256([]byte("fakellm prompt cache\n" + req.Model))
	for i := range n {
		h := sha256.New()
		h.Write(prev[:])
		h.Write([]byte(string(prompt[i*cacheBlockChars : (i+1)*cacheBlockChars])))
		copy(prev[:], h.Sum(nil))
		out = append(out, prev)
	}
	return out
}

// serialisePrompt writes req's messages as the prompt cache reads them.
func serialisePrompt(req ChatRequest) string {
	var b strings.Builder
	for _, m := range req.Messages {
		b.WriteString(m.Role)
		b.WriteByte('\n')
		b.WriteString(m.Text)
		b.WriteByte('\n')
		for _, u := range m.ImageURLs {
			sum := sha256.Sum256([]byte(u))
			image := "[image " + hex.EncodeToString(sum[:]) + "]"
			b.WriteString(image)
			b.WriteString(strings.Repeat(".", imageTokens*4-len(image)))
		}
	}
	return b.String()
}
