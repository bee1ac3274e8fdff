// Package vault is reached from the Secret tool only through secretstore.
package vault

// Open returns the value.
func Open() int { return 42 }
