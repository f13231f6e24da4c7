package httpapi

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// The app's router loads each page (and the signed-in layout) from its own
// chunk, which the browser would only ask for once the entry chunk has run:
// entry, then the page's chunks, then the page's reads, one after another.
// The page served for a known route names those chunks in
// <link rel="modulepreload"> tags, so the browser fetches and compiles them
// while the entry downloads (docs/performance.md, "First load").

// pageModules maps the SPA's routes (frontend/src/app/routes.tsx and the
// features' route lists) to the source modules their route `lazy` imports, as
// the build's manifest names them. A pattern segment ":x" matches any one
// segment. A path that matches none gets no preloads; a module missing from
// the manifest (renamed) is skipped, so a stale entry costs a preload, never
// the page.
var pageModules = []struct {
	pattern string
	modules []string
}{
	{"/signin", []string{"src/features/auth/components/SignInPage.tsx"}},
	{"/library", []string{appLayoutModule, "src/features/library/components/LibraryPage.tsx"}},
	{"/assignment/:id", []string{appLayoutModule, "src/app/routes/AssignmentRoute.tsx", typePartsModule}},
	{"/assignment/:id/edit", []string{appLayoutModule, "src/features/assignments/components/edit/EditAssignmentPage.tsx", typePartsModule}},
	{"/assignment/:id/submission/:id", []string{appLayoutModule, "src/app/routes/SubmissionReviewRoute.tsx"}},
	{"/assignments/new/:type", []string{appLayoutModule, typePartsModule}},
	{"/rubrics", []string{appLayoutModule, "src/features/rubrics/components/RubricsPage.tsx"}},
	{"/rubrics/:id", []string{appLayoutModule, "src/features/rubrics/components/RubricEditorPage.tsx"}},
	{"/assistants", []string{appLayoutModule, "src/features/assistants/components/AssistantsPage.tsx"}},
	{"/assistants/new", []string{appLayoutModule, "src/features/assistants/components/AssistantEditorPage.tsx"}},
	{"/assistants/:id/edit", []string{appLayoutModule, "src/features/assistants/components/AssistantEditorPage.tsx"}},
	{"/assistants/:id/chat", []string{appLayoutModule, chatModule}},
	{"/tools/:id/chat", []string{appLayoutModule, chatModule}},
	{"/chat", []string{appLayoutModule, chatModule}},
	{"/chat/:id", []string{appLayoutModule, chatModule}},
	{"/tools", []string{appLayoutModule, "src/features/tools/components/ToolsPage.tsx"}},
	{"/workflows/:id", []string{appLayoutModule, "src/features/tools/components/WorkflowPage.tsx"}},
	{"/team", []string{appLayoutModule, "src/features/team/components/TeamPage.tsx"}},
	{"/invite/:token", []string{appLayoutModule, "src/features/team/components/AcceptInvitePage.tsx"}},
	{"/submit/:token", []string{studentLayoutModule, "src/features/student/components/SubmitPage.tsx"}},
	{"/student/view-result/:a/:s", []string{studentLayoutModule, "src/features/student/components/ViewResultPage.tsx"}},
	{"/results/:token", []string{studentLayoutModule, "src/features/student/components/ReleasedResultPage.tsx"}},
}

const (
	appLayoutModule     = "src/app/routes/AppLayout.tsx"
	typePartsModule     = "src/app/processes/parts.ts"
	chatModule          = "src/features/chat/components/ChatPages.tsx"
	studentLayoutModule = "src/features/student/components/StudentLayout.tsx"
)

// matchPage reports whether the URL path p is the route pattern's.
func matchPage(pattern, p string) bool {
	want := strings.Split(strings.Trim(pattern, "/"), "/")
	got := strings.Split(strings.Trim(p, "/"), "/")
	if len(want) != len(got) {
		return false
	}
	for i, w := range want {
		if got[i] == "" || !strings.HasPrefix(w, ":") && w != got[i] {
			return false
		}
	}
	return true
}

// buildChunk is one entry of Vite's .vite/manifest.json.
type buildChunk struct {
	File    string   `json:"file"`
	IsEntry bool     `json:"isEntry"`
	Imports []string `json:"imports"`
}

// preloads reads the build's manifest and answers, per page path, the
// <link rel="modulepreload"> tags of the chunks its route loads that
// index.html does not already load. The manifest is read again when the
// build changes (its modification time), so `make dev`'s rebuilds are seen.
type preloads struct {
	path string

	mu    sync.Mutex
	mod   time.Time
	links map[string]string // pattern → tags
}

func newPreloads(dist string) *preloads {
	return &preloads{path: filepath.Join(dist, ".vite", "manifest.json")}
}

// tags are the modulepreload tags for the page at URL path p ("" when the
// path is no known route or the build has no manifest).
func (pl *preloads) tags(p string) string {
	st, err := os.Stat(pl.path)
	if err != nil {
		return ""
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if !st.ModTime().Equal(pl.mod) || pl.links == nil {
		pl.links = readPreloads(pl.path)
		pl.mod = st.ModTime()
	}
	for _, page := range pageModules {
		if matchPage(page.pattern, p) {
			return pl.links[page.pattern]
		}
	}
	return ""
}

// readPreloads builds each route's tags from the manifest at path (none when
// it cannot be read).
func readPreloads(path string) map[string]string {
	links := map[string]string{}
	b, err := os.ReadFile(path)
	if err != nil {
		return links
	}
	var m map[string]buildChunk
	if json.Unmarshal(b, &m) != nil {
		return links
	}
	// What the entry imports statically, index.html loads already.
	loaded := map[string]bool{}
	for key, c := range m {
		if c.IsEntry {
			staticClosure(m, key, loaded)
		}
	}
	for _, page := range pageModules {
		seen := map[string]bool{}
		for k := range loaded {
			seen[k] = true
		}
		var files []string
		for _, mod := range page.modules {
			for _, key := range staticClosure(m, mod, seen) {
				if f := m[key].File; strings.HasSuffix(f, ".js") {
					files = append(files, f)
				}
			}
		}
		sort.Strings(files)
		var sb strings.Builder
		for _, f := range files {
			sb.WriteString(`<link rel="modulepreload" crossorigin href="/` + html.EscapeString(f) + `">`)
		}
		links[page.pattern] = sb.String()
	}
	return links
}

// staticClosure marks key and everything it imports statically in seen and
// returns the keys it marked (those seen before are skipped, as are keys not
// in the manifest).
func staticClosure(m map[string]buildChunk, key string, seen map[string]bool) []string {
	c, ok := m[key]
	if !ok || seen[key] {
		return nil
	}
	seen[key] = true
	out := []string{key}
	for _, imp := range c.Imports {
		out = append(out, staticClosure(m, imp, seen)...)
	}
	return out
}
