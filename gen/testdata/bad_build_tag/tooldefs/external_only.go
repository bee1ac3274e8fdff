//go:build external

package tooldefs
