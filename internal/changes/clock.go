package changes

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/markwell/markwell/internal/store"
)

// Channel is the PostgreSQL channel every counted change is announced on
// (migration 00025): "<assignment id> <writing transaction's id>".
const Channel = "markwell_changes"

// Heartbeat is how often an idle listener proves its connection alive; a
// listener not heard from for Stale answers nothing from memory.
const (
	Heartbeat = time.Second
	Stale     = 3 * time.Second
	// minProbeGap spaces the heartbeats that this process's writes bring
	// forward.
	minProbeGap = 20 * time.Millisecond
)

// keepXids is how many transaction ids of an assignment's latest changes a
// Clock remembers one by one; older ones are summed up as their maximum.
const keepXids = 8

// maxKnown bounds the assignments whose team a Clock remembers.
const maxKnown = 100_000

// A Clock answers a poll of a class nobody touched without the database:
// it LISTENs to Channel on its own direct connection (not through a
// transaction-pooling PgBouncer, where LISTEN does not work) and remembers,
// per assignment, the transactions that changed it since the connection
// began listening. A poll's version is a snapshot; when every such
// transaction is visible in it, and the snapshot was taken after the
// listener started (so nothing it could miss committed before), nothing
// changed since: a 304, after the team check the Clock remembers from the
// last read that went to the database.
//
// Whatever the Clock cannot vouch for goes to the database (Start): a
// listener that is down, reconnecting or not heard from for Stale; an
// assignment or a result it has not seen read yet; a version from before
// the listener started. A reconnect forgets everything. The only window
// left is a notification's own latency (a write committed a few
// milliseconds before the poll, not yet announced): the poll answers 304
// as if it had come those milliseconds earlier, and, since a 304 leaves the
// client's version where it was, the next poll reports the change.
//
// A nil *Clock is valid and never answers (every poll goes to the database).
type Clock struct {
	mu         sync.Mutex
	live       bool
	heard      time.Time // last time the connection delivered its heartbeat
	pid        uint32    // the listener's backend
	probe      uint64    // the heartbeat it waits for (sent last)
	heardProbe uint64    // the last heartbeat heard
	// mustHear is the first heartbeat sent after this process's latest
	// write: until it is heard, that write's announcement may still be on
	// its way, and polls ask the database (a teacher who saved a result
	// and polls at once must see it, whatever the timing).
	mustHear uint64
	wake     chan struct{}
	answered uint64   // polls answered from memory
	epoch    uint64   // listener sessions started
	gen      uint64   // notifications received (and sessions started)
	from     snapshot // taken just after LISTEN took effect
	asg      map[uuid.UUID]*asgClock
	known    map[uuid.UUID]*knownAsg
	// users is the gen of the latest announcement about each user (a
	// session signed out, a team changed) in this session of the
	// listener; usersFrom is the gen the users' announcements are heard
	// from (the session's start, or when users was last cleared), and
	// hearsUsers whether the database announces them (migration 00026).
	users      map[uuid.UUID]uint64
	usersFrom  uint64
	hearsUsers bool
	now        func() time.Time
}

// asgClock is what a Clock knows of an assignment's changes.
type asgClock struct {
	xids    []uint64 // latest transactions that changed it
	dropped uint64   // the largest one no longer in xids (0 for none)
	gen     uint64   // the Clock's gen at its last notification
	at      time.Time
}

// knownAsg is what the last database read of an assignment said: its team
// and its teams' results per submission asked about.
type knownAsg struct {
	team    uuid.UUID
	results map[uuid.UUID]uuid.UUID
}

// NewClock is a Clock that is not listening yet (Run).
func NewClock() *Clock {
	c := &Clock{now: time.Now, wake: make(chan struct{}, 1)}
	c.forget()
	return c
}

