package procgroup_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestProcgroup(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "procgroup")
}
