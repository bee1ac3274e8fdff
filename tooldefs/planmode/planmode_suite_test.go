package planmode_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestPlanmode(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "planmode")
}
