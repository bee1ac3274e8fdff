package provider

import "time"

// SetPreconnectLife changes how long an early connection waits to be
// taken, for a spec; it returns the way back.
func SetPreconnectLife(d time.Duration) (restore func()) {
	old := preconnectLife
	preconnectLife = d
	return func() { preconnectLife = old }
}
