package result

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/changes"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/submission"
)

// The class cache keeps, in the API process, each class that is being read
// as assignment/get answers it: the assignment, its definition, its
// results and submissions as stored, every row with its stamp (the
// transaction that last wrote it), and the rows deleted since. A poll is
// answered from it, a 304, a delta or the whole class, by comparing the
// stamps with the client's version exactly as PollChanges does in the
// database. Keeping it current costs one small statement (changes.Log,
// the rows written since the version it stands at) and a read of only
// those rows, shared by every request that arrived while the previous
// catch-up was under way; none at all while the change listener can vouch
// that nothing was written (changes.Clock.Current). Fifty teachers polling
// the class being graded cost the database one catch-up per write, not
// three statements per poll.
//
// Nothing stale is served: a request catches the class up with a
// statement that begins after the request arrived (or the Clock vouches
// for it, the same test as a 304 from memory), rows fetched later than the
// listing are newer, never older, and a client's version older than the
// class's first read, or one it cannot parse, goes to the database.
const (
	// classCacheBytes bounds the classes an API process keeps (their
	// stored rows' text and JSON); past it the least recently read go.
	classCacheBytes = 128 << 20
	// classCacheCount bounds the classes (and ids asked about that are
	// not kept) an API process remembers.
	classCacheCount = 4096
	// classCacheRows is the largest class kept (results plus submissions):
	// a year group is read a page at a time (submission-rows).
	classCacheRows = 4_000
	// classStateAge is how old the version a class stands at may grow
	// while the Clock vouches for it before a catch-up moves it: versions
	// are usable for changes.MaxAge, and an answer's version is the
	// class's.
	classStateAge = changes.MaxAge / 4
	// classRetry is how long a class that could not be kept (another
	// team's, no definition yet, too large) is read from the database
	// before it is tried again.
	classRetry = 5 * time.Second
	// tombAge is how long deletions are remembered: past MaxAge no
	// version that has not seen them is usable.
	tombAge = changes.MaxAge + 2*time.Minute
)

// errNotKept says a class cannot be kept: it is read from the database.
var errNotKept = errors.New("class not kept")

// classCache is the API process's classes, by assignment and team (a
// read by another team never touches the team's class).
type classCache struct {
	mu  sync.Mutex
	m   map[classKey]*classState
	max int64 // classCacheBytes when 0
	// served counts the reads answered from memory, kept the edits
	// written from it (keptedit.go).
	served, kept atomic.Int64
	// byResult names the class each result was last read in: a teacher's
	// edit, which names only the result, finds it there.
	byResult map[uuid.UUID]classKey
}

type classKey struct{ assignment, team uuid.UUID }

// classState is one class, at the version at.
type classState struct {
	key   classKey
	cache *classCache
	subs  *submission.Service
	used  atomic.Int64 // unix nanoseconds of the last read

	mu       sync.RWMutex
	skip     time.Time // not kept: read from the database until then
	at       changes.Version
	born     changes.Seen // the version of its first read
	asg      assignment.Assignment
	asgXid   uint64
	fn       *assignment.Function
	fnXid    uint64
	def      uint64 // definitionKey(asg.Type, fn)
	rubricAt *changes.Seen
	results  []store.FunctionResult // created order; never modified in place
	list     []submission.Submission
	// asgJSON is asg encoded with its usage; listJSON is list encoded,
	// row by row (subJSON keeps each row's by its stamp).
	asgJSON  json.RawMessage
	listJSON []json.RawMessage
	subJSON  map[uuid.UUID]encodedSub
	tombs    []tomb
	bytes    int64

	fmu     sync.Mutex
	next    *flight
	running bool
}

type encodedSub struct {
	stamp uint64
	raw   json.RawMessage
}

// tomb is a deleted row: a result or a submission.
type tomb struct {
	id     uuid.UUID
	result bool
	xid    uint64
	at     time.Time
}

// flight is one catch-up; requests that arrive before it begins wait for
// it together.
type flight struct {
	done chan struct{}
	err  error
}

