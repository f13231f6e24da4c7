package modelcheck

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Text renders the report for a terminal: a heading, one aligned row per
// task, each failed task's error in plain words, and the verdict.
func (r Report) Text() string {
	var b strings.Builder
	vision := r.VisionModel
	if vision == "" {
		vision = "not set"
	}
	fmt.Fprintf(&b, "Provider check: %s, model %s, vision model %s, LLM_OUTPUT_MODE=%s\n\n", r.BaseURL, r.Model, vision, r.Mode)
	head := []string{"task", "mode", "schema-valid", "latency", "prompt", "cached", "completion", fmt.Sprintf("cost per class of %d", r.ClassSize)}
	right := []bool{false, false, false, true, true, true, true, true}
	rows := [][]string{head}
	for _, res := range r.Results {
		if res.Skipped != "" {
			rows = append(rows, []string{res.Task, "skipped: " + res.Skipped})
			continue
		}
		rows = append(rows, []string{res.Task, orDash(string(res.Mode)), res.validity(), formatLatency(res.LatencyMS),
			strconv.Itoa(res.PromptTokens), strconv.Itoa(res.CachedPromptTokens), strconv.Itoa(res.CompletionTokens), res.cost()})
	}
	writeTable(&b, rows, right)
	var notes []string
	last := ""
	for _, res := range r.Results {
		switch {
		case res.Error != "" && res.Error == last:
			notes = append(notes, res.Task+": the same")
		case res.Error != "":
			notes = append(notes, res.Task+": "+res.Error)
			last = res.Error
		case res.Note != "":
			notes = append(notes, res.Task+": "+res.Note)
		}
	}
	if len(notes) > 0 {
		b.WriteString("\n")
		for _, n := range notes {
			b.WriteString(n + "\n")
		}
	}
	if r.Advice != "" {
		b.WriteString("\nAdvice: " + r.Advice + "\n")
	}
	b.WriteString("\n")
	ran, failed := 0, 0
	for _, res := range r.Results {
		if res.Skipped == "" {
			ran++
			if !res.Valid {
				failed++
			}
		}
	}
	if failed == 0 {
		fmt.Fprintf(&b, "OK: %d of %d tasks passed in %s.\n", ran, ran, formatLatency(r.DurationMS))
	} else {
		fmt.Fprintf(&b, "FAILED: %d of %d tasks failed. First error: %s\n", failed, ran, r.FirstError)
	}
	return b.String()
}

// validity is the schema-valid column.
func (r Result) validity() string {
	switch {
	case r.Valid && r.Retried:
		return "yes, after a retry"
	case r.Valid:
		return "yes"
	case !r.Answered:
		return "no answer"
	}
	return "no"
}

// cost is the cost column.
func (r Result) cost() string {
	if r.ClassCost == nil {
		return "not priced"
	}
	return formatDollars(*r.ClassCost)
}

// formatDollars writes an amount in US dollars, with four decimals below
// one dollar so that a cheap model does not read as $0.00.
func formatDollars(d float64) string {
	if d < 1 {
		return fmt.Sprintf("$%.4f", d)
	}
	return fmt.Sprintf("$%.2f", d)
}

// formatLatency writes milliseconds as "850 ms" or "12.3 s".
func formatLatency(ms int64) string {
	if ms < 1000 {
		return fmt.Sprintf("%d ms", ms)
	}
	return fmt.Sprintf("%.1f s", float64(ms)/1000)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// writeTable writes rows with columns two spaces apart, those marked in
// right aligned to the right; a short row's last cell runs on freely.
func writeTable(b *strings.Builder, rows [][]string, right []bool) {
	width := make([]int, len(right))
	for _, row := range rows {
		if len(row) < len(right) {
			continue
		}
		for i, cell := range row {
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	for _, row := range rows {
		var line strings.Builder
		for i, cell := range row {
			if i > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", max(width[i]-utf8.RuneCountInString(cell), 0))
			switch {
			case i == len(row)-1 && len(row) < len(right):
				line.WriteString(cell)
			case right[i]:
				line.WriteString(pad + cell)
			default:
				line.WriteString(cell + pad)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}
