package filetool

// SetBeforeRename sets the hook WriteAtomic runs between the complete
// temporary file and the rename.
func SetBeforeRename(f func(tmp string)) { beforeRename = f }
