package classify_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/tooldefs/shell/classify"
)

var _ = Describe("FinishOnInterrupt", func() {
	DescribeTable("lets test suites and builds finish and stops the rest",
		func(cmd string, finish bool) {
			Expect(classify.FinishOnInterrupt(cmd)).To(Equal(finish), "command %q", cmd)
		},
		// Test suites and builds: their result is still worth having.
		Entry(nil, "go test ./...", true),
		Entry(nil, "go test -race -run TestX ./pkg", true),
		Entry(nil, "go build ./cmd/agentcore", true),
		Entry(nil, "npm test", true),
		Entry(nil, "npm run test:unit", true),
		Entry(nil, "npm run build", true),
		Entry(nil, "yarn test", true),
		Entry(nil, "pnpm -r test", true),
		Entry(nil, "pytest -x tests/", true),
		Entry(nil, "python -m pytest -q", true),
		Entry(nil, "python3 -m unittest discover", true),
		Entry(nil, "cargo test --workspace", true),
		Entry(nil, "cargo build --release", true),
		Entry(nil, "make test", true),
		Entry(nil, "make", true),
		Entry(nil, "./gradlew test", true),
		Entry(nil, "mvn -q verify", true),
		Entry(nil, "bundle exec rspec spec/models", true),
		Entry(nil, "npx jest --watch=false", true),
		Entry(nil, "uv run pytest", true),
		Entry(nil, "cd web && npm test", true),
		Entry(nil, "timeout 600 go test ./...", true),
		Entry(nil, "timeout -s KILL 600 go test ./...", true),
		Entry(nil, "nice -n 10 cargo build", true),
		Entry(nil, "env CGO_ENABLED=0 go build ./...", true),
		Entry(nil, "CI=1 npm test", true),
		Entry(nil, "time cargo test", true),
		Entry(nil, "go test ./... 2>&1 | tail -20", true),
		// Everything else stops at once.
		Entry(nil, "npm install", false),
		Entry(nil, "npm ci", false),
		Entry(nil, "pip install -r requirements.txt", false),
		Entry(nil, "curl -sSL https://example.com/big.tar.gz -o big.tar.gz", false),
		Entry(nil, "sleep 30", false),
		Entry(nil, "watch -n 1 go test ./...", false),
		Entry(nil, "timeout 5", false),
		Entry(nil, "npm run dev", false),
		Entry(nil, "npm start", false),
		Entry(nil, "go run ./cmd/server", false),
		Entry(nil, "python server.py", false),
		Entry(nil, "cargo run", false),
		Entry(nil, "git clone https://example.com/r.git", false),
		Entry(nil, "ls -la", false),
		Entry(nil, "go", false),
		Entry(nil, "echo go test", false),
		// A command that does not parse keeps the fail-closed answer.
		Entry(nil, "if then fi (", true),
	)
})
