package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// firstLoadTarget is issue 23's budget for the JavaScript a route needs
// before it can draw: kB (1000 bytes) gzipped.
const firstLoadTarget = 250.0

// The app's route table (frontend/src/app/routes.tsx) loads every page and
// the signed-in layout from its own chunk. A route's first load is the entry
// chunk with its static imports, plus the chunks of the modules its `lazy`
// loads (fetched in parallel) with theirs. For the pages drawn by assignment
// type it adds the grade type's part the page's main content is (the
// definition, the review, the wizard, the editor: grade's are the largest),
// which loads as soon as the assignment's type is known. What a page loads
// after it has drawn does not count: dialogs, the class summary and the
// student link below the submissions, the rich editor, the chat of a
// workflow's run.
const (
	appLayout   = "src/app/routes/AppLayout.tsx"
	typeParts   = "src/app/processes/parts.ts"
	studentPage = "src/features/student/components/StudentLayout.tsx"
	gradeDir    = "src/features/assignments/components/grade/"
)

// firstLoadRoute is one route and the source modules its `lazy` loads, as
// the manifest names them (keys of .vite/manifest.json).
type firstLoadRoute struct {
	Name string
	Path string
	Lazy []string
}

// firstLoadRoutes are every top-level page of routes.tsx. A module renamed
// in the frontend fails the phase (not in the manifest) until it is renamed
// here too.
var firstLoadRoutes = []firstLoadRoute{
	{"signin", "/signin", []string{"src/features/auth/components/SignInPage.tsx"}},
	{"library", "/library", []string{appLayout, "src/features/library/components/LibraryPage.tsx"}},
	{"assignment", "/assignment/:id", []string{appLayout, "src/app/routes/AssignmentRoute.tsx", gradeDir + "GradeDefinition.tsx"}},
	{"submission_review", "/assignment/:id/submission/:id", []string{appLayout, "src/app/routes/SubmissionReviewRoute.tsx", "src/features/results/components/grade/GradeReview.tsx"}},
	{"assignment_edit", "/assignment/:id/edit", []string{appLayout, "src/features/assignments/components/edit/EditAssignmentPage.tsx", typeParts, gradeDir + "GradeEditor.tsx"}},
	{"assignment_new", "/assignments/new/:type", []string{appLayout, typeParts, gradeDir + "GradeWizard.tsx"}},
	{"rubrics", "/rubrics", []string{appLayout, "src/features/rubrics/components/RubricsPage.tsx"}},
	{"rubric_editor", "/rubrics/:id", []string{appLayout, "src/features/rubrics/components/RubricEditorPage.tsx"}},
	{"assistants", "/assistants", []string{appLayout, "src/features/assistants/components/AssistantsPage.tsx"}},
	{"assistant_editor", "/assistants/:id/edit", []string{appLayout, "src/features/assistants/components/AssistantEditorPage.tsx"}},
	{"chat", "/chat", []string{appLayout, "src/features/chat/components/ChatPages.tsx"}},
	{"tools", "/tools", []string{appLayout, "src/features/tools/components/ToolsPage.tsx"}},
	{"workflow", "/workflows/:id", []string{appLayout, "src/features/tools/components/WorkflowPage.tsx", "src/features/chat/components/ChatView.tsx"}},
	{"team", "/team", []string{appLayout, "src/features/team/components/TeamPage.tsx"}},
	{"invite", "/invite/:token", []string{appLayout, "src/features/team/components/AcceptInvitePage.tsx"}},
	{"model_check", "/admin/model-check", []string{appLayout, "src/features/operator/components/ModelCheckPage.tsx"}},
	{"student_submit", "/submit/:token", []string{studentPage, "src/features/student/components/SubmitPage.tsx"}},
	{"student_result", "/student/view-result/:a/:s", []string{studentPage, "src/features/student/components/ViewResultPage.tsx"}},
	{"released_result", "/results/:token", []string{studentPage, "src/features/student/components/ReleasedResultPage.tsx"}},
	{"not_found", "/no/such/page", nil},
}

// manifestChunk is one entry of Vite's build manifest.
type manifestChunk struct {
	File           string   `json:"file"`
	Src            string   `json:"src"`
	IsEntry        bool     `json:"isEntry"`
	IsDynamicEntry bool     `json:"isDynamicEntry"`
	Imports        []string `json:"imports"`
	DynamicImports []string `json:"dynamicImports"`
}

// viteManifest is .vite/manifest.json: chunks by source path (or by
// "_name-hash.js" for shared chunks).
type viteManifest map[string]manifestChunk

