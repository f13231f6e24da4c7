package httpapi

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/require"
)

// A page opened at a known route names its route's chunks for the browser to
// fetch alongside the entry: the layout's and the page's with what they
// import, once each, but not what index.html loads already. Other paths and
// a build without a manifest get the page unchanged.
func TestAppPageNamesItsRouteChunksForPreload(t *testing.T) {
	gin.SetMode(gin.TestMode)
	dir := t.TempDir()
	page := `<html><head><title>Markwell</title></head><body></body></html>`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte(page), 0o644))
	r := gin.New()
	r.NoRoute(spa(dir, cspPolicy{}, nil))
	get := func(p string) string {
		w := httptest.NewRecorder()
		r.ServeHTTP(w, httptest.NewRequest(http.MethodGet, p, nil))
		require.Equal(t, 200, w.Code, p)
		return w.Body.String()
	}
	require.Equal(t, page, get("/library"), "no manifest: the page as built")

	manifest := `{
	  "index.html": {"file": "assets/index-1.js", "isEntry": true, "imports": ["_react-1.js"]},
	  "_react-1.js": {"file": "assets/react-1.js"},
	  "_Menu-1.js": {"file": "assets/Menu-1.js", "imports": ["_react-1.js"]},
	  "src/app/routes/AppLayout.tsx": {"file": "assets/AppLayout-1.js", "imports": ["index.html", "_Menu-1.js"]},
	  "src/features/library/components/LibraryPage.tsx": {"file": "assets/LibraryPage-1.js", "imports": ["_Menu-1.js", "_react-1.js"]},
	  "src/features/rubrics/components/RubricEditorPage.tsx": {"file": "assets/RubricEditorPage-1.js", "imports": ["_rich.css"]},
	  "_rich.css": {"file": "assets/rich-1.css"}
	}`
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".vite"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".vite", "manifest.json"), []byte(manifest), 0o644))

	link := func(f string) string { return `<link rel="modulepreload" crossorigin href="/assets/` + f + `">` }
	lib := get("/library")
	require.Equal(t, strings.Replace(page, "</head>", link("AppLayout-1.js")+link("LibraryPage-1.js")+link("Menu-1.js")+"</head>", 1), lib)
	require.Contains(t, get("/rubrics/42"), link("RubricEditorPage-1.js"))
	require.NotContains(t, get("/rubrics/42"), "rich-1.css", "only scripts are module-preloaded")
	for _, p := range []string{"/", "/no/such/page", "/library/extra", "/rubrics/1/2"} {
		require.Equal(t, page, get(p), p)
	}
}

// Every module the route table names is a file of the frontend: a page
// renamed or moved without this table would silently lose its preload.
func TestPreloadTableNamesModulesThatExist(t *testing.T) {
	for _, page := range pageModules {
		for _, m := range page.modules {
			_, err := os.Stat(filepath.Join("..", "..", "frontend", m))
			require.NoError(t, err, "route %s names %s", page.pattern, m)
		}
	}
}
