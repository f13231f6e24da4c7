package blob

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSanitizeFileName(t *testing.T) {
	t.Parallel()

	long := strings.Repeat("a", 300)
	tests := []struct {
		name, in, want string
	}{
		{"keeps allowed", "Essay_v2-final.~1.PDF", "Essay_v2-final.~1.PDF"},
		{"drops spaces", "essay one.pdf", "essayone.pdf"},
		{"drops slashes", "../../etc/passwd", "....etcpasswd"},
		{"drops backslash and colon", `C:\Users\x.docx`, "CUsersx.docx"},
		{"drops non-ascii letters", "résumé.pdf", "rsum.pdf"},
		{"drops control and quotes", "a\"b'\n\x00c.txt", "abc.txt"},
		{"drops percent", "a%2Fb.txt", "a2Fb.txt"},
		{"empty", "", "file"},
		{"nothing left", "日本語 ", "file"},
		{"dot", ".", "file"},
		{"dot dot", "..", "file"},
		{"dot dot with junk", "/..//", "file"},
		{"three dots kept", "...", "..."},
		{"long keeps extension", long + ".pdf", strings.Repeat("a", 124) + ".pdf"},
		{"long without extension", long, strings.Repeat("a", 128)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, SanitizeFileName(tt.in))
		})
	}
}

func TestSplitFolder(t *testing.T) {
	t.Parallel()

	tests := []struct {
		in, folder, base string
	}{
		{"essay.pdf", "", "essay.pdf"},
		{"chats/notes.txt", "chats/", "notes.txt"},
		{"assignments/0b6f4c2e-5d7a-4c4b-9a34-2f0e1d9c8b7a/submissions/essay one.pdf",
			"assignments/0b6f4c2e-5d7a-4c4b-9a34-2f0e1d9c8b7a/submissions/", "essay one.pdf"},
		{"chats/", "chats/", ""},
		{"/x", "/", "x"},
		{"", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			folder, base := SplitFolder(tt.in)
			require.Equal(t, tt.folder, folder)
			require.Equal(t, tt.base, base)
		})
	}
}

func TestNewKey(t *testing.T) {
	t.Parallel()

	const id = "0b6f4c2e-5d7a-4c4b-9a34-2f0e1d9c8b7a"
	tests := []struct {
		name, folder, file string
		wantErr            bool
	}{
		{"root", "", "essay one.pdf", false},
		{"one segment", "chats/", "notes.txt", false},
		{"team chats", "chats/" + id + "/", "notes.txt", false},
		{"team public", "public/" + id + "/", "logo.png", false},
		{"submissions", "assignments/" + id + "/submissions/", "essay.pdf", false},
		{"folder without slash", "chats", "a.pdf", true},
		{"leading slash", "/chats/", "a.pdf", true},
		{"doubled slash", "chats//", "a.pdf", true},
		{"traversal", "chats/../", "a.pdf", true},
		{"dot segment", "chats/./", "a.pdf", true},
		{"dot dot only", "../", "a.pdf", true},
		{"space", "my chats/", "a.pdf", true},
		{"non-ascii", "é/", "a.pdf", true},
		{"percent", "a%2F/", "a.pdf", true},
		{"backslash", `a\b/`, "a.pdf", true},
		{"too long", strings.Repeat("a", maxKeyLen) + "/", "a.pdf", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			key, err := NewKey(tt.folder, tt.file)
			if tt.wantErr {
				require.ErrorIs(t, err, ErrInvalidFolder)
				return
			}
			require.NoError(t, err)
			want := regexp.MustCompile("^" + regexp.QuoteMeta(tt.folder) + "[0-9a-f]{16}-" +
				regexp.QuoteMeta(SanitizeFileName(tt.file)) + "$")
			require.Regexp(t, want, key)
			require.NoError(t, checkKey(key))
		})
	}

	t.Run("unguessable", func(t *testing.T) {
		t.Parallel()
		a, err := NewKey("chats/", "a.pdf")
		require.NoError(t, err)
		b, err := NewKey("chats/", "a.pdf")
		require.NoError(t, err)
		require.NotEqual(t, a, b)
	})
}

func TestCheckKey(t *testing.T) {
	t.Parallel()

	for _, key := range []string{"a", "chats/0123456789abcdef-a.pdf", "a/b/c", "...", "a~b_c-d.e"} {
		require.NoError(t, checkKey(key), key)
	}
	for _, key := range []string{
		"", "/a", "a/", "a//b", ".", "..", "a/../b", "./a", "a/.", "a b", "a%2Fb", "a\\b",
		"a?b", "a#b", "é", strings.Repeat("a", maxKeyLen+1),
	} {
		require.ErrorIs(t, checkKey(key), ErrInvalidKey, key)
	}
}
