package assistant_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assistant"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

type bundle struct {
	svc *assistant.Service
}

func setup(t *testing.T) *bundle {
	t.Helper()
	blobs, _, err := blob.New(context.Background(), blob.Config{
		Dir: t.TempDir(), PublicURL: "https://markwell.test", Secret: bytes.Repeat([]byte("k"), 32), MaxUploadBytes: 1 << 20,
	})
	require.NoError(t, err)
	return &bundle{svc: &assistant.Service{Pool: testdb.Pool(t), Blob: blobs}}
}

// owner creates a teacher who owns a new team.
func (b *bundle) owner(t *testing.T) identity.Actor {
	t.Helper()
	tm, err := store.Q.CreateTeam(context.Background(), b.svc.Pool, "Team")
	require.NoError(t, err)
	a := b.member(t, tm.ID)
	require.NoError(t, store.Q.SetTeamOwner(context.Background(), b.svc.Pool, store.SetTeamOwnerParams{ID: tm.ID, OwnerID: uuid.NullUUID{UUID: a.UserID, Valid: true}}))
	return a
}

// member creates a teacher in team.
func (b *bundle) member(t *testing.T, teamID uuid.UUID) identity.Actor {
	t.Helper()
	email := "t-" + uuid.NewString()[:8] + "@school.test"
	u, err := store.Q.CreateUser(context.Background(), b.svc.Pool, store.CreateUserParams{Email: email, Name: "T", TeamID: uuid.NullUUID{UUID: teamID, Valid: true}})
	require.NoError(t, err)
	return identity.Actor{UserID: u.ID, TeamID: teamID, Name: "T", Email: email}
}

// publicKey records an upload key in team's public/ folder, as the upload
// route does.
func (b *bundle) publicKey(t *testing.T, teamID uuid.UUID) string {
	t.Helper()
	key := "public/" + teamID.String() + "/0123456789abcdef-owl.png"
	require.NoError(t, store.Q.FilesRecordUpload(context.Background(), b.svc.Pool, store.FilesRecordUploadParams{Key: key, TeamID: teamID}))
	return key
}

func valid() assistant.Input {
	return assistant.Input{Title: " Lesson planner ", Description: "Plans lessons", SystemPrompt: "You plan lessons."}
}

func requireCode(t *testing.T, err error, code apperr.Code, msg string) {
	t.Helper()
	require.Error(t, err)
	e := apperr.From(err)
	require.Equal(t, code, e.Code, err.Error())
	if msg != "" {
		require.Equal(t, msg, e.Message)
	}
}

func TestValidation(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.owner(t)
	file := assistant.File{FileName: "a.pdf", FileText: "text", FileType: "application/pdf"}
	cases := []struct {
		name string
		edit func(*assistant.Input)
		msg  string
	}{
		{"no title", func(in *assistant.Input) { in.Title = "  " }, "Please fill in all required fields"},
		{"no description", func(in *assistant.Input) { in.Description = "" }, "Please fill in all required fields"},
		{"no system prompt", func(in *assistant.Input) { in.SystemPrompt = "\n" }, "Please fill in all required fields"},
		{"title too long", func(in *assistant.Input) { in.Title = strings.Repeat("x", 201) }, "Title can be at most 200 characters"},
		{"four files", func(in *assistant.Input) { in.FileData = []assistant.File{file, file, file, file} }, "An assistant can hold at most 3 files"},
		{"file without name", func(in *assistant.Input) { in.FileData = []assistant.File{{FileText: "x"}} }, "Each attached file needs a name"},
		{"file text too long", func(in *assistant.Input) {
			in.FileData = []assistant.File{{FileName: "a.pdf", FileText: strings.Repeat("x", 200_001)}}
		}, "The text of a.pdf can be at most 200,000 characters"},
		{"outside image", func(in *assistant.Input) { in.ImageURL = "https://evil.example/owl.png" }, assistant.MsgImage},
		{"javascript image", func(in *assistant.Input) { in.ImageURL = "javascript:alert(1)" }, assistant.MsgImage},
		{"data image", func(in *assistant.Input) { in.ImageURL = "data:image/png;base64,AAAA" }, assistant.MsgImage},
		{"chat file as image", func(in *assistant.Input) { in.ImageURL = "chats/" + a.TeamID.String() + "/0123456789abcdef-owl.png" }, assistant.MsgImage},
		{"key never issued", func(in *assistant.Input) { in.ImageURL = "public/" + a.TeamID.String() + "/fedcba9876543210-owl.png" }, assistant.MsgImage},
	}
	for _, tc := range cases {
		in := valid()
		tc.edit(&in)
		_, err := b.svc.Create(context.Background(), a, in)
		requireCode(t, err, apperr.Invalid, tc.msg)
	}
	list, err := b.svc.List(context.Background(), a)
	require.NoError(t, err)
	require.Empty(t, list, "nothing refused was saved")
}

