// Package assistant is a team's AI assistants: a title, a description, the
// system prompt the chat model gets, an optional opening message, up to three
// attached files' text and an optional image from the team's public assets.
// Teachers see their team's saved assistants and their own; only an
// assistant's author, or the team's owner, changes or deletes it. Every
// method takes the actor from the session; assistants of other teams are
// answered as not found.
package assistant

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/input"
	"github.com/markwell/markwell/internal/store"
)

// Limits on what an assistant holds.
const (
	MaxFiles              = 3
	MaxTitleLength        = 200
	MaxDescriptionLength  = 2_000
	MaxSystemPromptLength = 20_000
	MaxInitialMessage     = 5_000
	MaxFileNameLength     = 255
	MaxFileTypeLength     = 200
	MaxFileTextLength     = 200_000
)

// The messages of refused calls.
const (
	MsgRequired     = "Please fill in all required fields"
	MsgTooManyFiles = "An assistant can hold at most 3 files"
	MsgFileName     = "Each attached file needs a name"
	MsgImage        = "The assistant's image must be uploaded to Markwell as a public asset of your team"
	MsgNotAuthor    = "Only the assistant's author or the team's owner can change or delete it"
)

// File is one attached file's extracted text.
type File struct {
	FileName string `json:"fileName"`
	FileText string `json:"fileText"`
	FileType string `json:"fileType"`
}

// Input is what a teacher saves.
type Input struct {
	Title          string `json:"title"`
	Description    string `json:"description"`
	SystemPrompt   string `json:"systemPrompt"`
	InitialMessage string `json:"initialMessage"`
	FileData       []File `json:"fileData"`
	// ImageURL is empty or a file URL (or key) of the team's public/ assets.
	ImageURL string `json:"imageURL"`
}

// Assistant is a saved assistant as the client reads it.
type Assistant struct {
	ID             uuid.UUID `json:"_id"`
	Title          string    `json:"title"`
	Description    string    `json:"description"`
	SystemPrompt   string    `json:"systemPrompt"`
	InitialMessage string    `json:"initialMessage"`
	FileData       []File    `json:"fileData"`
	ImageURL       string    `json:"imageURL"`
	CreatedAt      time.Time `json:"createdAt"`
	UpdatedAt      time.Time `json:"updatedAt"`
	// IsSaved says the team saved it; IsMine that the reader wrote it.
	IsSaved bool `json:"isSaved"`
	IsMine  bool `json:"isMine"`
}

// Service manages assistants.
type Service struct {
	Pool *pgxpool.Pool
	// Blob reads the key of an image's file URL.
	Blob blob.Blob
}

// Create saves a new assistant of the actor, in the actor's team.
func (s *Service) Create(ctx context.Context, a identity.Actor, in Input) (Assistant, error) {
	p, err := s.validate(ctx, a, in)
	if err != nil {
		return Assistant{}, err
	}
	row, err := store.Q.CreateAssistant(ctx, s.Pool, store.CreateAssistantParams{
		TeamID: a.TeamID, CreatedBy: uuid.NullUUID{UUID: a.UserID, Valid: true},
		Title: p.Title, Description: p.Description, SystemPrompt: p.SystemPrompt,
		InitialMessage: p.InitialMessage, ImageUrl: p.ImageUrl, FileData: p.FileData,
	})
	if err != nil {
		return Assistant{}, fmt.Errorf("create assistant: %w", err)
	}
	return fromRow(row, a, false)
}

// Update replaces an assistant; only its author or the team's owner may.
func (s *Service) Update(ctx context.Context, a identity.Actor, id uuid.UUID, in Input) (Assistant, error) {
	if _, err := s.editable(ctx, a, id); err != nil {
		return Assistant{}, err
	}
	p, err := s.validate(ctx, a, in)
	if err != nil {
		return Assistant{}, err
	}
	p.ID, p.TeamID = id, a.TeamID
	row, err := store.Q.UpdateAssistant(ctx, s.Pool, p)
	if err != nil {
		return Assistant{}, store.NotFound(fmt.Errorf("update assistant %s: %w", id, err))
	}
	saved, err := store.Q.AssistantIsSaved(ctx, s.Pool, store.AssistantIsSavedParams{TeamID: a.TeamID, AssistantID: id})
	if err != nil {
		return Assistant{}, fmt.Errorf("is assistant %s saved: %w", id, err)
	}
	return fromRow(row, a, saved)
}

