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
	// Completion is the price of one million completion (output) tokens.
	Completion float64
}

// Prices maps a model name to its [Price]. The zero value is an empty
// table: every call costs 0 (the demo model, or prices not configured).
type Prices map[string]Price

// ParsePrices reads a price table such as
// "gpt-4o-mini=0.15/0.60,gpt-4o=2.50/10": per model, the US dollars per
// million prompt tokens, a slash, and per million completion tokens. An
// empty string is an empty table.
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
		in, out, ok := strings.Cut(pair, "/")
		if !ok {
			return nil, fmt.Errorf("%q: want two prices, prompt/completion, e.g. %s=0.15/0.60", part, model)
		}
		prompt, err := parsePrice(in)
		if err != nil {
			return nil, fmt.Errorf("%q: prompt price %w", part, err)
		}
		completion, err := parsePrice(out)
		if err != nil {
			return nil, fmt.Errorf("%q: completion price %w", part, err)
		}
		if _, dup := p[model]; dup {
			return nil, fmt.Errorf("%q: model %s is priced twice", part, model)
		}
		p[model] = Price{Prompt: prompt, Completion: completion}
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

// Cost is what u cost in US dollars; 0 for a model the table does not
// price.
func (p Prices) Cost(u Usage) float64 {
	price, ok := p.Lookup(u.Model)
	if !ok {
		return 0
	}
	return (float64(u.PromptTokens)*price.Prompt + float64(u.CompletionTokens)*price.Completion) / 1e6
}

// String writes the table as ParsePrices reads it, models in order.
func (p Prices) String() string {
	names := make([]string, 0, len(p))
	for name := range p {
		names = append(names, name)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, name := range names {
		parts[i] = fmt.Sprintf("%s=%s/%s", name,
			strconv.FormatFloat(p[name].Prompt, 'f', -1, 64), strconv.FormatFloat(p[name].Completion, 'f', -1, 64))
	}
	return strings.Join(parts, ",")
}
