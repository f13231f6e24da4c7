package auth

// SetAfterLookup makes s call f after each session lookup has read the
// database and before it remembers what it read.
func SetAfterLookup(s *Service, f func()) { s.afterLookup = f }
