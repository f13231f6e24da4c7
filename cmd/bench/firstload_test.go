package main

import (
	"bytes"
	"compress/gzip"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeDist writes a small build: a manifest and a file per chunk, each of
// `size` random (incompressible) bytes, so the gzipped sizes are known to
// within gzip's framing.
func writeDist(t *testing.T, manifest string, sizes map[string]int) string {
	t.Helper()
	dist := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dist, ".vite"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dist, ".vite", "manifest.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	for file, n := range sizes {
		b := make([]byte, n)
		rng.Read(b)
		p := filepath.Join(dist, filepath.FromSlash(file))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dist
}

// The fixture: the entry imports react and a shared chunk; the library page
// imports the shared chunk and a table chunk, and loads an editor lazily;
// the sign-in page imports only react. CSS never counts.
const fixtureManifest = `{
  "index.html": {"file": "assets/index.js", "isEntry": true, "imports": ["_react.js", "_shared.js"],
                 "dynamicImports": ["src/Library.tsx", "src/SignIn.tsx"], "css": ["assets/index.css"]},
  "_react.js": {"file": "assets/react.js"},
  "_shared.js": {"file": "assets/shared.js", "imports": ["_react.js"]},
  "_table.js": {"file": "assets/table.js", "imports": ["_shared.js"]},
  "_style.css": {"file": "assets/style.css"},
  "src/Library.tsx": {"file": "assets/Library.js", "isDynamicEntry": true, "imports": ["_table.js", "_shared.js", "_style.css"],
                      "dynamicImports": ["src/Editor.tsx"]},
  "src/Editor.tsx": {"file": "assets/Editor.js", "isDynamicEntry": true, "imports": ["_react.js"]},
  "src/SignIn.tsx": {"file": "assets/SignIn.js", "isDynamicEntry": true, "imports": ["_react.js"]}
}`

var fixtureSizes = map[string]int{
	"assets/index.js": 10_000, "assets/react.js": 100_000, "assets/shared.js": 20_000, "assets/table.js": 30_000,
	"assets/Library.js": 5_000, "assets/Editor.js": 200_000, "assets/SignIn.js": 3_000, "assets/style.css": 50_000,
}

func TestFirstLoadAddsTheEntryAndTheRoutesChunksOnce(t *testing.T) {
	dist := writeDist(t, fixtureManifest, fixtureSizes)
	m, err := readManifest(dist)
	if err != nil {
		t.Fatal(err)
	}
	files, err := m.initialFiles([]string{"src/Library.tsx"})
	if err != nil {
		t.Fatal(err)
	}
	want := "assets/Library.js assets/index.js assets/react.js assets/shared.js assets/table.js"
	if got := strings.Join(files, " "); got != want {
		t.Errorf("library's first load: %s, want %s (each chunk once; no CSS, no lazy editor)", got, want)
	}

	loads, err := measureFirstLoad(dist, []firstLoadRoute{
		{Name: "library", Path: "/library", Lazy: []string{"src/Library.tsx"}},
		{Name: "signin", Path: "/signin", Lazy: []string{"src/SignIn.tsx"}},
		{Name: "not_found", Path: "/x"},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Random bytes do not compress: gzip adds a little framing to each file.
	near := func(name string, got, want float64) {
		t.Helper()
		if got < want || got > want+0.2*float64(len(loads[0].Files)) {
			t.Errorf("%s: %.2f kB gzipped, want %.0f kB plus gzip's framing", name, got, want)
		}
	}
	near("library", loads[0].GzipKB, 165) // 10 + 100 + 20 + 30 + 5
	near("signin", loads[1].GzipKB, 133)  // 10 + 100 + 20 (the entry's) + 3
	near("entry alone", loads[2].GzipKB, 130)
}

func TestFirstLoadNamesAModuleTheBuildNoLongerHas(t *testing.T) {
	dist := writeDist(t, fixtureManifest, fixtureSizes)
	_, err := measureFirstLoad(dist, []firstLoadRoute{{Name: "chat", Path: "/chat", Lazy: []string{"src/Chat.tsx"}}})
	if err == nil || !strings.Contains(err.Error(), "src/Chat.tsx is not in the build's manifest") {
		t.Fatalf("a renamed page must fail the phase by name, got %v", err)
	}
}

func TestGzipSizeIsWhatGzipWrites(t *testing.T) {
	text := bytes.Repeat([]byte("const a = 1;\n"), 1000)
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	_, _ = w.Write(text)
	_ = w.Close()
	if got := gzipSize(text); got != buf.Len() || got > len(text)/10 {
		t.Errorf("gzipSize = %d, want %d (and far below %d)", got, buf.Len(), len(text))
	}
}
