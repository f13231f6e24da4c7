package changes_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/changes"
)

func TestPlanChoosesTheCheapestRightAnswer(t *testing.T) {
	now := time.Unix(1_790_000_000, 0)
	fresh := changes.Version{Snapshot: "730:735:", At: now.Add(-time.Minute)}
	old := changes.Version{Snapshot: "700:701:", At: now.Add(-changes.MaxAge - time.Second)}
	row := uuid.New()
	plan := func(inm, since string, set changes.Set) (changes.Answer, changes.Set, int) {
		asked := 0
		a, s, err := changes.Plan(now, inm, since, func(v changes.Version) (changes.Set, error) {
			asked++
			require.Equal(t, fresh, v, "only a usable version is asked about")
			return set, nil
		})
		require.NoError(t, err)
		return a, s, asked
	}

	a, _, asked := plan(fresh.ETag(), fresh.String(), changes.Set{})
	require.Equal(t, changes.NotModified, a)
	require.Equal(t, 1, asked)

	a, s, asked := plan(fresh.ETag(), fresh.String(), changes.Set{Results: []uuid.UUID{row}})
	require.Equal(t, changes.Delta, a, "rows changed: only them")
	require.Equal(t, []uuid.UUID{row}, s.Results)
	require.Equal(t, 1, asked, "the same version is asked about once")

	a, _, _ = plan("", fresh.String(), changes.Set{DeletedSubmissions: []uuid.UUID{row}})
	require.Equal(t, changes.Delta, a)
	a, _, _ = plan("", fresh.String(), changes.Set{})
	require.Equal(t, changes.Delta, a, "since without If-None-Match: an empty delta, not a 304")

	for _, set := range []changes.Set{{Assignment: true}, {Definition: true, Results: []uuid.UUID{row}}} {
		a, _, _ = plan(fresh.ETag(), fresh.String(), set)
		require.Equal(t, changes.Full, a, "the assignment or its definition changed: %+v", set)
	}
	a, _, _ = plan(fresh.ETag(), "", changes.Set{Results: []uuid.UUID{row}})
	require.Equal(t, changes.Full, a, "a changed class and no since: the whole answer")

	for _, v := range []string{"", "junk", `"1-2"`, old.ETag()} {
		a, _, asked = plan(v, v, changes.Set{})
		require.Equal(t, changes.Full, a, "%q", v)
		require.Zero(t, asked)
	}

	_, _, err := changes.Plan(now, fresh.ETag(), "", func(changes.Version) (changes.Set, error) { return changes.Set{}, errors.New("down") })
	require.Error(t, err)
}
