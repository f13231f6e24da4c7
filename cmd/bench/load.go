package main

import (
	"context"
	"fmt"
	"github.com/markwell/markwell/internal/procstat"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"
)

// op is one kind of request of a load mix.
type op struct {
	name   string
	weight int
	do     func(ctx context.Context, c *teacher, rng *rand.Rand) (time.Duration, error)
}

// loadStats are one load phase's latencies.
type loadStats struct {
	all     []time.Duration
	byOp    map[string][]time.Duration
	errors  map[string]int
	firstEr map[string]string
	elapsed time.Duration
}

func (s *loadStats) rps() float64 { return float64(len(s.all)) / s.elapsed.Seconds() }

func (s *loadStats) errCount() int {
	n := 0
	for _, v := range s.errors {
		n += v
	}
	return n
}

func (s *loadStats) describeErrors() string {
	var parts []string
	for name, n := range s.errors {
		parts = append(parts, fmt.Sprintf("%s: %d (%s)", name, n, s.firstEr[name]))
	}
	return strings.Join(parts, "; ")
}

// runLoad runs len(clients) closed-loop clients, each sending its next
// request as soon as the last one is answered, for d; each picks an op of
// mix by weight.
func runLoad(ctx context.Context, clients []*teacher, d time.Duration, mix []op) *loadStats {
	total := 0
	for _, o := range mix {
		total += o.weight
	}
	type sample struct {
		op  int
		d   time.Duration
		err error
	}
	results := make([][]sample, len(clients))
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	start := time.Now()
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Add(1)
		go func(i int, c *teacher) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i)+1, 42))
			for ctx.Err() == nil {
				k := rng.IntN(total)
				j := 0
				for ; k >= mix[j].weight; j++ {
					k -= mix[j].weight
				}
				took, err := mix[j].do(ctx, c, rng)
				if ctx.Err() != nil {
					return // cut off by the end of the phase: not a sample
				}
				results[i] = append(results[i], sample{j, took, err})
			}
		}(i, c)
	}
	wg.Wait()
	s := &loadStats{elapsed: time.Since(start), byOp: map[string][]time.Duration{}, errors: map[string]int{}, firstEr: map[string]string{}}
	for _, rs := range results {
		for _, r := range rs {
			name := mix[r.op].name
			if r.err != nil {
				s.errors[name]++
				if _, ok := s.firstEr[name]; !ok {
					s.firstEr[name] = truncate(r.err.Error(), 160)
				}
				continue
			}
			s.all = append(s.all, r.d)
			s.byOp[name] = append(s.byOp[name], r.d)
		}
	}
	return s
}

// healthzOp is GET /healthz, the floor of what a request costs.
func healthzOp(base string) op {
	client := &http.Client{Transport: transport, Timeout: 30 * time.Second}
	return op{name: "healthz", weight: 1, do: func(ctx context.Context, _ *teacher, _ *rand.Rand) (time.Duration, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/healthz", nil)
		start := time.Now()
		res, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return 0, fmt.Errorf("healthz: %d", res.StatusCode)
		}
		return time.Since(start), nil
	}}
}

// cpuTime returns a process's user + system CPU time (procstat.CPU).
var cpuTime = procstat.CPU

func cpuOf(pids []int) map[int]time.Duration {
	out := map[int]time.Duration{}
	for _, p := range pids {
		if d, err := cpuTime(p); err == nil {
			out[p] = d
		}
	}
	return out
}

// cpuDelta is the CPU the processes present at both samples used between them.
func cpuDelta(before, after map[int]time.Duration) time.Duration {
	var d time.Duration
	for p, a := range after {
		if b, ok := before[p]; ok {
			d += a - b
		}
	}
	return d
}
