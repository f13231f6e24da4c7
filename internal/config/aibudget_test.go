package config_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/ratelimit"
)

func TestAITokenLimits(t *testing.T) {
	t.Parallel()
	c, err := config.LoadFrom(valid())
	require.NoError(t, err)
	require.Equal(t, ratelimit.Rule{Limit: 2_000_000, Window: 24 * time.Hour}, c.AITokenLimitTeacher)
	require.Equal(t, ratelimit.Rule{Limit: 20_000_000, Window: 24 * time.Hour}, c.AITokenLimitTeam)

	env := valid()
	env["AI_TOKEN_LIMIT_TEACHER"] = "50000/1h"
	env["AI_TOKEN_LIMIT_TEAM"] = "off"
	c, err = config.LoadFrom(env)
	require.NoError(t, err)
	b := c.AIBudget(&ratelimit.Limiter{})
	require.Equal(t, ratelimit.Rule{Limit: 50_000, Window: time.Hour}, b.TeacherTokens)
	require.Zero(t, b.TeamTokens.Limit)
	require.Equal(t, c.AILimitTeam, b.Team)

	env["AI_TOKEN_LIMIT_TEAM"] = "lots"
	_, err = config.LoadFrom(env)
	require.ErrorContains(t, err, "AI_TOKEN_LIMIT_TEAM: ")
}