// readCached answers ReadClass from the class cache; ok false when it
// cannot (the caller reads the database).
func (s *Service) readCached(ctx context.Context, a identity.Actor, subs *submission.Service, id uuid.UUID, p Poll) (ClassRead, bool, error) {
	if s.NoClassCache || subs == nil {
		return ClassRead{}, false, nil
	}
	st := s.classes.state(classKey{id, a.TeamID}, subs)
	if ok, err := st.ready(ctx, s); !ok || err != nil {
		return ClassRead{}, false, err
	}
	r, ok, err := st.answer(ctx, s, p)
	if ok && err == nil {
		s.classes.served.Add(1)
		if s.classes.served.Load()%64 == 1 {
			s.classes.account()
		}
	}
	return r, ok, err
}

// state is the class of key, new and empty the first time.
func (c *classCache) state(key classKey, subs *submission.Service) *classState {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[classKey]*classState{}
	}
	st := c.m[key]
	if st == nil {
		if len(c.m) >= classCacheCount {
			// ids asked for faster than classes are read (or made up):
			// forget a quarter, at random
			n := 0
			for k := range c.m {
				if n >= classCacheCount/4 {
					break
				}
				delete(c.m, k)
				n++
			}
		}
		st = &classState{key: key, cache: c, subs: subs}
		c.m[key] = st
	}
	st.used.Store(time.Now().UnixNano())
	return st
}

// account recounts the classes' bytes and forgets the least recently read
// past the bound, and those not read for tombAge.
func (c *classCache) account() {
	c.mu.Lock()
	defer c.mu.Unlock()
	max := c.maxBytes()
	var total int64
	old := time.Now().Add(-tombAge).UnixNano()
	for k, st := range c.m {
		if st.used.Load() < old {
			delete(c.m, k)
			continue
		}
		total += st.size()
	}
	for total > max && len(c.m) > 0 {
		var oldest classKey
		var when int64 = -1
		for k, st := range c.m {
			if u := st.used.Load(); when < 0 || u < when {
				oldest, when = k, u
			}
		}
		total -= c.m[oldest].size()
		delete(c.m, oldest)
	}
}

func (c *classCache) maxBytes() int64 {
	if c.max == 0 {
		return classCacheBytes
	}
	return c.max
}

// tooLarge says a class holds more than an eighth of the bound: not kept
// (the database answers it, as before).
func (st *classState) tooLarge() bool { return st.bytes > st.cache.maxBytes()/8 }

func (st *classState) size() int64 {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return st.bytes
}

