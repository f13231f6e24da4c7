package result

// ClassesServed is how many class reads s answered from its class cache.
func ClassesServed(s *Service) int64 { return s.classes.served.Load() }
func KeptEdits(s *Service) int64     { return s.classes.kept.Load() }

// SetClassCacheBytes bounds the classes s keeps to n bytes.
func SetClassCacheBytes(s *Service, n int64) { s.classes.max = n }
