package sandbox

// sandboxUnsupported is nil: bubblewrap confines commands on Linux.
func sandboxUnsupported() error { return nil }

// useSeatbelt is false: Linux confines with bubblewrap.
const useSeatbelt = false
