package fspath

// WithinWindows is Within by Windows rules, on any OS.
func WithinWindows(path, root string) bool { return within(path, root, '\\', true) }
