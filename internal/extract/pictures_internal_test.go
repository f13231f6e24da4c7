package extract

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFillMarks_PicturesOnTheirOwnLinesOrInsideATableRow(t *testing.T) {
	t.Parallel()
	texts := []string{"x = 4\n\ny = 2", ""}
	s := "Working:\n" + pictureMark(0) + "\nCell | " + pictureMark(0) + " " + pictureMark(1) + "\n" + pictureMark(1) + "\nEnd"
	require.Equal(t, "Working:\n\nx = 4\n\ny = 2\n\nCell | x = 4 y = 2 \n\nEnd", fillMarks(s, texts),
		"a paragraph of its own keeps its lines; a table row stays one line; an unread picture leaves nothing")
	require.Equal(t, "a\n\nb", fillMarks("a\n"+pictureMark(7)+"\nb", nil))
}
