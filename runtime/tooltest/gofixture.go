package tooltest

import (
	"os"
	"path/filepath"
)

// GoFixture is a small Go module (an interface, a type implementing it,
// functions calling each other, and a file that is not Go) that the
// language-server specs ask gopls about. Lines matter: the specs point
// at them.
var GoFixture = map[string]string{
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

// WriteFiles writes files (name → content) into dir.
func WriteFiles(dir string, files map[string]string) error {
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}
