package llm

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Price is what a model charges, in US dollars per million tokens.
type Price struct {
	// Prompt is the price of one million prompt (input) tokens.
	Prompt float64
	// CachedPrompt is the price of one million prompt tokens the provider
	// served from its prompt cache ("cached input"); the same as Prompt
	// when the table does not say.
	CachedPrompt float64
	// Completion is the price of one million completion (output) tokens.
	Completion float64
}

// Prices maps a model name to its [Price]. The zero value is an empty
// table: every call costs 0 (the demo model, or prices not configured).
type Prices map[string]Price

// ParsePrices reads a price table such as
// "gpt-4.1-mini=0.40/0.10/1.60,gpt-4o=2.50/10": per model, the US dollars
// per million tokens of input, cached input and output, as providers list
// them, separated by slashes. With two prices (input/output) cached input
// costs as much as input. An empty string is an empty table.
func ParsePrices(s string) (Prices, error) {
	p := Prices{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		model, pair, ok := strings.Cut(part, "=")
		model = strings.TrimSpace(model)
		if !ok || model == "" {
			return nil, fmt.Errorf("%q: want model=prompt/completion (US dollars per million tokens), e.g. gpt-4o-mini=0.15/0.60", part)
		}
		fields := strings.Split(pair, "/")
		if len(fields) != 2 && len(fields) != 3 {
			return nil, fmt.Errorf("%q: want two prices, prompt/completion, or three, prompt/cached/completion, e.g. %s=0.15/0.60", part, model)
		}
		prompt, err := parsePrice(fields[0])
		if err != nil {
			return nil, fmt.Errorf("%q: prompt price %w", part, err)
		}
		cached := prompt
		if len(fields) == 3 {
			if cached, err = parsePrice(fields[1]); err != nil {
				return nil, fmt.Errorf("%q: cached prompt price %w", part, err)
			}
		}
		completion, err := parsePrice(fields[len(fields)-1])
		if err != nil {
			return nil, fmt.Errorf("%q: completion price %w", part, err)
		}
		if _, dup := p[model]; dup {
			return nil, fmt.Errorf("%q: model %s is priced twice", part, model)
		}
		p[model] = Price{Prompt: prompt, CachedPrompt: cached, Completion: completion}
	}
	return p, nil
}

func parsePrice(s string) (float64, error) {
	s = strings.TrimSpace(s)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0, fmt.Errorf("%q is not a number of dollars of at least 0", s)
	}
	return v, nil
}

// Lookup finds model's price: its own entry, else the entry of the name
// that model extends with a dated snapshot suffix, so a price for
// "gpt-4o-mini" covers the "gpt-4o-mini-2024-07-18" that OpenAI reports
// (but a price for "gpt-4o" does not cover "gpt-4o-mini").
func (p Prices) Lookup(model string) (Price, bool) {
	if price, ok := p[model]; ok {
		return price, true
	}
	for name, price := range p {
		if rest, ok := strings.CutPrefix(model, name); ok && snapshot.MatchString(rest) {
			return price, true
		}
	}
	return Price{}, false
}

// snapshot is the suffix of a model's dated snapshot: -2024-07-18, -0613,
// -20241022.
var snapshot = regexp.MustCompile(`^-[0-9]{4}(-?[0-9]{2}){0,2}$`)

// Cost is what u cost in US dollars, its cached prompt tokens at the
// cached price; 0 for a model the table does not price.
func (p Prices) Cost(u Usage) float64 {
	price, ok := p.Lookup(u.Model)
	if !ok {
		return 0
	}
	cached := min(max(u.CachedPromptTokens, 0), u.PromptTokens)
	return (float64(u.PromptTokens-cached)*price.Prompt + float64(cached)*price.CachedPrompt +
		float64(u.CompletionTokens)*price.Completion) / 1e6
}

// CostUncached is what u would have cost without the prompt cache: every
// prompt token at the full price.
func (p Prices) CostUncached(u Usage) float64 {
	u.CachedPromptTokens = 0
	return p.Cost(u)
}

// String writes the table as ParsePrices reads it, models in order.
func (p Prices) String() string {
	names := make([]string, 0, len(p))
	for name := range p {
		names = append(names, name)
	}
	sort.Strings(names)
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	parts := make([]string, len(names))
	for i, name := range names {
		price := p[name]
		if price.CachedPrompt == price.Prompt {
			parts[i] = fmt.Sprintf("%s=%s/%s", name, num(price.Prompt), num(price.Completion))
		} else {
			parts[i] = fmt.Sprintf("%s=%s/%s/%s", name, num(price.Prompt), num(price.CachedPrompt), num(price.Completion))
		}
	}
	return strings.Join(parts, ",")
}
