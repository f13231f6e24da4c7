package chatdoc

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRecord(t *testing.T) {
	t.Parallel()
	var past []PastDocument
	past = Record(past, 1, "v1")
	past = Record(past, 3, "v2")
	require.Equal(t, []PastDocument{{1, "v1"}, {3, "v2"}}, past)

	retried := Record(past, 3, "v2 retried")
	require.Equal(t, []PastDocument{{1, "v1"}, {3, "v2 retried"}}, retried, "a retried answer replaces its entry")
	require.Equal(t, []PastDocument{{1, "v1"}, {3, "v2"}}, past, "the input is not modified")

	require.Equal(t, []PastDocument{{1, "v1"}}, Record(past, 3, "  \n"),
		"a retried answer without a document removes its entry")
	require.Equal(t, past, Record(past, 5, ""), "no document, nothing recorded")
	require.Equal(t, past, Record(past, -1, "doc"), "a negative index changes nothing")
	require.Equal(t, []PastDocument{{1, "v1"}, {2, "mid"}, {3, "v2"}}, Record(past, 2, "mid"), "kept in message order")
}

func TestRecordDropsDuplicatesAndAliasing(t *testing.T) {
	t.Parallel()
	past := make([]PastDocument, 0, 10)
	past = append(past, PastDocument{4, "a"}, PastDocument{2, "b"}, PastDocument{4, "c"})
	got := Record(past, 7, "d")
	require.Equal(t, []PastDocument{{2, "b"}, {4, "a"}, {7, "d"}}, got)
	got[0].Document = "changed"
	require.Equal(t, "b", past[1].Document, "the result does not share memory with the input")
}

func TestPastDocumentJSON(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(Record(nil, 2, "# Plan"))
	require.NoError(t, err)
	require.JSONEq(t, `[{"messageIndex":2,"document":"# Plan"}]`, string(b))
}