// Run listens on url until ctx ends, reconnecting after any failure (each
// reconnect starts from nothing).
func (c *Clock) Run(ctx context.Context, url string, log *slog.Logger) {
	wait := 100 * time.Millisecond
	for ctx.Err() == nil {
		began := time.Now()
		err := c.listen(ctx, url)
		c.stop()
		if ctx.Err() != nil {
			return
		}
		if time.Since(began) > 10*time.Second {
			wait = 100 * time.Millisecond
		}
		log.Warn("change listener stopped; polls ask the database until it is back", "error", err, "retry_in", wait)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// listen is one listener session: LISTEN, the snapshot it starts from,
// then notifications and heartbeats until the connection fails.
func (c *Clock) listen(ctx context.Context, url string) error {
	cfg, err := pgconn.ParseConfig(url)
	if err != nil {
		return fmt.Errorf("change listener: %w", err)
	}
	if cfg.RuntimeParams["application_name"] == "" {
		cfg.RuntimeParams["application_name"] = "markwell-changes"
	}
	cfg.OnNotification = func(_ *pgconn.PgConn, n *pgconn.Notification) {
		if n.Channel == Channel {
			c.note(n.Payload)
		}
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	conn, err := pgconn.ConnectConfig(cctx, cfg)
	cancel()
	if err != nil {
		return fmt.Errorf("change listener: connect: %w", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+Channel).ReadAll(); err != nil {
		return fmt.Errorf("change listener: listen: %w", err)
	}
	// LISTEN took effect when its statement committed: every transaction
	// visible to a snapshot taken now either committed before (and is
	// visible to every later snapshot) or is announced to us. A database
	// without migration 00025 announces nothing: not to be listened to.
	res, err := conn.Exec(ctx, "SELECT pg_current_snapshot()::text, to_regproc('notify_rubric_changed') IS NOT NULL, "+
		"to_regproc('notify_user_changed') IS NOT NULL").ReadAll()
	if err != nil {
		return fmt.Errorf("change listener: snapshot: %w", err)
	}
	if len(res) != 1 || len(res[0].Rows) != 1 || len(res[0].Rows[0]) != 3 {
		return errors.New("change listener: snapshot: no row")
	}
	if string(res[0].Rows[0][1]) != "t" {
		return errors.New("change listener: the database does not announce changes yet (migration 00025)")
	}
	from, err := parseSnapshot(string(res[0].Rows[0][0]))
	if err != nil {
		return fmt.Errorf("change listener: snapshot: %w", err)
	}
	c.begin(from, conn.PID(), string(res[0].Rows[0][2]) == "t")
	var probe uint64
	for {
		// The heartbeat is a notification to ourselves: heard back, it
		// proves the connection delivers what is announced (through a
		// transaction-pooling PgBouncer it mostly would not), and that
		// everything announced before it has arrived. Until the first is
		// heard, nothing is answered from memory.
		probe++
		c.expect(probe)
		pctx, cancel := context.WithTimeout(ctx, Stale)
		_, err = conn.Exec(pctx, "SELECT pg_notify('"+Channel+"', '"+probeText(conn.PID(), probe)+"')").ReadAll()
		cancel()
		if err != nil {
			return fmt.Errorf("change listener: heartbeat: %w", err)
		}
		if err := c.await(ctx, conn, time.Now()); err != nil {
			return err
		}
	}
}

// await hears notifications until the next heartbeat is due: Heartbeat
// after sent, or sooner when a write of ours asks for one (Wrote). One
// wait and one watcher serve every notification of the period, so a busy
// channel costs a wakeup per notification and no more.
func (c *Clock) await(ctx context.Context, conn *pgconn.PgConn, sent time.Time) error {
	wctx, cancel := context.WithDeadline(ctx, sent.Add(Heartbeat))
	defer cancel()
	var woken atomic.Bool
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-c.wake:
			woken.Store(true)
			time.Sleep(time.Until(sent.Add(minProbeGap)))
			cancel()
		case <-wctx.Done():
		}
	}()
	for {
		err := conn.WaitForNotification(wctx) // OnNotification notes it
		if err == nil {
			continue
		}
		cancel()
		<-watched
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if conn.IsClosed() || !woken.Load() && !pgconn.Timeout(err) {
			return fmt.Errorf("change listener: %w", err)
		}
		return nil // the next heartbeat now
	}
}

// begin starts a listener session from the snapshot from, on the
// backend pid.
func (c *Clock) begin(from snapshot, pid uint32, hearsUsers bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pid, c.probe, c.heardProbe, c.mustHear = pid, 0, 0, 0
	c.epoch++
	c.gen++
	c.from, c.hearsUsers = from, hearsUsers
	c.forget()
	c.live, c.heard = true, time.Time{} // live once its first heartbeat is heard
}

// stop forgets everything: the listener is down.
func (c *Clock) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.live = false
	c.gen++
	c.forget()
}

// forget drops what the Clock remembers of assignments and users; users'
// announcements count from the current gen. Called with c.mu held.
func (c *Clock) forget() {
	c.asg = map[uuid.UUID]*asgClock{}
	c.known = map[uuid.UUID]*knownAsg{}
	c.users, c.usersFrom = map[uuid.UUID]uint64{}, c.gen
}

// probeText is the payload of a listener's heartbeat.
func probeText(pid uint32, n uint64) string {
	return "probe " + strconv.FormatUint(uint64(pid), 10) + " " + strconv.FormatUint(n, 10)
}

// expect notes the heartbeat the listener is about to send.
func (c *Clock) expect(n uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.probe = n
}

// alive notes that the connection delivered its heartbeat, and forgets
// the changes too old for any usable version not to have seen them.
// Called with c.mu held.
func (c *Clock) alive() {
	now := c.now()
	c.heard = now
	for id, a := range c.asg {
		if now.Sub(a.at) > MaxAge+2*time.Minute {
			delete(c.asg, id)
		}
	}
}

// Live says whether the Clock may answer now.
func (c *Clock) Live() bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.liveLocked()
}

