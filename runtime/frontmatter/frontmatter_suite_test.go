package frontmatter_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestFrontmatter(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "frontmatter")
}
