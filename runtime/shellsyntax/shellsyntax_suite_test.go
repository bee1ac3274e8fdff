package shellsyntax_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestShellsyntax(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Shellsyntax Suite")
}
