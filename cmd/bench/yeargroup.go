package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// yeargroupFigures is one class size as e2e/bench-yeargroup.mjs measures it.
type yeargroupFigures struct {
	N             int     `json:"n"`
	ImportSeconds float64 `json:"importSeconds"`
	FirstRowMs    float64 `json:"firstRowMs"`
	DOMNodes      float64 `json:"domNodes"`
	HeapBytes     float64 `json:"heapBytes"`
	PollBytes     float64 `json:"pollBytes"`
	PollMs        float64 `json:"pollMs"`
	Poll304       int     `json:"poll304"`
	Poll304Ms     float64 `json:"poll304Ms"`
	ScoreSortMs   float64 `json:"scoreSortMs"`
}

// yeargroup imports classes of 1,500 and 10,000 into grade assignments from
// a CSV and opens each one's page in Chromium (issue 23, point 6): the time
// to its first table row, its DOM nodes and JS heap, and one poll's bytes.
// The browser side is a node script (playwright-core from e2e/node_modules,
// Debian's chromium); the frontend must be built (frontend/dist).
func yeargroup(ctx context.Context, root, admin, logDir string, s *settings, res *Results) error {
	sizes := "1500,10000"
	if s.quick {
		sizes = "400"
	}
	if _, err := os.Stat(filepath.Join(root, "frontend", "dist", "index.html")); err != nil {
		return fmt.Errorf("the frontend is not built (npm --prefix frontend run build): %w", err)
	}
	fmt.Printf("\n-- Year group: classes of %s imported from a CSV, the assignment page in Chromium --\n", sizes)
	st, err := startStack(ctx, root, admin, logDir, stackOptions{})
	if err != nil {
		return err
	}
	defer st.Stop()
	cmd := exec.CommandContext(ctx, "node", filepath.Join(root, "e2e", "bench-yeargroup.mjs"))
	cmd.Dir = filepath.Join(root, "e2e")
	cmd.Env = append(os.Environ(), "BASE_URL="+st.BaseURL, "SIZES="+sizes)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("bench-yeargroup.mjs: %w: %s", err, truncate(errOut.String(), 2000))
	}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var f yeargroupFigures
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			return fmt.Errorf("bench-yeargroup.mjs said %q: %w", line, err)
		}
		p := fmt.Sprintf("yeargroup.%d.", f.N)
		res.Add(p+"import_s", f.ImportSeconds, "s", "CSV upload and import, as the UI sends it")
		res.AtMost(p+"first_row_ms", f.FirstRowMs, 1000, "ms", "navigation to the first table row visible")
		res.AtMost(p+"dom_nodes", f.DOMNodes, 5000, "nodes", "document.querySelectorAll('*') after load")
		res.AtMost(p+"heap_mb", f.HeapBytes/1e6, 100, "MB", "JSHeapUsedSize after a GC (CDP)")
		res.Add(p+"poll_kb", f.PollBytes/1e3, "KB", "one submission-rows page of 50")
		res.Add(p+"poll_ms", f.PollMs, "ms", "one submission-rows page, from the browser")
		res.Add(p+"poll_304_ms", f.Poll304Ms, "ms", fmt.Sprintf("the same poll with its ETag (status %d)", f.Poll304))
		res.Add(p+"sort_by_result_ms", f.ScoreSortMs, "ms", "submission-rows sorted by result (every result scored in Go)")
	}
	return nil
}
