package structured_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestStructured(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "structured")
}
