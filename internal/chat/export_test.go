package chat_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/bounded"
	"github.com/markwell/markwell/internal/chat"
	"github.com/markwell/markwell/internal/identity"
)

// TestExportRefusesPastALimitWithItsSentence: a document past one of the
// export's limits is 400 with that limit's sentence, not a failure.
func TestExportRefusesPastALimitWithItsSentence(t *testing.T) {
	t.Parallel()
	s := setup(t)
	a := identity.Actor{UserID: uuid.New(), TeamID: uuid.New()}
	_, err := s.Export(context.Background(), a, strings.Repeat(">", 499_000))
	ae := apperr.From(err)
	require.Equal(t, apperr.Invalid, ae.Code)
	require.Equal(t, "The document nests quotes or lists more than 20 deep.", ae.Message)

	doc, err := s.Export(context.Background(), a, "# Notes\n\n> quoted\n")
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(doc), "PK"))
}

// TestExportPastItsDeadlineIsRefused: an export that outlives the gate's
// deadline is 400 with MsgExportSlow (ExportTimeout is 5 s; this gate's is
// 1 ms, shorter than any real conversion).
func TestExportPastItsDeadlineIsRefused(t *testing.T) {
	t.Parallel()
	s := setup(t)
	s.Exports = bounded.New(bounded.Config{Slots: 1, Wait: time.Second, Timeout: time.Millisecond,
		Busy: chat.MsgExportBusy, Slow: chat.MsgExportSlow})
	md, err := os.ReadFile("../docx/testdata/20-pages.md")
	require.NoError(t, err)
	_, err = s.Export(context.Background(), identity.Actor{UserID: uuid.New(), TeamID: uuid.New()}, string(md))
	ae := apperr.From(err)
	require.Equal(t, apperr.Invalid, ae.Code)
	require.Equal(t, chat.MsgExportSlow, ae.Message)
	require.Eventually(t, func() bool { return s.Exports.Running() == 0 }, 2*time.Second, 5*time.Millisecond,
		"the conversion stops at its deadline")
}
