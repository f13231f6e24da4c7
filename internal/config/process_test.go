package config_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/config"
)

// The worker's address, the grading timeout and the profiler's address are
// read once, with the rest of the configuration.
func TestProcessSettingsDefaults(t *testing.T) {
	t.Parallel()
	c, err := config.LoadFrom(valid())
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:9091", c.WorkerAddr)
	require.Equal(t, 10*time.Minute, c.GradeJobTimeout)
	require.Empty(t, c.PprofAddr, "profiling is off unless asked for")

	env := valid()
	env["WORKER_ADDR"] = ":9191"
	env["GRADE_JOB_TIMEOUT"] = "3m"
	env["PPROF_ADDR"] = "127.0.0.1:6060"
	c, err = config.LoadFrom(env)
	require.NoError(t, err)
	require.Equal(t, ":9191", c.WorkerAddr)
	require.Equal(t, 3*time.Minute, c.GradeJobTimeout)
	require.Equal(t, "127.0.0.1:6060", c.PprofAddr)
}

func TestProcessSettingsBadValuesAreRefused(t *testing.T) {
	t.Parallel()
	env := valid()
	env["WORKER_ADDR"] = "9091"
	env["GRADE_JOB_TIMEOUT"] = "ten minutes"
	env["PPROF_ADDR"] = "localhost:99999"
	_, err := config.LoadFrom(env)
	require.Error(t, err)
	for _, want := range []string{
		`WORKER_ADDR: "9091" is not a listen address host:port (e.g. 127.0.0.1:9091)`,
		`GRADE_JOB_TIMEOUT: "ten minutes" is not a positive duration`,
		`PPROF_ADDR: "localhost:99999" is not a listen address host:port`,
	} {
		require.Contains(t, err.Error(), want)
	}
	env = valid()
	env["GRADE_JOB_TIMEOUT"] = "0s"
	_, err = config.LoadFrom(env)
	require.ErrorContains(t, err, `GRADE_JOB_TIMEOUT: "0s" is not a positive duration`)
}
