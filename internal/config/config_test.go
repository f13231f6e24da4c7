package config_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/config"
)

func valid() map[string]string {
	return map[string]string{
		"DATABASE_URL": "postgres://localhost/markwell",
		"SECRET_KEY":   strings.Repeat("s", 32),
	}
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	c, err := config.LoadFrom(valid())
	require.NoError(t, err)
	require.Equal(t, "production", c.Env)
	require.Equal(t, ":8080", c.HTTPAddr)
	require.Equal(t, int64(50<<20), c.MaxUploadBytes)
	require.Equal(t, 5*time.Minute, c.JobTimeout)
	require.Greater(t, c.JobRescueAfter, c.JobTimeout)
	require.Equal(t, ".data/blobs", c.BlobDir)
}

func TestEveryBadValueIsReportedOnItsOwnLine(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"APP_ENV":          "staging",
		"PUBLIC_URL":       "localhost:8080",
		"MAX_UPLOAD_BYTES": "-1",
		"JOB_TIMEOUT":      "soon",
		"LOG_LEVEL":        "loud",
		"WORKER_QUEUES":    "ai=64,gpu=1",
		"S3_ACCESS_KEY_ID": "AKIA",
		"MIGRATE_ON_START": "yes please",
	}
	_, err := config.LoadFrom(env)
	require.Error(t, err)
	for _, want := range []string{
		`APP_ENV: "staging" must be development or production`,
		"DATABASE_URL: required",
		"SECRET_KEY: required, at least 32 characters",
		`PUBLIC_URL: "localhost:8080" must be an absolute http(s) URL`,
		`MAX_UPLOAD_BYTES: "-1" is not a positive number of bytes`,
		`JOB_TIMEOUT: "soon" is not a positive duration`,
		`LOG_LEVEL: "loud" must be debug, info, warn or error`,
		`WORKER_QUEUES: "gpu": unknown queue`,
		"S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither",
		`MIGRATE_ON_START: "yes please" is not a boolean`,
	} {
		require.Contains(t, err.Error(), want)
	}
}

func TestRescueMustOutlastTimeout(t *testing.T) {
	t.Parallel()
	env := valid()
	env["JOB_TIMEOUT"] = "10m"
	env["JOB_RESCUE_AFTER"] = "5m"
	_, err := config.LoadFrom(env)
	require.ErrorContains(t, err, "JOB_RESCUE_AFTER: must be longer than JOB_TIMEOUT")
}

func TestParseQueues(t *testing.T) {
	t.Parallel()
	q, err := config.ParseQueues("ai=64, ocr=2")
	require.NoError(t, err)
	require.Equal(t, map[string]int{"ai": 64, "ocr": 2}, q)
	for _, bad := range []string{"", "ai", "ai=0", "ai=x", "video=1"} {
		_, err := config.ParseQueues(bad)
		require.Error(t, err, bad)
	}
}

func TestOperators(t *testing.T) {
	t.Parallel()
	env := valid()
	env["OPERATOR_EMAILS"] = " Ops@School.test ,admin@school.test"
	c, err := config.LoadFrom(env)
	require.NoError(t, err)
	require.True(t, c.IsOperator("ops@school.test"))
	require.False(t, c.IsOperator("teacher@school.test"))
	require.False(t, c.IsOperator(""))
}
