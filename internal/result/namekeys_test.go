package result_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/result"
)

func TestNameKeysSortNumbersAsNumbersFromZero(t *testing.T) {
	key := result.NameKeys()
	names := []string{"essay-10.txt", "Essay-2.txt", "essay-0.txt", "essay-1.txt", "Zoë.txt", "zoe 007.txt", "zoe 7b.txt", "ana.txt"}
	slices.SortStableFunc(names, func(a, b string) int { return bytes.Compare(key(a), key(b)) })
	require.Equal(t, []string{"ana.txt", "essay-0.txt", "essay-1.txt", "Essay-2.txt", "essay-10.txt", "zoe 007.txt", "zoe 7b.txt", "Zoë.txt"}, names)
}
