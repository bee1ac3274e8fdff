package lsp_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/gomega"
)

// fixture is a small Go module the specs ask gopls about. Lines matter:
// the specs point at them.
var fixture = map[string]string{
	"go.mod": "module example.com/fix\n\ngo 1.26\n",
	"shapes.go": `package fix

// Shape is anything with an area.
type Shape interface {
	Area() float64
}

// Square is a Shape.
type Square struct{ Side float64 }

// Area is the square's area.
func (s Square) Area() float64 { return s.Side * s.Side }

// Total sums the areas of shapes.
func Total(shapes []Shape) float64 {
	var t float64
	for _, s := range shapes {
		t += s.Area()
	}
	return t
}
`,
	"use.go": `package fix

// Report returns the total area of two squares.
func Report() float64 {
	return Total([]Shape{Square{1}, Square{2}})
}

// Twice calls Report twice.
func Twice() float64 { return Report() + Report() }
`,
	"notes.txt": "not code\n",
}

// writeFixture writes the module into dir.
func writeFixture(dir string) {
	for name, text := range fixture {
		Expect(os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)).To(Succeed())
	}
}
