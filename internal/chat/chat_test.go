package chat_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/chat"
	"github.com/markwell/markwell/internal/chatdoc"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

func setup(t *testing.T) *chat.Service {
	t.Helper()
	blobs, _, err := blob.New(context.Background(), blob.Config{
		Dir: t.TempDir(), PublicURL: "https://markwell.test", Secret: bytes.Repeat([]byte("k"), 32), MaxUploadBytes: 1 << 20,
	})
	require.NoError(t, err)
	return &chat.Service{Pool: testdb.Pool(t), Blob: blobs}
}

func teacher(t *testing.T, svc *chat.Service, teamID uuid.UUID) identity.Actor {
	t.Helper()
	ctx := context.Background()
	if teamID == uuid.Nil {
		tm, err := store.Q.CreateTeam(ctx, svc.Pool, "Team")
		require.NoError(t, err)
		teamID = tm.ID
	}
	email := "t-" + uuid.NewString()[:8] + "@school.test"
	u, err := store.Q.CreateUser(ctx, svc.Pool, store.CreateUserParams{Email: email, Name: "T", TeamID: uuid.NullUUID{UUID: teamID, Valid: true}})
	require.NoError(t, err)
	return identity.Actor{UserID: u.ID, TeamID: teamID, Email: email}
}

func msgs(pairs ...string) []chat.Message {
	var out []chat.Message
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, chat.Message{Role: pairs[i], Content: pairs[i+1]})
	}
	return out
}

func TestTitle(t *testing.T) {
	t.Parallel()
	require.Equal(t, "Untitled chat", chat.Title(nil))
	require.Equal(t, "Plan a lesson on fractions", chat.Title(msgs("system", "files", "assistant", "Hi!", "user", "  Plan a\n lesson   on fractions ")))
	long := chat.Title(msgs("user", strings.Repeat("word ", 100)))
	require.Equal(t, chat.TitleLength, len([]rune(long)))
	require.True(t, strings.HasSuffix(long, "…"))
}

func TestSaveValidation(t *testing.T) {
	t.Parallel()
	svc := setup(t)
	a := teacher(t, svc, uuid.Nil)
	tooMany := make([]chat.Message, chat.MaxMessages+1)
	for i := range tooMany {
		tooMany[i] = chat.Message{Role: "user", Content: "x"}
	}
	for _, tc := range []struct {
		st  chat.State
		msg string
	}{
		{chat.State{Messages: msgs("tool", "x")}, chat.MsgRole},
		{chat.State{Messages: msgs("", "x")}, chat.MsgRole},
		{chat.State{Messages: tooMany}, chat.MsgTooManyMessages},
		{chat.State{Messages: msgs("user", strings.Repeat("x", chat.MaxMessageLength+1))}, chat.MsgMessageTooLong},
		{chat.State{Document: strings.Repeat("x", chat.MaxDocumentLength+1)}, chat.MsgDocumentTooLong},
		{chat.State{Messages: msgs("user", "a"), PastDocuments: []chatdoc.PastDocument{{MessageIndex: 1, Document: "d"}}}, chat.MsgPastDocumentLink},
		{chat.State{Messages: msgs("user", "a"), PastDocuments: []chatdoc.PastDocument{{MessageIndex: -1, Document: "d"}}}, chat.MsgPastDocumentLink},
	} {
		_, err := svc.Save(context.Background(), a, uuid.Nil, uuid.Nil, "", tc.st)
		require.Error(t, err, tc.msg)
		require.Equal(t, apperr.Invalid, apperr.From(err).Code)
		require.Equal(t, tc.msg, apperr.From(err).Message)
	}
	list, err := svc.List(context.Background(), a)
	require.NoError(t, err)
	require.Empty(t, list)
}

func TestRoundTripNewestFirstAndOwnChatsOnly(t *testing.T) {
	t.Parallel()
	svc := setup(t)
	ctx := context.Background()
	a := teacher(t, svc, uuid.Nil)
	mate := teacher(t, svc, a.TeamID)

	first, err := svc.Save(ctx, a, uuid.Nil, uuid.Nil, "", chat.State{Messages: msgs("user", "First chat")})
	require.NoError(t, err)
	second, err := svc.Save(ctx, a, uuid.Nil, uuid.Nil, "", chat.State{
		Messages: msgs("user", "Write a letter", "assistant", "Here it is"), Document: "# Letter v2",
		PastDocuments: []chatdoc.PastDocument{{MessageIndex: 1, Document: "# Letter v1"}, {MessageIndex: 1, Document: "# Letter v2"}},
	})
	require.NoError(t, err)
	list, err := svc.List(ctx, a)
	require.NoError(t, err)
	require.Len(t, list, 2)
	require.Equal(t, []uuid.UUID{second, first}, []uuid.UUID{list[0].ID, list[1].ID})
	require.Equal(t, "Write a letter", list[0].Title)
	require.Equal(t, "# Letter v2", list[0].Document)
	require.Equal(t, []chatdoc.PastDocument{{MessageIndex: 1, Document: "# Letter v2"}}, list[0].PastDocuments, "one version per message")

	// Updating the first brings it to the top.
	again, err := svc.Save(ctx, a, first, uuid.Nil, "", chat.State{Messages: msgs("user", "First chat", "assistant", "Sure")})
	require.NoError(t, err)
	require.Equal(t, first, again)
	list, err = svc.List(ctx, a)
	require.NoError(t, err)
	require.Equal(t, first, list[0].ID)
	require.Len(t, list[0].Messages, 2)

	// A teammate neither lists, updates nor deletes it.
	list, err = svc.List(ctx, mate)
	require.NoError(t, err)
	require.Empty(t, list)
	_, err = svc.Save(ctx, mate, first, uuid.Nil, "", chat.State{})
	require.ErrorIs(t, err, apperr.ErrNotFound)
	require.ErrorIs(t, svc.Delete(ctx, mate, first), apperr.ErrNotFound)
	// Nor names another team's assistant.
	_, err = svc.Save(ctx, a, uuid.Nil, uuid.New(), "", chat.State{})
	require.ErrorIs(t, err, apperr.ErrNotFound)

	require.NoError(t, svc.Delete(ctx, a, first))
	list, err = svc.List(ctx, a)
	require.NoError(t, err)
	require.Len(t, list, 1)
}

