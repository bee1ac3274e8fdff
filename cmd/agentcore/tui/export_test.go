package tui

// Printed is the transcript's source text printed so far, a block each
// (what a resize prints again).
func (m *Model) Printed() []string {
	out := make([]string, len(m.blocks))
	for i, b := range m.blocks {
		out[i] = b.text
	}
	return out
}
