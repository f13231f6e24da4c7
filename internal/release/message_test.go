package release_test

import (
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/release"
)

// Names are data: a line break in a student's, a teacher's or an
// assignment's name never becomes a header, and non-ASCII names are encoded.
func TestALetterKeepsNamesOutOfItsHeaders(t *testing.T) {
	t.Parallel()
	msg, err := release.Letter{
		StudentName: "Eve\r\nBcc: spy@evil.test", StudentEmail: "eve@pupils.test",
		AssignmentName: "Essay\nX-Injected: 1", TeacherName: "Zoë Łukasz\r\nCc: spy@evil.test", TeacherEmail: "zoe@school.test",
		Link: "https://markwell.test/results/tok",
	}.Message(mail.Address{Name: "Markwell", Address: "no-reply@school.test"}, time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	parsed, err := mail.ReadMessage(strings.NewReader(string(msg)))
	require.NoError(t, err)
	for _, h := range []string{"Bcc", "Cc", "X-Injected"} {
		require.Empty(t, parsed.Header.Get(h), h)
	}
	from, err := parsed.Header.AddressList("From")
	require.NoError(t, err)
	require.Equal(t, []*mail.Address{{Name: "Zoë Łukasz  Cc: spy@evil.test", Address: "no-reply@school.test"}}, from)
	replyTo, err := parsed.Header.AddressList("Reply-To")
	require.NoError(t, err)
	require.Equal(t, "zoe@school.test", replyTo[0].Address)
	to, err := parsed.Header.AddressList("To")
	require.NoError(t, err)
	require.Equal(t, "eve@pupils.test", to[0].Address)
	require.Contains(t, parsed.Header.Get("Content-Type"), "multipart/alternative")
}