// An answer the teacher stopped, before any text or part-way, is saved
// marked so, and a reopened chat lists it marked: the question it leaves
// unanswered is not mistaken for an answer. Only an answer is stopped.
func TestStoppedAnswersAreKeptMarked(t *testing.T) {
	t.Parallel()
	svc := setup(t)
	ctx := context.Background()
	a := teacher(t, svc, uuid.Nil)
	id, err := svc.Save(ctx, a, uuid.Nil, uuid.Nil, "", chat.State{Messages: []chat.Message{
		{Role: "user", Content: "Write a letter", Stopped: true},
		{Role: "assistant", Content: "Dear parents,", Stopped: true},
		{Role: "user", Content: "Plan a lesson on fractions"},
		{Role: "assistant", Content: "", Stopped: true},
	}})
	require.NoError(t, err)
	list, err := svc.List(ctx, a)
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, id, list[0].ID)
	require.Equal(t, []chat.Message{
		{Role: "user", Content: "Write a letter"},
		{Role: "assistant", Content: "Dear parents,", Stopped: true},
		{Role: "user", Content: "Plan a lesson on fractions"},
		{Role: "assistant", Content: "", Stopped: true},
	}, list[0].Messages)
}

// onePixelPNG is a 1×1 PNG.
const onePixelPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

func TestExport(t *testing.T) {
	t.Parallel()
	svc := setup(t)
	ctx := context.Background()
	a := teacher(t, svc, uuid.Nil)
	other := teacher(t, svc, uuid.Nil)

	// A stored image of the team, and one of another team.
	own := "chats/" + a.TeamID.String() + "/0123456789abcdef-dot.png"
	theirs := "chats/" + other.TeamID.String() + "/0123456789abcdef-dot.png"
	png := mustDecode(t, onePixelPNG)
	for key, tm := range map[string]uuid.UUID{own: a.TeamID, theirs: other.TeamID} {
		require.NoError(t, store.Q.FilesRecordUpload(ctx, svc.Pool, store.FilesRecordUploadParams{Key: key, TeamID: tm}))
		require.NoError(t, svc.Blob.Put(ctx, key, bytes.NewReader(png), int64(len(png)), "image/png"))
	}

	doc, err := svc.Export(ctx, a, "# Parent letter\n\nDear parents,\n\n![dot](data:image/png;base64,"+onePixelPNG+")\n\n![mine]("+svc.Blob.FileURL(own)+")\n")
	require.NoError(t, err)
	body := documentXML(t, doc)
	text := regexp.MustCompile(`<[^>]+>`).ReplaceAllString(body, "")
	require.Contains(t, text, "Parent letter")
	require.Contains(t, text, "Dear parents,")
	require.Equal(t, 2, strings.Count(body, "<w:drawing>")+strings.Count(body, "<w:drawing "), "both images embedded")

	for _, src := range []string{"https://evil.example/x.png", svc.Blob.FileURL(theirs), theirs, "chats/" + a.TeamID.String() + "/ffffffffffffffff-none.png"} {
		_, err := svc.Export(ctx, a, "![x]("+src+")")
		require.Error(t, err, src)
		e := apperr.From(err)
		require.Equal(t, apperr.Invalid, e.Code)
		require.Equal(t, "Fetch image was failed: "+src, e.Message)
	}
	_, err = svc.Export(ctx, a, strings.Repeat("x", chat.MaxDocumentLength+1))
	require.Equal(t, chat.MsgExportTooLong, apperr.From(err).Message)
}

func documentXML(t *testing.T, doc []byte) string {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(doc), int64(len(doc)))
	require.NoError(t, err)
	f, err := z.Open("word/document.xml")
	require.NoError(t, err)
	defer f.Close()
	b, err := io.ReadAll(f)
	require.NoError(t, err)
	return string(b)
}

func mustDecode(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	require.NoError(t, err)
	return b
}
