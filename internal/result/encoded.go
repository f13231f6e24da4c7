package result

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"sync"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/store"
)

// encodedCacheBytes bounds the results an API process keeps encoded.
const encodedCacheBytes = 64 << 20

// encodedResults keeps results as assignment/get sends them, encoded once
// per version of the row and of what its presentation reads besides (the
// assignment's type and definition): the 50 clients of a busy morning
// polling the same class present each version of a result once, not once
// per poll. An entry is used only when the row's stamp (changed_xid, moved
// by every write) and the definition's key are those it was made from, so
// a stale answer cannot be served; ids come from the reader's team-scoped
// query, so nothing crosses teams. Results whose answers carry signed media
// URLs are not kept (their URLs expire), nor rows read partially (stamp 0).
type encodedResults struct {
	mu    sync.Mutex
	m     map[uuid.UUID]encodedResult
	bytes int
	max   int
}

type encodedResult struct {
	stamp uint64
	def   uint64
	json  []byte
}

func (c *encodedResults) get(id uuid.UUID, stamp, def uint64) ([]byte, bool) {
	if stamp == 0 {
		return nil, false
	}
	c.mu.Lock()
	e, ok := c.m[id]
	c.mu.Unlock()
	if !ok || e.stamp != stamp || e.def != def {
		return nil, false
	}
	return e.json, true
}

func (c *encodedResults) put(id uuid.UUID, stamp, def uint64, b []byte) {
	if stamp == 0 {
		return
	}
	max := c.max
	if max == 0 {
		max = encodedCacheBytes
	}
	if len(b) > max/16 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[uuid.UUID]encodedResult{}
	}
	if old, ok := c.m[id]; ok {
		delete(c.m, id)
		c.bytes -= len(old.json)
	}
	if c.bytes+len(b) > max {
		// Over the bound: forget entries at random (map order) down to
		// three quarters of it.
		for k, e := range c.m {
			if c.bytes+len(b) <= max*3/4 {
				break
			}
			delete(c.m, k)
			c.bytes -= len(e.json)
		}
	}
	c.m[id] = encodedResult{stamp: stamp, def: def, json: b}
	c.bytes += len(b)
}

var definitionSeed = maphash.MakeSeed()

// definitionKey names what a result's presentation reads besides its row:
// the assignment's type (its scorer) and its definition (the criteria its
// totals come from, the parts its outdated marks compare).
func definitionKey(typ string, fn *assignment.Function) (uint64, error) {
	var h maphash.Hash
	h.SetSeed(definitionSeed)
	h.WriteString(typ)
	if fn == nil {
		return h.Sum64(), nil
	}
	f := *fn
	if q := f.QuestionsKey(); q != "" {
		// the questions as stored: equal bytes, equal questions
		h.WriteString("\x00q")
		h.WriteString(q)
		f.Questions = nil
	}
	b, err := json.Marshal(f)
	if err != nil {
		return 0, fmt.Errorf("key of definition %s: %w", fn.ID, err)
	}
	h.WriteString("\x00f")
	h.Write(b)
	return h.Sum64(), nil
}

// encodeResults is presentAll and the JSON encoding of each result, with
// the results read before at the same version taken from the cache.
func (s *Service) encodeResults(ctx context.Context, asg assignment.Assignment, fn *assignment.Function, results []FunctionResult) ([]json.RawMessage, error) {
	def, err := definitionKey(asg.Type, fn)
	if err != nil {
		return nil, err
	}
	return s.encodeEach(ctx, asg, fn, def, len(results),
		func(i int) (uuid.UUID, uint64) { return results[i].ID, results[i].Stamp },
		func(i int) *FunctionResult { return &results[i] })
}

// encodeRows is encodeResults of stored rows (the class cache's, not to be
// modified), given the definition's key: only the rows the cache misses
// are turned into results.
func (s *Service) encodeRows(ctx context.Context, asg assignment.Assignment, fn *assignment.Function, def uint64, rows []store.FunctionResult) ([]json.RawMessage, error) {
	return s.encodeEach(ctx, asg, fn, def, len(rows),
		func(i int) (uuid.UUID, uint64) { return rows[i].ID, rows[i].ChangedXid.Uint64 },
		func(i int) *FunctionResult {
			r := assignment.FunctionResultFromRow(rows[i])
			return &r
		})
}

// encodeEach encodes n results, the i-th named by key and made by result
// when the cache does not hold it.
func (s *Service) encodeEach(ctx context.Context, asg assignment.Assignment, fn *assignment.Function, def uint64, n int,
	key func(int) (uuid.UUID, uint64), result func(int) *FunctionResult) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, n)
	var missed []int
	for i := range n {
		id, stamp := key(i)
		if b, ok := s.encoded.get(id, stamp, def); ok {
			out[i] = b
		} else {
			missed = append(missed, i)
		}
	}
	if len(missed) == 0 {
		return out, nil
	}
	p := s.presenter(asg.Type, fn)
	for _, i := range missed {
		r := result(i)
		p.present(r)
		stored := r.Answers
		one := []FunctionResult{*r}
		if err := s.Assignments.SignResults(ctx, asg.ID, one); err != nil {
			return nil, err
		}
		b, err := json.Marshal(&one[0])
		if err != nil {
			return nil, fmt.Errorf("encode result %s: %w", r.ID, err)
		}
		out[i] = b
		if bytes.Equal(stored, one[0].Answers) { // nothing signed: the same on every read
			s.encoded.put(r.ID, r.Stamp, def, b)
		}
	}
	return out, nil
}
