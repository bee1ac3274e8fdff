package notebook_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestNotebook(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "notebook")
}