func TestCreateWithOwnImageAndFiles(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.owner(t)
	in := valid()
	in.ImageURL = "https://markwell.test/files/" + b.publicKey(t, a.TeamID)
	in.FileData = []assistant.File{{FileName: "unit.pdf", FileText: "Photosynthesis", FileType: "application/pdf"}}
	got, err := b.svc.Create(context.Background(), a, in)
	require.NoError(t, err)
	require.Equal(t, "Lesson planner", got.Title)
	require.Equal(t, in.ImageURL, got.ImageURL)
	require.Equal(t, in.FileData, got.FileData)
	require.True(t, got.IsMine)

	// Another team's public asset is refused even when its key was issued.
	other := b.owner(t)
	in.ImageURL = b.publicKey(t, other.TeamID)
	_, err = b.svc.Create(context.Background(), a, in)
	requireCode(t, err, apperr.Invalid, assistant.MsgImage)
}

func TestAuthorOrOwnerEditsAndTeamSaves(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	owner := b.owner(t)
	author := b.member(t, owner.TeamID)
	mate := b.member(t, owner.TeamID)
	stranger := b.owner(t)

	asst, err := b.svc.Create(ctx, author, valid())
	require.NoError(t, err)

	// A teammate neither edits nor deletes it, and does not see it until the team saves it.
	edit := valid()
	edit.Title = "Mine now"
	_, err = b.svc.Update(ctx, mate, asst.ID, edit)
	requireCode(t, err, apperr.Forbidden, assistant.MsgNotAuthor)
	requireCode(t, b.svc.Delete(ctx, mate, asst.ID), apperr.Forbidden, assistant.MsgNotAuthor)
	list, err := b.svc.List(ctx, mate)
	require.NoError(t, err)
	require.Empty(t, list)

	// Another team: not found, whatever the call.
	_, err = b.svc.Update(ctx, stranger, asst.ID, edit)
	requireCode(t, err, apperr.NotFound, "")
	requireCode(t, b.svc.Delete(ctx, stranger, asst.ID), apperr.NotFound, "")
	requireCode(t, b.svc.Save(ctx, stranger, asst.ID), apperr.NotFound, "")
	requireCode(t, b.svc.Unsave(ctx, stranger, asst.ID), apperr.NotFound, "")

	// The team saves it: the teammate sees it, saved and not theirs.
	require.NoError(t, b.svc.Save(ctx, mate, asst.ID))
	require.NoError(t, b.svc.Save(ctx, mate, asst.ID), "saving twice is fine")
	list, err = b.svc.List(ctx, mate)
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.True(t, list[0].IsSaved)
	require.False(t, list[0].IsMine)
	list, err = b.svc.List(ctx, author)
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.True(t, list[0].IsMine)

	// The author and the owner edit it.
	got, err := b.svc.Update(ctx, author, asst.ID, edit)
	require.NoError(t, err)
	require.Equal(t, "Mine now", got.Title)
	require.True(t, got.IsSaved)
	edit.Title = "Owner's"
	got, err = b.svc.Update(ctx, owner, asst.ID, edit)
	require.NoError(t, err)
	require.Equal(t, "Owner's", got.Title)
	require.False(t, got.IsMine)

	// Unsaved, the teammate no longer sees it; the owner deletes it.
	require.NoError(t, b.svc.Unsave(ctx, mate, asst.ID))
	list, err = b.svc.List(ctx, mate)
	require.NoError(t, err)
	require.Empty(t, list)
	require.NoError(t, b.svc.Delete(ctx, owner, asst.ID))
	_, err = b.svc.Get(ctx, author, asst.ID)
	requireCode(t, err, apperr.NotFound, "")
}