func readManifest(dist string) (viteManifest, error) {
	b, err := os.ReadFile(filepath.Join(dist, ".vite", "manifest.json"))
	if err != nil {
		return nil, fmt.Errorf("%w (build the frontend: npm --prefix frontend run build)", err)
	}
	var m viteManifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf(".vite/manifest.json: %w", err)
	}
	return m, nil
}

// entry is the key of the one chunk index.html loads.
func (m viteManifest) entry() (string, error) {
	var keys []string
	for k, c := range m {
		if c.IsEntry {
			keys = append(keys, k)
		}
	}
	if len(keys) != 1 {
		return "", fmt.Errorf("manifest has %d entry chunks, want 1", len(keys))
	}
	return keys[0], nil
}

// initialFiles are the JavaScript files a page fetches before it draws: the
// entry and the given lazy modules' chunks with all they import statically,
// each once, sorted.
func (m viteManifest) initialFiles(lazy []string) ([]string, error) {
	entry, err := m.entry()
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var files []string
	var walk func(key string) error
	walk = func(key string) error {
		if seen[key] {
			return nil
		}
		seen[key] = true
		c, ok := m[key]
		if !ok {
			return fmt.Errorf("%s is not in the build's manifest (renamed? update cmd/bench/firstload.go)", key)
		}
		if strings.HasSuffix(c.File, ".js") {
			files = append(files, c.File)
		}
		for _, imp := range c.Imports {
			if err := walk(imp); err != nil {
				return err
			}
		}
		return nil
	}
	for _, key := range append([]string{entry}, lazy...) {
		if err := walk(key); err != nil {
			return nil, err
		}
	}
	sort.Strings(files)
	return files, nil
}

// gzipSize is the size of b gzipped at the default level, as a server
// compressing on the fly (or Vite's build report) sends it.
func gzipSize(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
	_, _ = w.Write(b)
	_ = w.Close()
	return buf.Len()
}

// routeFirstLoad is one route's first-load JavaScript.
type routeFirstLoad struct {
	Route   firstLoadRoute
	Files   []string
	GzipKB  float64
	Largest string
}

// measureFirstLoad adds up each route's initial JavaScript from dist's
// manifest and files.
func measureFirstLoad(dist string, routes []firstLoadRoute) ([]routeFirstLoad, error) {
	m, err := readManifest(dist)
	if err != nil {
		return nil, err
	}
	sizes := map[string]int{}
	size := func(file string) (int, error) {
		if n, ok := sizes[file]; ok {
			return n, nil
		}
		b, err := os.ReadFile(filepath.Join(dist, filepath.FromSlash(file)))
		if err != nil {
			return 0, err
		}
		sizes[file] = gzipSize(b)
		return sizes[file], nil
	}
	var out []routeFirstLoad
	for _, r := range routes {
		files, err := m.initialFiles(r.Lazy)
		if err != nil {
			return nil, fmt.Errorf("route %s: %w", r.Name, err)
		}
		total, largest, largestN := 0, "", 0
		for _, f := range files {
			n, err := size(f)
			if err != nil {
				return nil, fmt.Errorf("route %s: %w", r.Name, err)
			}
			total += n
			if n > largestN {
				largest, largestN = f, n
			}
		}
		out = append(out, routeFirstLoad{Route: r, Files: files, GzipKB: float64(total) / 1000, Largest: fmt.Sprintf("%s %.1f kB", filepath.Base(largest), float64(largestN)/1000)})
	}
	return out, nil
}

// firstLoad is the `firstload` phase: every route's initial JavaScript,
// gzipped, against the 250 kB target, from the built frontend.
func firstLoad(root string, res *Results) error {
	dist := filepath.Join(root, "frontend", "dist")
	loads, err := measureFirstLoad(dist, firstLoadRoutes)
	if err != nil {
		return err
	}
	fmt.Printf("\nFirst load (initial JavaScript per route, gzipped; target ≤ %.0f kB):\n", firstLoadTarget)
	var over []string
	for _, l := range loads {
		mark := ""
		if l.GzipKB > firstLoadTarget {
			mark = "  OVER TARGET"
			over = append(over, fmt.Sprintf("%s %.1f kB", l.Route.Path, l.GzipKB))
		}
		fmt.Printf("  %-30s %7.1f kB in %2d files (largest %s)%s\n", l.Route.Path, l.GzipKB, len(l.Files), l.Largest, mark)
		res.AtMost("firstload."+l.Route.Name+"_kb", l.GzipKB, firstLoadTarget, "kB gzipped", l.Route.Path)
	}
	if len(over) > 0 {
		return fmt.Errorf("first load over %.0f kB: %s", firstLoadTarget, strings.Join(over, ", "))
	}
	return nil
}
