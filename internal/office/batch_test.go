package office_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/office"
	"github.com/markwell/markwell/internal/office/officetest"
)

// TestConvertMany_OneRunManyFiles converts three documents in one
// LibreOffice run; a damaged one among them fails alone.
func TestConvertMany_OneRunManyFiles(t *testing.T) {
	t.Parallel()
	officetest.NeedSoffice(t)
	files := []office.BatchFile{
		{Data: odt(t, `<text:p>First</text:p>`), Ext: "odt"},
		{Data: []byte("PK\x03\x04 not really a zip"), Ext: "odt"},
		{Data: odt(t, `<text:p>Third</text:p>`), Ext: "odt"},
	}
	out, errs, err := office.LibreOffice{TempDir: t.TempDir()}.ConvertMany(context.Background(), files, office.ToPDF, 0)
	require.NoError(t, err)
	require.Len(t, out, 3)
	require.True(t, bytes.HasPrefix(out[0], []byte("%PDF")))
	require.True(t, bytes.HasPrefix(out[2], []byte("%PDF")))
	require.Nil(t, out[1])
	require.ErrorIs(t, errs[1], office.ErrNotConverted)
	require.NoError(t, errs[0])
	require.NoError(t, errs[2])
}

// TestConvertMany_TimeoutGrowsPerFile gives a batch its timeout plus the
// per-file allowance, and kills it after that.
func TestConvertMany_TimeoutGrowsPerFile(t *testing.T) {
	t.Parallel()
	tool := officetest.FakeSoffice(t, `sleep 300`)
	files := []office.BatchFile{{Data: []byte("a"), Ext: "odt"}, {Data: []byte("b"), Ext: "odt"}}
	start := time.Now()
	_, _, err := office.LibreOffice{Path: tool, TempDir: t.TempDir(), Timeout: 200 * time.Millisecond}.
		ConvertMany(context.Background(), files, office.ToPDF, 300*time.Millisecond)
	require.ErrorIs(t, err, office.ErrTimeout)
	require.GreaterOrEqual(t, time.Since(start), 500*time.Millisecond, "200 ms + 300 ms for the second file")
}

// TestConvertMany_Refuses refuses a bad extension and a batch too large.
func TestConvertMany_Refuses(t *testing.T) {
	t.Parallel()
	tool := officetest.FakeSoffice(t, `exit 0`)
	l := office.LibreOffice{Path: tool, TempDir: t.TempDir()}
	_, _, err := l.ConvertMany(context.Background(), []office.BatchFile{{Data: []byte("x"), Ext: "../x"}}, office.ToPDF, 0)
	require.Error(t, err)
	many := make([]office.BatchFile, office.MaxBatchFiles+1)
	for i := range many {
		many[i] = office.BatchFile{Data: []byte("x"), Ext: "odt"}
	}
	_, _, err = l.ConvertMany(context.Background(), many, office.ToPDF, 0)
	require.Error(t, err)
	require.False(t, errors.Is(err, office.ErrTimeout))
}
