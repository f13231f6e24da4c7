package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Goal says which side of its target a figure should be on.
type Goal int

const (
	// Info figures have no target.
	Info Goal = iota
	// AtMost figures meet their target when value ≤ target.
	AtMost
	// AtLeast figures meet their target when value ≥ target.
	AtLeast
)

// Figure is one measured number. Only value, target and unit go to
// results.json; the rest is for the printed table.
type Figure struct {
	Value  float64  `json:"value"`
	Target *float64 `json:"target"`
	Unit   string   `json:"unit"`

	Goal Goal   `json:"-"`
	Note string `json:"-"`
}

// Met reports whether the figure meets its target, and whether it has one.
func (f Figure) Met() (met, hasTarget bool) {
	if f.Target == nil || f.Goal == Info {
		return false, false
	}
	if math.IsNaN(f.Value) {
		return false, true
	}
	if f.Goal == AtMost {
		return f.Value <= *f.Target, true
	}
	return f.Value >= *f.Target, true
}

// Results are the run's figures by name, in the order they were added.
type Results struct {
	names   []string
	figures map[string]Figure
}

// NewResults returns an empty set of figures.
func NewResults() *Results { return &Results{figures: map[string]Figure{}} }

// Add records a figure without a target.
func (r *Results) Add(name string, value float64, unit, note string) {
	r.put(name, Figure{Value: value, Unit: unit, Note: note})
}

// AtMost records a figure that should be at most target.
func (r *Results) AtMost(name string, value, target float64, unit, note string) {
	r.put(name, Figure{Value: value, Target: &target, Unit: unit, Goal: AtMost, Note: note})
}

// AtLeast records a figure that should be at least target.
func (r *Results) AtLeast(name string, value, target float64, unit, note string) {
	r.put(name, Figure{Value: value, Target: &target, Unit: unit, Goal: AtLeast, Note: note})
}

func (r *Results) put(name string, f Figure) {
	if _, ok := r.figures[name]; !ok {
		r.names = append(r.names, name)
	}
	r.figures[name] = f
}

// Get returns a recorded figure.
func (r *Results) Get(name string) (Figure, bool) {
	f, ok := r.figures[name]
	return f, ok
}

// Len is the number of figures.
func (r *Results) Len() int { return len(r.names) }

// MarshalJSON writes {"figure": {"value", "target", "unit"}}. NaN and
// infinite values (a figure that could not be measured) are written as
// null, since JSON has no NaN.
func (r *Results) MarshalJSON() ([]byte, error) {
	type out struct {
		Value  *float64 `json:"value"`
		Target *float64 `json:"target"`
		Unit   string   `json:"unit"`
	}
	m := make(map[string]out, len(r.figures))
	for name, f := range r.figures {
		o := out{Target: f.Target, Unit: f.Unit}
		if !math.IsNaN(f.Value) && !math.IsInf(f.Value, 0) {
			v := f.Value
			o.Value = &v
		}
		m[name] = o
	}
	return json.Marshal(m)
}

// WriteFile writes the results as indented JSON to path, creating its
// directory, through a temporary file so a reader never sees half of it.
func (r *Results) WriteFile(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// PrintTable writes one line per figure: name, value, target, met.
func (r *Results) PrintTable(w io.Writer) {
	nameW := len("figure")
	for _, n := range r.names {
		nameW = max(nameW, len(n))
	}
	fmt.Fprintf(w, "%-*s  %14s  %14s  %-8s  %s\n", nameW, "figure", "value", "target", "met", "unit / note")
	fmt.Fprintln(w, strings.Repeat("-", nameW+2+14+2+14+2+8+2+24))
	for _, n := range r.names {
		f := r.figures[n]
		target, met := "", ""
		if f.Target != nil {
			target = formatValue(*f.Target)
			if f.Goal == AtMost {
				target = "≤ " + target
			} else {
				target = "≥ " + target
			}
			if ok, _ := f.Met(); ok {
				met = "yes"
			} else {
				met = "NO"
			}
		}
		unit := f.Unit
		if f.Note != "" {
			unit += " — " + f.Note
		}
		fmt.Fprintf(w, "%-*s  %14s  %14s  %-8s  %s\n", nameW, n, formatValue(f.Value), target, met, unit)
	}
}

func formatValue(v float64) string {
	switch {
	case math.IsNaN(v):
		return "n/a"
	case v == math.Trunc(v) && math.Abs(v) < 1e9:
		return fmt.Sprintf("%.0f", v)
	case math.Abs(v) >= 100:
		return fmt.Sprintf("%.1f", v)
	case math.Abs(v) >= 1:
		return fmt.Sprintf("%.2f", v)
	default:
		return fmt.Sprintf("%.3f", v)
	}
}

// Percentile returns the p-th percentile (0 < p ≤ 100) of ds by the
// nearest-rank method: the smallest sample with at least p % of the samples
// at or below it. ds is sorted in place; empty gives 0.
func Percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	rank := int(math.Ceil(p / 100 * float64(len(ds))))
	rank = min(max(rank, 1), len(ds))
	return ds[rank-1]
}

// ms is a duration in milliseconds as a float.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
