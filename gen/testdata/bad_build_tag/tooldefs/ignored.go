//go:build ignore

package tooldefs