func (c *Clock) liveLocked() bool {
	return c.heardRecently() && c.heardProbe >= c.mustHear
}

// Answered is how many polls the Clock has answered from memory (Start),
// or vouched for a class kept in memory (Current).
func (c *Clock) Answered() uint64 {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.answered
}

// Wrote says this process has just committed a write (an API request that
// was not a polled read has finished): polls ask the database until a
// heartbeat sent after it is heard, which the listener sends at once.
func (c *Clock) Wrote() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.mustHear = c.probe + 1
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// note records one notification's payload.
func (c *Clock) note(payload string) {
	idText, xidText, ok := strings.Cut(payload, " ")
	c.mu.Lock()
	defer c.mu.Unlock()
	if idText == "probe" { // a listener's heartbeat: ours proves we hear
		if xidText == probeText(c.pid, c.probe)[len("probe "):] {
			c.heardProbe = c.probe
			c.alive()
		}
		return
	}
	c.gen++
	if idText == "user" { // a user or their session changed (00026)
		if id, err := uuid.Parse(xidText); err == nil {
			if len(c.users) >= maxKnown {
				c.users, c.usersFrom = map[uuid.UUID]uint64{}, c.gen
			}
			c.users[id] = c.gen
			return
		}
	}
	id, err1 := uuid.Parse(idText)
	xid, err2 := strconv.ParseUint(xidText, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		// Not ours to read: trust nothing remembered.
		c.forget()
		c.from = snapshot{xmin: ^uint64(0), xmax: ^uint64(0)}
		return
	}
	a := c.asg[id]
	if a == nil {
		a = &asgClock{}
		c.asg[id] = a
	}
	if !slices.Contains(a.xids, xid) {
		a.xids = append(a.xids, xid)
		if len(a.xids) > keepXids {
			a.dropped = max(a.dropped, a.xids[0])
			a.xids = slices.Delete(a.xids, 0, 1)
		}
	}
	a.gen, a.at = c.gen, c.now()
	delete(c.known, id) // its team or results are read again
}

