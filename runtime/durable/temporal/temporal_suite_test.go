package temporal_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestTemporal(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "durable/temporal")
}
