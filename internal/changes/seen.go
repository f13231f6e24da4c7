package changes

// Seen is a version's snapshot, parsed: which transactions a read that
// stood there could see. A class kept in memory (result's class cache)
// compares each row's stamp (the transaction that last wrote it) with it
// to answer a delta without the database.
type Seen struct{ s snapshot }

// Seen parses the version's snapshot.
func (v Version) Seen() (Seen, error) {
	s, err := parseSnapshot(v.Snapshot)
	return Seen{s}, err
}

// Saw says whether a committed transaction xid was visible to the read:
// a row it last wrote was in that read's answer as it is now. A stamp of 0
// (a row last written before stamps existed) was seen by every version.
func (s Seen) Saw(xid uint64) bool { return s.s.visible(xid) }

// After says whether s saw every transaction that had completed when from
// was taken.
func (s Seen) After(from Seen) bool { return s.s.after(from.s) }