// Delete removes an assistant; only its author or the team's owner may.
// Chats made with it keep their messages and lose the link.
func (s *Service) Delete(ctx context.Context, a identity.Actor, id uuid.UUID) error {
	if _, err := s.editable(ctx, a, id); err != nil {
		return err
	}
	n, err := store.Q.DeleteAssistant(ctx, s.Pool, store.DeleteAssistantParams{ID: id, TeamID: a.TeamID})
	if err != nil {
		return fmt.Errorf("delete assistant %s: %w", id, err)
	}
	return store.Affected(n)
}

// Get returns one assistant of the actor's team.
func (s *Service) Get(ctx context.Context, a identity.Actor, id uuid.UUID) (Assistant, error) {
	row, err := store.Q.GetAssistant(ctx, s.Pool, store.GetAssistantParams{ID: id, TeamID: a.TeamID})
	if err != nil {
		return Assistant{}, store.NotFound(fmt.Errorf("load assistant %s: %w", id, err))
	}
	saved, err := store.Q.AssistantIsSaved(ctx, s.Pool, store.AssistantIsSavedParams{TeamID: a.TeamID, AssistantID: id})
	if err != nil {
		return Assistant{}, fmt.Errorf("is assistant %s saved: %w", id, err)
	}
	return fromRow(row, a, saved)
}