// ready makes the class current for a read arriving now: the change
// listener vouches that nothing was written since the version it stands
// at, or a catch-up brings it there (loading it the first time). False
// when the class is not kept (the database answers).
func (st *classState) ready(ctx context.Context, s *Service) (bool, error) {
	st.mu.RLock()
	skip, at := st.skip, st.at
	st.mu.RUnlock()
	if time.Now().Before(skip) {
		return false, nil
	}
	if at.Snapshot != "" && time.Since(at.At) <= classStateAge && s.Changes.Current(st.key.assignment, at) {
		return true, nil
	}
	if err := st.catchUp(ctx, s); err != nil {
		if errors.Is(err, errNotKept) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// catchUp brings the class up to a version taken after the call began:
// it joins the next catch-up, which begins once the one under way (if any)
// has finished.
func (st *classState) catchUp(ctx context.Context, s *Service) error {
	st.fmu.Lock()
	if st.next == nil {
		st.next = &flight{done: make(chan struct{})}
		if !st.running {
			st.running = true
			go st.fly(s)
		}
	}
	f := st.next
	st.fmu.Unlock()
	select {
	case <-f.done:
		return f.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// fly runs the catch-ups asked for, one after another, each for every
// request waiting when it began. A request that gives up does not cancel
// the catch-up others wait for.
func (st *classState) fly(s *Service) {
	for {
		st.fmu.Lock()
		f := st.next
		if f == nil {
			st.running = false
			st.fmu.Unlock()
			return
		}
		st.next = nil
		st.fmu.Unlock()
		f.err = st.refresh(s)
		close(f.done)
	}
}

// refresh reads the class whole the first time, then what changed since
// the version it stands at. A class that is not the team's, has no
// definition or is too large is not kept for classRetry (errNotKept).
func (st *classState) refresh(s *Service) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("class cache: %v", p)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st.mu.RLock()
	skip, at := st.skip, st.at
	st.mu.RUnlock()
	if time.Now().Before(skip) {
		return errNotKept
	}
	if at.Snapshot == "" || time.Since(at.At) > changes.MaxAge-time.Minute {
		err = st.load(ctx, s)
	} else {
		err = st.update(ctx, s, at)
	}
	if errors.Is(err, errNotKept) {
		st.mu.Lock()
		st.forget()
		st.skip = time.Now().Add(classRetry)
		st.mu.Unlock()
	}
	return err
}

// forget drops the class (with st.mu held): the next read loads it again.
func (st *classState) forget() {
	st.at, st.born = changes.Version{}, changes.Seen{}
	st.asg, st.asgXid, st.fn, st.fnXid, st.def, st.rubricAt = assignment.Assignment{}, 0, nil, 0, 0, nil
	st.results, st.list, st.tombs, st.bytes = nil, nil, nil, 0
	st.asgJSON, st.listJSON, st.subJSON = nil, nil, nil
}

func (st *classState) actor() identity.Actor { return identity.Actor{TeamID: st.key.team} }

// load reads the class whole.
func (st *classState) load(ctx context.Context, s *Service) error {
	id, team := st.key.assignment, st.key.team
	now, inTeam, err := changes.NowIn(ctx, s.Pool, team, id) // before the reads
	if err != nil {
		return err
	}
	if !inTeam {
		return errNotKept
	}
	asg, asgXid, fn, fnXid, err := st.definition(ctx, s)
	if err != nil {
		return err
	}
	rows, err := store.Q.ListAssignmentFunctionResults(ctx, s.Pool, store.ListAssignmentFunctionResultsParams{AssignmentID: id, TeamID: team})
	if err != nil {
		return fmt.Errorf("list function results of assignment %s: %w", id, err)
	}
	if len(rows) > classCacheRows {
		return errNotKept
	}
	list, err := st.subs.ListLoaded(ctx, st.actor(), id)
	if err != nil {
		return err
	}
	if len(rows)+len(list) > classCacheRows {
		return errNotKept
	}
	seen, err := now.Seen()
	if err != nil {
		return err
	}
	def, err := definitionKey(asg.Type, fn)
	if err != nil {
		return err
	}
	st.cache.note(st.key, rows)
	st.mu.Lock()
	defer st.mu.Unlock()
	st.at, st.born = now, seen
	st.asg, st.asgXid, st.fn, st.fnXid, st.def, st.rubricAt = asg, asgXid, fn, fnXid, def, nil
	st.results, st.list, st.tombs, st.subJSON = rows, list, nil, nil
	st.bytes = rowsBytes(rows, list)
	if st.tooLarge() {
		return errNotKept
	}
	return st.encode(true, true)
}

// encode encodes the assignment with its usage and the submissions as
// they now stand (with st.mu held): each answer until the next catch-up
// sends these bytes. A catch-up that read neither the assignment nor a
// submission, and moved no usage (a teacher's tick), keeps the bytes it has.
func (st *classState) encode(asgChanged, listChanged bool) error {
	usage := usageOfRows(st.results)
	if !asgChanged && !listChanged && st.asgJSON != nil && st.asg.Usage != nil && *st.asg.Usage == *usage {
		return nil
	}
	st.asg.Submissions = refs(st.list)
	st.asg.Usage = usage
	raw, err := json.Marshal(st.asg)
	if err != nil {
		return fmt.Errorf("encode assignment %s: %w", st.asg.ID, err)
	}
	st.asgJSON = raw
	if !listChanged && st.listJSON != nil {
		return nil
	}
	prev := st.subJSON
	st.subJSON = make(map[uuid.UUID]encodedSub, len(st.list))
	st.listJSON = make([]json.RawMessage, len(st.list))
	for i, sub := range st.list {
		e, ok := prev[sub.ID]
		if !ok || e.stamp != sub.Stamp || sub.Stamp == 0 {
			if e.raw, err = json.Marshal(sub); err != nil {
				return fmt.Errorf("encode submission %s: %w", sub.ID, err)
			}
			e.stamp = sub.Stamp
		}
		st.subJSON[sub.ID] = e
		st.listJSON[i] = e.raw
	}
	return nil
}

// definition reads the assignment and its definition (the rubric it
// embeds too); errNotKept when it has none.
func (st *classState) definition(ctx context.Context, s *Service) (assignment.Assignment, uint64, *assignment.Function, uint64, error) {
	id, team := st.key.assignment, st.key.team
	both, err := store.Q.GetAssignmentWithFunction(ctx, s.Pool, store.GetAssignmentWithFunctionParams{ID: id, TeamID: team})
	if errors.Is(err, pgx.ErrNoRows) {
		return assignment.Assignment{}, 0, nil, 0, errNotKept
	}
	if err != nil {
		return assignment.Assignment{}, 0, nil, 0, fmt.Errorf("load assignment %s: %w", id, err)
	}
	f, err := s.Assignments.FunctionIn(ctx, s.Pool, st.actor(), both.Function)
	if err != nil {
		return assignment.Assignment{}, 0, nil, 0, err
	}
	return assignment.FromRow(both.Assignment, both.SubmissionIds), both.Assignment.ChangedXid.Uint64,
		&f, both.Function.ChangedXid.Uint64, nil
}

// update reads what changed since at and merges it in.
func (st *classState) update(ctx context.Context, s *Service, at changes.Version) error {
	id := st.key.assignment
	polled, rows, err := store.CatchUp(ctx, s.Pool, changes.LogParams(st.key.team, id, at, uuid.Nil))
	if err != nil {
		return fmt.Errorf("catch up assignment %s: %w", id, err)
	}
	r, log, err := changes.LogOf(polled, at)
	if err != nil {
		return err
	}
	if !r.InTeam {
		return errNotKept
	}
	seen, err := r.Now.Seen()
	if err != nil {
		return err
	}
	var (
		asgChanged, rubric   bool
		resultIDs, subIDs    []uuid.UUID
		goneResult, goneSubs = map[uuid.UUID]bool{}, map[uuid.UUID]bool{}
		tombs                []tomb
	)
	// rows holds every result the log names, as it is now (or not, once
	// deleted since), and perhaps results written after the log's version:
	// newer is never wrong, each row carries its own stamp.
	for _, c := range log {
		switch c.Kind {
		case "assignment":
			asgChanged = true
		case "function":
			asgChanged = true
			rubric = rubric || c.Xid == 0
		case "function_result":
			resultIDs = append(resultIDs, c.ID)
		case "submission":
			subIDs = append(subIDs, c.ID)
		case "deleted_function_result":
			goneResult[c.ID] = true
			tombs = append(tombs, tomb{id: c.ID, result: true, xid: c.Xid, at: r.Now.At})
		case "deleted_submission":
			goneSubs[c.ID] = true
			tombs = append(tombs, tomb{id: c.ID, xid: c.Xid, at: r.Now.At})
		}
	}
	var (
		asg           assignment.Assignment
		fn            *assignment.Function
		asgXid, fnXid uint64
		def           uint64
		list          []submission.Submission
	)
	if asgChanged {
		if asg, asgXid, fn, fnXid, err = st.definition(ctx, s); err != nil {
			return err
		}
		if def, err = definitionKey(asg.Type, fn); err != nil {
			return err
		}
	}
	// a result listed and gone by the time it was read was deleted
	for _, rid := range resultIDs {
		if !slices.ContainsFunc(rows, func(r store.FunctionResult) bool { return r.ID == rid }) {
			goneResult[rid] = true
		}
	}
	if len(subIDs) > 0 {
		if list, err = st.subs.ListLoadedByIDs(ctx, st.actor(), id, subIDs); err != nil {
			return err
		}
		for _, sid := range subIDs {
			if !slices.ContainsFunc(list, func(s submission.Submission) bool { return s.ID == sid }) {
				goneSubs[sid] = true
			}
		}
	}

	st.cache.note(st.key, rows)
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.at != at { // dropped meanwhile
		return errNotKept
	}
	st.at = r.Now
	if asgChanged {
		st.asg, st.asgXid, st.fn, st.fnXid, st.def = asg, asgXid, fn, fnXid, def
		if rubric {
			st.rubricAt = &seen
		}
	}
	if len(rows) > 0 || len(goneResult) > 0 {
		st.results = merge(st.results, rows, goneResult, func(r store.FunctionResult) (uuid.UUID, time.Time) { return r.ID, r.CreatedAt })
	}
	if len(list) > 0 || len(goneSubs) > 0 {
		st.list = merge(st.list, list, goneSubs, func(s submission.Submission) (uuid.UUID, time.Time) { return s.ID, s.CreatedAt })
	}
	keep := st.tombs[:0:0]
	for _, t := range st.tombs {
		if time.Since(t.at) < tombAge {
			keep = append(keep, t)
		}
	}
	st.tombs = append(keep, tombs...)
	st.bytes = rowsBytes(st.results, st.list)
	if len(st.results)+len(st.list) > classCacheRows || st.tooLarge() {
		return errNotKept
	}
	return st.encode(asgChanged, len(list) > 0 || len(goneSubs) > 0)
}

// merge is prev with the rows read replacing theirs, new ones added and
// gone ones left out, in created order (created_at, then id, as the
// database sorts them). prev is not modified.
func merge[T any](prev, read []T, gone map[uuid.UUID]bool, key func(T) (uuid.UUID, time.Time)) []T {
	byID := make(map[uuid.UUID]int, len(read))
	for i, r := range read {
		id, _ := key(r)
		byID[id] = i
	}
	out := make([]T, 0, len(prev)+len(read))
	added := false
	for _, r := range prev {
		id, _ := key(r)
		if gone[id] {
			continue
		}
		if i, ok := byID[id]; ok {
			r = read[i]
			delete(byID, id)
		}
		out = append(out, r)
	}
	for _, r := range read {
		if id, _ := key(r); !gone[id] {
			if _, ok := byID[id]; ok {
				out = append(out, r)
				added = true
			}
		}
	}
	if added {
		slices.SortStableFunc(out, func(a, b T) int {
			ia, ta := key(a)
			ib, tb := key(b)
			if c := ta.Compare(tb); c != 0 {
				return c
			}
			return bytes.Compare(ia[:], ib[:])
		})
	}
	return out
}

func refs(list []submission.Submission) []assignment.Ref {
	out := make([]assignment.Ref, len(list))
	for i, s := range list {
		out[i] = assignment.Ref{ID: s.ID}
	}
	return out
}

// rowsBytes is about what the rows hold.
func rowsBytes(rows []store.FunctionResult, list []submission.Submission) int64 {
	n := int64(0)
	for _, r := range rows {
		n += int64(512 + len(r.Answers) + len(r.Feedback) + len(r.HighlightedText) + len(r.OverallComments) +
			len(r.CriteriaLevels) + len(r.CriteriaPoints) + len(r.CriteriaFeedback) + len(r.Flags)*16 + len(r.GradedParts))
	}
	for _, s := range list {
		n += int64(384 + len(s.Name) + len(s.Preview) + len(s.Error) + len(s.StudentName) + len(s.StudentEmail) + len(s.Location))
	}
	return n
}

// errOlder says a client's version is older than the class's first read
// (deletions before it are not known): the database answers.
var errOlder = errors.New("version older than the class kept")

// answer is the poll's answer from the class as it stands: ok false when
// the client's version is older than the class's first read.
func (st *classState) answer(ctx context.Context, s *Service, p Poll) (ClassRead, bool, error) {
	st.mu.RLock()
	if st.at.Snapshot == "" { // dropped meanwhile
		st.mu.RUnlock()
		return ClassRead{}, false, nil
	}
	at, asg, fn, def := st.at, st.asg, st.fn, st.def
	results, list, asgJSON, listJSON := st.results, st.list, st.asgJSON, st.listJSON
	var client changes.Version
	answer, set, err := changes.Plan(time.Now(), p.IfNoneMatch, p.Since, func(v changes.Version) (changes.Set, error) {
		client = v
		return st.since(v)
	})
	st.mu.RUnlock()
	if errors.Is(err, errOlder) {
		return ClassRead{}, false, nil
	}
	if err != nil {
		return ClassRead{}, false, err
	}
	if answer == changes.NotModified {
		return ClassRead{Version: client, NotModified: true}, true, nil
	}
	r := ClassRead{Version: at, Assignment: asg, AssignmentJSON: asgJSON}
	if answer == changes.Delta {
		r.Delta = true
		results = pick(results, set.Results, func(r store.FunctionResult) uuid.UUID { return r.ID }, nil)
		picked := make([]json.RawMessage, 0, len(set.Submissions))
		list = pick(list, set.Submissions, func(s submission.Submission) uuid.UUID { return s.ID },
			func(i int) { picked = append(picked, listJSON[i]) })
		listJSON = picked
		r.DeletedSubmissionIDs, r.DeletedResultIDs = orEmpty(set.DeletedSubmissions), orEmpty(set.DeletedResults)
	}
	if r.Results, err = s.encodeRows(ctx, asg, fn, def, results); err != nil {
		return ClassRead{}, false, err
	}
	r.Submissions, r.SubmissionsJSON = slices.Clone(list), slices.Clone(listJSON)
	return r, true, nil
}

// since is what changed after v, from the rows' stamps: the same list
// PollChanges makes in the database. Called with st.mu held.
func (st *classState) since(v changes.Version) (changes.Set, error) {
	seen, err := v.Seen()
	if err != nil || !seen.After(st.born) {
		return changes.Set{}, errOlder
	}
	var set changes.Set
	set.Assignment = !seen.Saw(st.asgXid)
	set.Definition = !seen.Saw(st.fnXid) || st.rubricAt != nil && !seen.After(*st.rubricAt)
	for _, r := range st.results {
		if !seen.Saw(r.ChangedXid.Uint64) {
			set.Results = append(set.Results, r.ID)
		}
	}
	for _, s := range st.list {
		if !seen.Saw(s.Stamp) {
			set.Submissions = append(set.Submissions, s.ID)
		}
	}
	for _, t := range st.tombs {
		if seen.Saw(t.xid) {
			continue
		}
		if t.result {
			set.DeletedResults = append(set.DeletedResults, t.id)
		} else {
			set.DeletedSubmissions = append(set.DeletedSubmissions, t.id)
		}
	}
	return set, nil
}

// pick is the rows whose ids are in ids, in the rows' order, calling also
// (when set) with each one's index.
func pick[T any](rows []T, ids []uuid.UUID, id func(T) uuid.UUID, also func(int)) []T {
	if len(ids) == 0 {
		return []T{}
	}
	want := make(map[uuid.UUID]bool, len(ids))
	for _, i := range ids {
		want[i] = true
	}
	out := make([]T, 0, len(ids))
	for i, r := range rows {
		if want[id(r)] {
			out = append(out, r)
			if also != nil {
				also(i)
			}
		}
	}
	return out
}

// usageOfRows is usageOf over stored rows: the same sums in the same order.
func usageOfRows(rows []store.FunctionResult) *assignment.Usage {
	u := &assignment.Usage{}
	for _, r := range rows {
		u.Calls += int(r.ModelCalls)
		u.PromptTokens += int(r.PromptTokens)
		u.CachedPromptTokens += int(r.CachedPromptTokens)
		u.CompletionTokens += int(r.CompletionTokens)
		u.CostUSD += r.CostUsd
	}
	return u
}

// ResultRead is functionResult/get answered from the class cache: a 304
// (NotModified, Version the client's own) or the result encoded as
// assignment/get sends it, at Version.
type ResultRead struct {
	Version     changes.Version
	NotModified bool
	Result      json.RawMessage
}

// AppendJSON is the read as functionResult/get sends it,
// {"functionResult", "version"}, appended to b (the answer's envelope):
// the bytes encoding/json makes of the same fields in a map.
func (r ResultRead) AppendJSON(b []byte) ([]byte, error) {
	version, err := json.Marshal(r.Version.String())
	if err != nil {
		return nil, fmt.Errorf("encode version: %w", err)
	}
	b = append(b, `{"functionResult":`...)
	b = append(b, r.Result...)
	b = append(b, `,"version":`...)
	b = append(b, version...)
	return append(b, '}'), nil
}

// ReadResult answers the teacher's read of a submission's result from the
// class cache when the class is kept (its page is polling it); ok false
// when it is not, or the result is not in it, or the client's version is
// older than the class kept: the caller reads the database
// (ResultUnchanged, Get). The 304 is ResultUnchanged's: neither the
// result, its submission, the assignment nor its definition changed since
// the If-None-Match version.
func (s *Service) ReadResult(ctx context.Context, a identity.Actor, submissionID, assignmentID uuid.UUID, ifNoneMatch string) (ResultRead, bool, error) {
	if s.NoClassCache {
		return ResultRead{}, false, nil
	}
	st := s.classes.existing(classKey{assignmentID, a.TeamID})
	if st == nil {
		return ResultRead{}, false, nil
	}
	st.mu.RLock()
	loaded := st.at.Snapshot != ""
	st.mu.RUnlock()
	if !loaded { // a result's read does not load its class
		return ResultRead{}, false, nil
	}
	if ok, err := st.ready(ctx, s); !ok || err != nil {
		return ResultRead{}, false, err
	}
	st.mu.RLock()
	at, asg, fn, def := st.at, st.asg, st.fn, st.def
	i := slices.IndexFunc(st.results, func(r store.FunctionResult) bool { return r.SubmissionID == submissionID })
	j := slices.IndexFunc(st.list, func(s submission.Submission) bool { return s.ID == submissionID })
	if at.Snapshot == "" || i < 0 || j < 0 {
		st.mu.RUnlock()
		return ResultRead{}, false, nil
	}
	row, sub := st.results[i], st.list[j]
	client := changes.Pick(time.Now(), ifNoneMatch)
	same, known := false, client.Snapshot == ""
	if !known {
		if seen, err := client.Seen(); err == nil && seen.After(st.born) {
			known = true
			same = seen.Saw(st.asgXid) && seen.Saw(st.fnXid) && (st.rubricAt == nil || seen.After(*st.rubricAt)) &&
				seen.Saw(row.ChangedXid.Uint64) && seen.Saw(sub.Stamp)
		}
	}
	st.mu.RUnlock()
	if !known {
		return ResultRead{}, false, nil
	}
	s.classes.served.Add(1)
	if same {
		return ResultRead{Version: client, NotModified: true}, true, nil
	}
	enc, err := s.encodeRows(ctx, asg, fn, def, []store.FunctionResult{row})
	if err != nil {
		return ResultRead{}, false, err
	}
	return ResultRead{Version: at, Result: enc[0]}, true, nil
}

// note records that rows were read in the class of key.
func (c *classCache) note(key classKey, rows []store.FunctionResult) {
	if c == nil || len(rows) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byResult == nil || len(c.byResult) > 4*classCacheRows*16 {
		c.byResult = map[uuid.UUID]classKey{}
	}
	for _, r := range rows {
		c.byResult[r.ID] = key
	}
}

// holding is the kept class the team's result id was last read in, nil
// when there is none.
func (c *classCache) holding(id, team uuid.UUID) *classState {
	c.mu.Lock()
	defer c.mu.Unlock()
	key, ok := c.byResult[id]
	if !ok || key.team != team {
		return nil
	}
	return c.m[key]
}

// existing is the class of key when one is kept.
func (c *classCache) existing(key classKey) *classState {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.m[key]
	if st != nil {
		st.used.Store(time.Now().UnixNano())
	}
	return st
}
