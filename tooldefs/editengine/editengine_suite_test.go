package editengine_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestEditengine(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "editengine")
}