// List returns the team's saved assistants and the actor's own, newest
// first.
func (s *Service) List(ctx context.Context, a identity.Actor) ([]Assistant, error) {
	rows, err := store.Q.ListAssistants(ctx, s.Pool, store.ListAssistantsParams{TeamID: a.TeamID, UserID: a.UserID})
	if err != nil {
		return nil, fmt.Errorf("list assistants of team %s: %w", a.TeamID, err)
	}
	out := make([]Assistant, len(rows))
	for i, r := range rows {
		if out[i], err = fromRow(r.Assistant, a, r.IsSaved); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Save adds an assistant of the team to the team's saved assistants; saving
// it again changes nothing.
func (s *Service) Save(ctx context.Context, a identity.Actor, id uuid.UUID) error {
	if _, err := s.Get(ctx, a, id); err != nil {
		return err
	}
	err := store.Q.SaveTeamAssistant(ctx, s.Pool, store.SaveTeamAssistantParams{TeamID: a.TeamID, AssistantID: id})
	if err != nil {
		return fmt.Errorf("save assistant %s: %w", id, err)
	}
	return nil
}

// Unsave takes an assistant of the team out of the team's saved assistants.
func (s *Service) Unsave(ctx context.Context, a identity.Actor, id uuid.UUID) error {
	if _, err := s.Get(ctx, a, id); err != nil {
		return err
	}
	err := store.Q.UnsaveTeamAssistant(ctx, s.Pool, store.UnsaveTeamAssistantParams{TeamID: a.TeamID, AssistantID: id})
	if err != nil {
		return fmt.Errorf("unsave assistant %s: %w", id, err)
	}
	return nil
}

// editable loads an assistant of the actor's team (not found otherwise) and
// answers forbidden unless the actor wrote it or owns the team.
func (s *Service) editable(ctx context.Context, a identity.Actor, id uuid.UUID) (store.Assistant, error) {
	row, err := store.Q.GetAssistant(ctx, s.Pool, store.GetAssistantParams{ID: id, TeamID: a.TeamID})
	if err != nil {
		return store.Assistant{}, store.NotFound(fmt.Errorf("load assistant %s: %w", id, err))
	}
	if row.CreatedBy.Valid && row.CreatedBy.UUID == a.UserID {
		return row, nil
	}
	t, err := store.Q.GetTeam(ctx, s.Pool, a.TeamID)
	if err != nil {
		return store.Assistant{}, fmt.Errorf("load team %s: %w", a.TeamID, err)
	}
	if t.OwnerID.Valid && t.OwnerID.UUID == a.UserID {
		return row, nil
	}
	return store.Assistant{}, apperr.New(apperr.Forbidden, MsgNotAuthor)
}

// validate checks in and returns it as it is stored (ID and TeamID unset).
func (s *Service) validate(ctx context.Context, a identity.Actor, in Input) (store.UpdateAssistantParams, error) {
	p := store.UpdateAssistantParams{
		Title:          input.Name(in.Title),
		Description:    strings.TrimSpace(in.Description),
		SystemPrompt:   strings.TrimSpace(in.SystemPrompt),
		InitialMessage: strings.TrimSpace(in.InitialMessage),
	}
	if p.Title == "" || p.Description == "" || p.SystemPrompt == "" {
		return p, apperr.New(apperr.Invalid, MsgRequired)
	}
	for _, f := range []struct {
		name, v string
		max     int
	}{
		{"Title", p.Title, MaxTitleLength},
		{"Description", p.Description, MaxDescriptionLength},
		{"System prompt", p.SystemPrompt, MaxSystemPromptLength},
		{"Initial message", p.InitialMessage, MaxInitialMessage},
	} {
		if err := input.Length(f.name, f.v, f.max); err != nil {
			return p, err
		}
	}
	files, err := validateFiles(in.FileData)
	if err != nil {
		return p, err
	}
	if p.FileData, err = json.Marshal(files); err != nil {
		return p, fmt.Errorf("encode file data: %w", err)
	}
	p.ImageUrl, err = s.publicImage(ctx, a.TeamID, in.ImageURL)
	return p, err
}

func validateFiles(in []File) ([]File, error) {
	if len(in) > MaxFiles {
		return nil, apperr.New(apperr.Invalid, MsgTooManyFiles)
	}
	out := make([]File, len(in))
	for i, f := range in {
		f = File{FileName: input.Name(f.FileName), FileText: f.FileText, FileType: strings.TrimSpace(f.FileType)}
		if f.FileName == "" {
			return nil, apperr.New(apperr.Invalid, MsgFileName)
		}
		for _, c := range []struct {
			name, v string
			max     int
		}{
			{"File name", f.FileName, MaxFileNameLength},
			{"File type", f.FileType, MaxFileTypeLength},
			{"The text of " + f.FileName, f.FileText, MaxFileTextLength},
		} {
			if err := input.Length(c.name, c.v, c.max); err != nil {
				return nil, err
			}
		}
		out[i] = f
	}
	return out, nil
}

// publicImage proves that raw (a file URL of this store, or a key) is an
// image uploaded to team's public/ folder, and returns its file URL; an empty
// raw is no image. Any other address (an outside URL, another team's asset,
// a key never issued) is refused: the browser would load it for every
// teammate.
func (s *Service) publicImage(ctx context.Context, team uuid.UUID, raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", nil
	}
	key := raw
	if strings.Contains(raw, ":") {
		k, err := s.Blob.KeyFromURL(raw)
		if err != nil {
			return "", apperr.Wrap(apperr.Invalid, MsgImage, err)
		}
		key = k
	}
	if !strings.HasPrefix(key, "public/"+team.String()+"/") {
		return "", apperr.New(apperr.Invalid, MsgImage)
	}
	if err := IssuedTo(ctx, s.Pool, team, key); errors.Is(err, ErrNotIssued) {
		return "", apperr.Wrap(apperr.Invalid, MsgImage, err)
	} else if err != nil {
		return "", err
	}
	return s.Blob.FileURL(key), nil
}

// ErrNotIssued is IssuedTo's answer for a key never handed out to the team.
var ErrNotIssued = errors.New("key was not issued to this team")

// IssuedTo answers nil when key was handed out by an upload route to a
// teacher of team (or through one of its assignments' student links), and
// ErrNotIssued otherwise.
func IssuedTo(ctx context.Context, db store.DBTX, team uuid.UUID, key string) error {
	rows, err := store.Q.FilesUploads(ctx, db, []string{key})
	if err != nil {
		return fmt.Errorf("look up upload %s: %w", key, err)
	}
	if len(rows) != 1 || rows[0].TeamID != team {
		return ErrNotIssued
	}
	return nil
}

// fromRow turns a stored assistant into its API shape for reader a.
func fromRow(row store.Assistant, a identity.Actor, saved bool) (Assistant, error) {
	out := Assistant{
		ID: row.ID, Title: row.Title, Description: row.Description, SystemPrompt: row.SystemPrompt,
		InitialMessage: row.InitialMessage, ImageURL: row.ImageUrl, CreatedAt: row.CreatedAt, UpdatedAt: row.UpdatedAt,
		IsSaved: saved, IsMine: row.CreatedBy.Valid && row.CreatedBy.UUID == a.UserID,
	}
	if err := json.Unmarshal(row.FileData, &out.FileData); err != nil {
		return Assistant{}, fmt.Errorf("decode file data of assistant %s: %w", row.ID, err)
	}
	if out.FileData == nil {
		out.FileData = []File{}
	}
	return out, nil
}
