// Package tooldefs has no tools yet: toolgen still writes registries that
// compile and return no tools.
package tooldefs
