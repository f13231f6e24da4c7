package result

import (
	"encoding/json"
	"sync"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
)

// maxMemoTotals bounds the totals memo: at about 2 KB of answers per
// result (kept twice, as key and value) it stays under 40 MB. When full it
// starts again empty, which costs one recomputation per result.
const maxMemoTotals = 10_000

// totalsMemo remembers grading.Retotal's answers for answer trees it has
// seen under a definition. Totals are computed from the assignment's
// current criteria on every read, so a class of 300 parsed, retotalled
// and re-encoded 300 answer trees on every status poll: 90 % of
// assignment/get's time (BenchmarkGetAssignment300). Both the stored
// answers and the criteria are the key, byte for byte, so an edit to
// either is a new key and nothing needs invalidating. Safe for concurrent
// use; the zero value is ready.
type totalsMemo struct {
	mu   sync.Mutex
	defs map[string]map[string]memoTotals // definition → stored answers → totals
	n    int
}

type memoTotals struct {
	answers     json.RawMessage
	total, most float64
	err         error
}

// retotal is grading.Retotal(answers, questions), remembered under def (the
// questions as stored: assignment.Function.QuestionsKey).
func (m *totalsMemo) retotal(def string, answers json.RawMessage, questions []assignment.Question) (json.RawMessage, float64, float64, error) {
	m.mu.Lock()
	if v, ok := m.defs[def][string(answers)]; ok {
		m.mu.Unlock()
		return v.answers, v.total, v.most, v.err
	}
	m.mu.Unlock()
	out, total, most, err := grading.Retotal(answers, questions)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.defs == nil || m.n >= maxMemoTotals {
		m.defs, m.n = map[string]map[string]memoTotals{}, 0
	}
	byAnswers := m.defs[def]
	if byAnswers == nil {
		byAnswers = map[string]memoTotals{}
		m.defs[def] = byAnswers
	}
	if _, seen := byAnswers[string(answers)]; !seen {
		byAnswers[string(answers)] = memoTotals{answers: out, total: total, most: most, err: err}
		m.n++
	}
	return out, total, most, err
}