// unchanged answers a poll from memory when it can: known says whether it
// could, inTeam whether the assignment is the team's and resultID the
// team's result of submissionID (uuid.Nil asks none). With known and
// inTeam, nothing changed in the assignment since the version: a 304.
func (c *Clock) unchanged(teamID, assignmentID, submissionID uuid.UUID, since Version) (inTeam bool, resultID uuid.UUID, known bool) {
	if c == nil || since.Snapshot == "" {
		return false, uuid.Nil, false
	}
	snap, err := parseSnapshot(since.Snapshot)
	if err != nil {
		return false, uuid.Nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.liveLocked() {
		return false, uuid.Nil, false
	}
	k := c.known[assignmentID]
	if k == nil {
		return false, uuid.Nil, false
	}
	if k.team != teamID {
		return false, uuid.Nil, true // another team's: not found, whatever the version
	}
	if submissionID != uuid.Nil {
		if resultID, ok := k.results[submissionID]; !ok {
			return false, uuid.Nil, false
		} else if resultID == uuid.Nil {
			return false, uuid.Nil, true // no result of the team's: not found
		} else if !c.sees(snap, assignmentID) {
			return false, uuid.Nil, false
		} else {
			return true, resultID, true
		}
	}
	if !c.sees(snap, assignmentID) {
		return false, uuid.Nil, false
	}
	return true, uuid.Nil, true
}

// sees says whether snap saw every change to the assignment the listener
// could have missed or heard of: it was taken after the listener started,
// and every announced transaction is visible in it.
func (c *Clock) sees(snap snapshot, assignmentID uuid.UUID) bool {
	if !snap.after(c.from) {
		return false
	}
	a := c.asg[assignmentID]
	if a == nil {
		return true
	}
	if a.dropped != 0 && a.dropped >= snap.xmin {
		return false
	}
	for _, x := range a.xids {
		if !snap.visible(x) {
			return false
		}
	}
	return true
}

// mark is where a database read of an assignment starts: remember
// returns what it learnt only if nothing about the assignment was
// announced in between.
type mark struct{ epoch, gen uint64 }

func (c *Clock) mark() mark {
	if c == nil {
		return mark{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return mark{c.epoch, c.gen}
}

// remember records what a database read begun at m said about the
// assignment: its team (when it is the team's, teamID) and the team's
// result of submissionID. A read of another team's assignment records
// nothing: it cannot say whose it is.
func (c *Clock) remember(m mark, teamID, assignmentID, submissionID uuid.UUID, r Read) {
	if c == nil || !r.InTeam {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.live || c.epoch != m.epoch {
		return
	}
	if a := c.asg[assignmentID]; a != nil && a.gen > m.gen {
		return
	}
	k := c.known[assignmentID]
	if k == nil {
		if len(c.known) >= maxKnown {
			c.known = map[uuid.UUID]*knownAsg{}
		}
		k = &knownAsg{team: teamID, results: map[uuid.UUID]uuid.UUID{}}
		c.known[assignmentID] = k
	}
	if k.team != teamID {
		return
	}
	if submissionID != uuid.Nil && len(k.results) < 10_000 {
		k.results[submissionID] = r.ResultID
	}
}

// Start is changes.Start answered from memory when the Clock can vouch
// that nothing changed since the client's version (a 304 without the
// database), from the database otherwise.
func (c *Clock) Start(ctx context.Context, db store.DBTX, teamID, assignmentID, submissionID uuid.UUID, since Version) (Read, error) {
	if inTeam, resultID, known := c.unchanged(teamID, assignmentID, submissionID, since); known {
		c.mu.Lock()
		c.answered++
		c.mu.Unlock()
		if !inTeam {
			return Read{}, nil
		}
		return Read{Now: since, InTeam: true, ResultID: resultID, Since: since}, nil
	}
	m := c.mark()
	r, err := Start(ctx, db, teamID, assignmentID, submissionID, since)
	if err == nil {
		c.remember(m, teamID, assignmentID, submissionID, r)
	}
	return r, err
}

// snapshot is a pg_snapshot: xmin, xmax and the ids in progress.
type snapshot struct {
	xmin, xmax uint64
	xip        []uint64
}

func parseSnapshot(s string) (snapshot, error) {
	parts := strings.SplitN(s, ":", 3)
	if len(parts) != 3 {
		return snapshot{}, ErrBadVersion
	}
	var sn snapshot
	var err error
	if sn.xmin, err = strconv.ParseUint(parts[0], 10, 64); err != nil {
		return snapshot{}, ErrBadVersion
	}
	if sn.xmax, err = strconv.ParseUint(parts[1], 10, 64); err != nil || sn.xmax < sn.xmin {
		return snapshot{}, ErrBadVersion
	}
	if parts[2] != "" {
		for _, p := range strings.Split(parts[2], ",") {
			x, err := strconv.ParseUint(p, 10, 64)
			if err != nil {
				return snapshot{}, ErrBadVersion
			}
			sn.xip = append(sn.xip, x)
		}
	}
	return sn, nil
}

// visible says whether a committed transaction x is visible in s.
func (s snapshot) visible(x uint64) bool {
	if x < s.xmin {
		return true
	}
	return x < s.xmax && !slices.Contains(s.xip, x)
}

// after says whether s sees every transaction that had completed when
// from was taken: from's xmax is within s's, and whatever s still saw in
// progress below it was in progress for from too.
func (s snapshot) after(from snapshot) bool {
	if from.xmax > s.xmax {
		return false
	}
	for _, x := range s.xip {
		if x >= from.xmax {
			break
		}
		if x < from.xmin || !slices.Contains(from.xip, x) {
			return false
		}
	}
	return true
}

// Current says whether the Clock can vouch that nothing changed in the
// assignment since at (a version a read of this process stood at): the
// same test as a 304 from memory (live, at taken after the listener
// started, every announced change visible in it). A nil Clock never can.
func (c *Clock) Current(assignmentID uuid.UUID, at Version) bool {
	if c == nil || at.Snapshot == "" {
		return false
	}
	snap, err := parseSnapshot(at.Snapshot)
	if err != nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.liveLocked() && c.sees(snap, assignmentID) {
		c.answered++
		return true
	}
	return false
}

// UserMark is where a lookup of a user's session begins, to pass to
// UserSince once the lookup has read it; 0 when the Clock cannot
// vouch for users (not listening, or a database that does not announce
// them).
func (c *Clock) UserMark() uint64 {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.hearsUsers || !c.heardRecently() {
		return 0
	}
	return c.gen
}

// UserSince says what the Clock knows of the user since mark (UserMark,
// taken before the database was read): heard, whether it can tell (the
// listener is heard, in the session mark was taken in), and changed,
// whether a sign-out, team change or other change of the user or their
// sessions was announced since. The only window is a notification's own
// latency, as for a 304 from memory.
func (c *Clock) UserSince(userID uuid.UUID, mark uint64) (changed, heard bool) {
	if c == nil || mark == 0 {
		return false, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.hearsUsers || !c.heardRecently() || mark < c.usersFrom {
		return false, false
	}
	return c.users[userID] > mark, true
}

// heardRecently says whether the listener is up and its heartbeat was
// heard within Stale (never before its first). Unlike liveLocked it does
// not wait for this process's own writes to be heard: the writes that
// change a session forget it here themselves (auth). Called with c.mu held.
func (c *Clock) heardRecently() bool {
	return c.live && c.now().Sub(c.heard) < Stale
}
