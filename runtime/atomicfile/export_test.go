package atomicfile

// SetBeforeRename sets the hook Write runs between the complete
// temporary file and the rename.
func SetBeforeRename(f func(tmp string)) { beforeRename = f }
