package config

import (
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/release"
)

// Storage is the blob store's configuration: S3 when S3_BUCKET is set,
// local disk otherwise.
func (c Config) Storage() blob.Config {
	return blob.Config{
		Dir: c.BlobDir, PublicURL: c.PublicURL, Secret: []byte(c.SecretKey), MaxUploadBytes: c.MaxUploadBytes,
		S3Bucket: c.S3Bucket, S3Region: c.S3Region, S3Endpoint: c.S3Endpoint,
		S3AccessKey: c.S3AccessKeyID, S3SecretKey: c.S3SecretAccessKey,
	}
}

// Model is the model client's configuration. Jobs retry through River, so
// the client itself makes no retries unless asked.
func (c Config) Model() llm.Config {
	return llm.Config{
		BaseURL: c.LLMBaseURL, APIKey: c.LLMAPIKey, Model: c.LLMModel,
		VisionModel: c.LLMVisionModel, SummaryModel: c.LLMSummaryModel, Timeout: c.LLMTimeout,
		OutputMode: c.LLMOutputMode,
	}
}

// ModelLimit is the limit on model calls shared by every API and worker
// process (LLM_RPM, LLM_TPM over a minute, kept in PostgreSQL), for
// llm.WithLimit; nil when neither is set, which leaves the client unlimited.
func (c Config) ModelLimit(pool *pgxpool.Pool) llm.Limiter {
	if c.LLMRPM == 0 && c.LLMTPM == 0 {
		return nil
	}
	return &ratelimit.ModelLimiter{Pool: pool, Bucket: ratelimit.DefaultModelBucket, RPM: c.LLMRPM, TPM: c.LLMTPM}
}

// AIBudget is the teachers' and teams' AI budget (AI_RATE_LIMIT_TEACHER,
// AI_RATE_LIMIT_TEAM, AI_TOKEN_LIMIT_TEACHER, AI_TOKEN_LIMIT_TEAM) counted
// by l, the same for the API and the workers.
func (c Config) AIBudget(l *ratelimit.Limiter) *ratelimit.AIBudget {
	return &ratelimit.AIBudget{Limiter: l, Teacher: c.AILimitTeacher, Team: c.AILimitTeam,
		TeacherTokens: c.AITokenLimitTeacher, TeamTokens: c.AITokenLimitTeam}
}

// SMTP is the mail server of released results' emails; nil when SMTP_URL
// is not set (Load has refused a malformed one).
func (c Config) SMTP() *release.SMTP {
	s, _ := release.ParseSMTP(c.SMTPURL, c.SMTPFrom)
	return s
}

// EmailEnabled says released results can be emailed (SMTP is configured).
func (c Config) EmailEnabled() bool { return c.SMTP() != nil }

// Mailer sends released results' emails at most SMTP_PER_TEAM_PER_MINUTE
// per team.
func (c Config) Mailer(pool *pgxpool.Pool) (*release.Mailer, error) {
	links, err := release.NewLinks(c.SecretKey, c.PublicURL)
	if err != nil {
		return nil, err
	}
	return &release.Mailer{
		Pool: pool, SMTP: c.SMTP(), Links: links, Limiter: &ratelimit.Limiter{Pool: pool},
		PerTeam: ratelimit.Rule{Limit: c.SMTPPerTeamPerMinute, Window: time.Minute},
	}, nil
}
