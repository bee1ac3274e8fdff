package runtime

// ReadGuard says which paths the permission rules forbid reading: a tool
// that walks directories (Grep, Glob) asks it about every file and
// directory it would visit and leaves out what it denies, so a Read deny
// rule (Read(./secrets/**)) holds for a search over a parent directory
// too. The session registers its permission engine as the ReadGuard
// service (Service[ReadGuard]).
type ReadGuard interface {
	// DeniesRead reports whether a deny rule forbids reading the
	// absolute, resolved path (for a directory: everything beneath it).
	DeniesRead(path string) bool
}
