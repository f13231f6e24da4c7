package changes

import "time"

// Answer is what a polled read sends back.
type Answer int

const (
	// Full is the whole answer: no usable version, or the assignment or its
	// definition changed (every row's totals or outdated marks may move).
	Full Answer = iota
	// Delta is the rows that changed since the client's version, and the
	// ids of those deleted.
	Delta
	// NotModified is a 304: nothing changed since the If-None-Match version.
	NotModified
)

// Plan decides a polled read's answer from the client's If-None-Match
// header and its since field, each a version string or "". since lists
// what changed after a version, and is asked at most once per distinct
// version. A version that does not parse or is no longer Usable is as
// good as none: the whole answer, never an error.
func Plan(now time.Time, ifNoneMatch, since string, changed func(Version) (Set, error)) (Answer, Set, error) {
	memo := map[Version]Set{}
	ask := func(v Version) (Set, error) {
		if s, ok := memo[v]; ok {
			return s, nil
		}
		s, err := changed(v)
		memo[v] = s
		return s, err
	}
	if v, err := Parse(ifNoneMatch); err == nil && v.Usable(now) {
		s, err := ask(v)
		if err != nil {
			return Full, Set{}, err
		}
		if s.None() {
			return NotModified, s, nil
		}
	}
	if v, err := Parse(since); err == nil && v.Usable(now) {
		s, err := ask(v)
		if err != nil {
			return Full, Set{}, err
		}
		if !s.Assignment && !s.Definition {
			return Delta, s, nil
		}
	}
	return Full, Set{}, nil
}
