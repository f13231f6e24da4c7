package blob

import (
	"net/url"
	"path"
	"strings"
	"testing"
	"unicode/utf8"
)

// Fuzz targets for the file name sanitiser and for the parsing of file URLs
// back to keys, the two places a client's text becomes a storage path.
// `go test` runs their seeds (testdata/fuzz/<name>/ and the f.Add calls);
// scripts/fuzz.sh explores each for a few seconds.

// FuzzSanitizeFileName checks that whatever a client names its file, the
// sanitised name is short, made of the allowed characters only, never a
// path step ("", ".", ".."), stable when sanitised again, and makes a key
// that stays in the folder it was asked for.
func FuzzSanitizeFileName(f *testing.F) {
	for _, s := range []string{
		"essay.pdf", "", ".", "..", "../../etc/passwd", `..\..\win.ini`, "a%2Fb.txt", "abc\u202egpj.exe",
		"résumé final.pdf", "日本語", "a\x00b", strings.Repeat("a", 300) + ".pdf", strings.Repeat("é", 200),
		"/..//", "CON", "\xff\xfe.txt",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		s := SanitizeFileName(name)
		if s == "" || s == "." || s == ".." {
			t.Fatalf("SanitizeFileName(%q) = %q, a path step", name, s)
		}
		if len(s) > maxNameLen {
			t.Fatalf("SanitizeFileName(%q) is %d bytes, limit %d", name, len(s), maxNameLen)
		}
		for _, r := range s {
			if !isNameChar(r) {
				t.Fatalf("SanitizeFileName(%q) = %q keeps %q", name, s, r)
			}
		}
		if again := SanitizeFileName(s); again != s {
			t.Fatalf("not stable: %q gives %q, then %q", name, s, again)
		}
		if !utf8.ValidString(s) {
			t.Fatalf("SanitizeFileName(%q) = %q is not UTF-8", name, s)
		}
		const folder = "chats/0b6f4c2e-5d7a-4c4b-9a34-2f0e1d9c8b7a/"
		key, err := NewKey(folder, name)
		if err != nil {
			t.Fatalf("NewKey(%q, %q): %v", folder, name, err)
		}
		if path.Dir(key)+"/" != folder || path.Clean(key) != key {
			t.Fatalf("NewKey(%q, %q) = %q leaves its folder", folder, name, key)
		}
	})
}

// FuzzKeyFromURL checks that a URL accepted as one of this store's file
// URLs gives a key with no path steps or escapes, under the store's path,
// and that the key's URL reads back as the same key.
func FuzzKeyFromURL(f *testing.F) {
	for _, s := range []string{
		"http://127.0.0.1:8080/files/chats/0b6f4c2e-5d7a-4c4b-9a34-2f0e1d9c8b7a/0123456789abcdef-a.pdf",
		"http://127.0.0.1:8080/files/../secret", "http://127.0.0.1:8080/files/a/%2e%2e/b",
		"http://user@127.0.0.1:8080/files/a", "http://127.0.0.1:8080@evil.test/files/a",
		"HTTP://127.0.0.1:8080/files/a", "http://127.0.0.1:8080/files//a", "http://127.0.0.1:8080/files/a#x",
		"http://169.254.169.254/latest/meta-data/", "file:///etc/passwd", "/files/a", "",
	} {
		f.Add(s)
	}
	base, err := url.Parse("http://127.0.0.1:8080/files/")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		key, err := keyFromURL(raw, base)
		if err != nil {
			return
		}
		if checkKey(key) != nil || path.Clean("/"+key) != "/"+key || strings.ContainsAny(key, "%\\?#") {
			t.Fatalf("keyFromURL(%q) = %q, not a clean key", raw, key)
		}
		back, err := keyFromURL(base.String()+key, base)
		if err != nil || back != key {
			t.Fatalf("the URL of key %q (from %q) reads back as %q, %v", key, raw, back, err)
		}
	})
}
