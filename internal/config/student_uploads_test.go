package config_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/config"
)

func TestStudentPerSubmitterLimits(t *testing.T) {
	t.Parallel()
	c, err := config.LoadFrom(valid())
	require.NoError(t, err)
	require.Equal(t, "100/1h0m0s", c.StudentLimitSubmitter.String())
	require.Equal(t, "10/1h0m0s", c.StudentLimitStudent.String())
	require.Equal(t, 25, c.StudentLinkGrowth)
	require.Equal(t, 3000, c.StudentLinkMax)

	env := valid()
	env["STUDENT_RATE_LIMIT_SUBMITTER"] = "off"
	env["STUDENT_RATE_LIMIT_STUDENT"] = "3/1d"
	env["STUDENT_RATE_LIMIT_LINK_GROWTH"] = "-1"
	env["STUDENT_RATE_LIMIT_LINK_MAX"] = "100"
	_, err = config.LoadFrom(env)
	require.ErrorContains(t, err, `STUDENT_RATE_LIMIT_STUDENT: "3/1d": the window must be a duration`)
	require.ErrorContains(t, err, `STUDENT_RATE_LIMIT_LINK_GROWTH: "-1" is not a whole number`)
	require.ErrorContains(t, err, "STUDENT_RATE_LIMIT_LINK_MAX: must be 0 (no cap) or at least the count of STUDENT_RATE_LIMIT_LINK (300)")

	env = valid()
	env["STUDENT_RATE_LIMIT_SUBMITTER"] = "off"
	env["STUDENT_RATE_LIMIT_LINK_GROWTH"] = "0"
	env["STUDENT_RATE_LIMIT_LINK_MAX"] = "0"
	c, err = config.LoadFrom(env)
	require.NoError(t, err)
	require.Zero(t, c.StudentLimitSubmitter.Limit)
	require.Zero(t, c.StudentLinkGrowth, "0: the link's quota does not grow")
	require.Zero(t, c.StudentLinkMax, "0: no cap")
}

func TestSignedURLsExpireBeforeUnsubmittedUploadsGo(t *testing.T) {
	t.Parallel()
	env := valid()
	env["SIGNED_URL_TTL"] = "24h"
	_, err := config.LoadFrom(env)
	require.ErrorContains(t, err, "SIGNED_URL_TTL: must be shorter than 24h0m0s, after which student uploads never submitted are deleted")
	env["SIGNED_URL_TTL"] = "1h"
	c, err := config.LoadFrom(env)
	require.NoError(t, err)
	require.Equal(t, time.Hour, c.SignedURLTTL)
}
