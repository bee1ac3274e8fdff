package ask_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestAsk(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Ask Suite")
}
