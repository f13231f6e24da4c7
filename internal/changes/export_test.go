package changes

// Heard is the last heartbeat the listener heard: one sent after a write
// committed proves the write's announcement has arrived.
func (c *Clock) Heard() (sent, heard uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.probe, c.heardProbe
}

// PID is the listener's backend.
func (c *Clock) PID() uint32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pid
}
