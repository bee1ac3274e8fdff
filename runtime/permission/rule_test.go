package permission_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/permission"
)

var _ = Describe("rules", func() {
	DescribeTable("ParseRule",
		func(in, tool, content string) {
			r, err := permission.ParseRule(in, runtime.Allow)
			Expect(err).NotTo(HaveOccurred())
			Expect(r.Tool).To(Equal(tool))
			Expect(r.Content).To(Equal(content))
		},
		Entry("whole tool", "Bash", "Bash", ""),
		Entry("empty parentheses", "Bash()", "Bash", ""),
		Entry("star is the whole tool", "Bash(*)", "Bash", ""),
		Entry("prefix rule", "Bash(npm run test:*)", "Bash", "npm run test:*"),
		Entry("spaces around", "  Read(./secrets/**)  ", "Read", "./secrets/**"),
		Entry("domain", "WebFetch(domain:example.com)", "WebFetch", "domain:example.com"),
		Entry("mcp server", "mcp__github", "mcp__github", ""),
		Entry("mcp server wildcard", "mcp__github__*", "mcp__github__*", ""),
		Entry("mcp tool", "mcp__github__get_issue", "mcp__github__get_issue", ""),
		Entry("nested parentheses", `Bash(echo "(hi)")`, "Bash", `echo "(hi)"`),
		Entry("escaped parentheses", `Bash(echo \))`, "Bash", `echo )`),
	)

	DescribeTable("ParseRule errors",
		func(in string) {
			_, err := permission.ParseRule(in, runtime.Deny)
			Expect(err).To(HaveOccurred())
			Expect(err.Error()).To(ContainSubstring("rule"))
		},
		Entry("empty", ""),
		Entry("no closing parenthesis", "Bash(git status"),
		Entry("text after the group", "Bash(git) x"),
		Entry("no tool name", "(git status)"),
		Entry("bad characters", "Ba sh"),
		Entry("stray close", "Bash)"),
		Entry("star in a built-in name", "Ba*"),
	)

	It("renders rules back in Claude Code's syntax", func() {
		for _, s := range []string{"Bash", "Bash(npm run test:*)", "Read(./secrets/**)", "mcp__x__*"} {
			r, err := permission.ParseRule(s, runtime.Allow)
			Expect(err).NotTo(HaveOccurred())
			Expect(r.String()).To(Equal(s))
		}
	})

	DescribeTable("SplitRuleList",
		func(in string, want []string) {
			Expect(permission.SplitRuleList(in)).To(Equal(want))
		},
		Entry("spaces inside parentheses stay", "Bash(git log:*) Bash(git diff:*)", []string{"Bash(git log:*)", "Bash(git diff:*)"}),
		Entry("commas", "Read,Edit, Bash(npm run test:*)", []string{"Read", "Edit", "Bash(npm run test:*)"}),
		Entry("commas inside parentheses stay", "Bash(echo a,b)", []string{"Bash(echo a,b)"}),
		Entry("empty", "  ", []string(nil)),
	)

	DescribeTable("command patterns",
		func(pattern, cmd string, want bool) {
			Expect(permission.MatchCommand(pattern, cmd)).To(Equal(want))
		},
		Entry("legacy prefix, bare", "npm run test:*", "npm run test", true),
		Entry("legacy prefix, arguments", "npm run test:*", "npm run test --watch", true),
		Entry("legacy prefix, word boundary", "npm run test:*", "npm run testing", false),
		Entry("exact", "npm install", "npm install", true),
		Entry("exact refuses more", "npm install", "npm install left-pad", false),
		Entry("wildcard middle", "git * main", "git checkout main", true),
		Entry("wildcard middle refuses", "git * main", "git checkout dev", false),
		Entry("trailing space-star optional", "ls *", "ls", true),
		Entry("trailing space-star boundary", "ls *", "lsof", false),
		Entry("glued star", "ls*", "lsof", true),
		Entry("leading star", "* install", "pnpm install", true),
		Entry("escaped star is literal", `echo \*`, "echo *", true),
		Entry("escaped star is not a wildcard", `echo \*`, "echo x", false),
		Entry("multi-line command with star", "echo *", "echo a\nb", true),
	)

	DescribeTable("path patterns",
		func(pattern, path string, want bool) {
			root, cwd, home := "/proj", "/proj/sub", "/home/u"
			Expect(permission.MatchPath(pattern, path, root, cwd, home)).To(Equal(want))
		},
		Entry("// is the file-system root", "//etc/**", "/etc/passwd", true),
		Entry("~/ is home", "~/.ssh/**", "/home/u/.ssh/id_rsa", true),
		Entry("/ is the project root", "/src/**", "/proj/src/a/b.go", true),
		Entry("/ is not the file-system root", "/src/**", "/src/a.go", false),
		Entry("./ is the start directory", "./secrets/**", "/proj/sub/secrets/k", true),
		Entry("./ does not reach the project root", "./secrets/**", "/proj/secrets/k", false),
		Entry("star matches an empty name, as in gitignore", "*.env", "/proj/sub/a/b/.env", true),
		Entry("no slash matches names at any depth", "*.env", "/proj/sub/a/b/prod.env", true),
		Entry("dotfile at depth", ".env", "/proj/sub/a/.env", true),
		Entry("a directory covers its contents", "secrets", "/proj/sub/secrets/a/b", true),
		Entry("dir-only pattern", "build/", "/proj/sub/build/out.o", true),
		Entry("anchored relative pattern", "src/*.go", "/proj/sub/src/a.go", true),
		Entry("anchored relative pattern, not deeper", "src/*.go", "/proj/sub/x/src/a.go", false),
		Entry("outside the base", "src/**", "/elsewhere/src/a.go", false),
		Entry("double star", "//**/id_rsa", "/a/b/c/id_rsa", true),
	)

	// Windows paths, matched by the Windows rules on every OS.
	DescribeTable("Windows path patterns",
		func(pattern, path string, want bool) {
			root, cwd, home := `C:\proj`, `C:\proj\sub`, `C:\Users\u`
			Expect(permission.MatchWindowsPath(pattern, path, root, cwd, home)).To(Equal(want))
		},
		Entry("// and the drive letter, as in Claude Code", "//c/**/.env", `C:\any\where\.env`, true),
		Entry("another drive", "//d/**/.env", `C:\any\where\.env`, false),
		Entry("a drive path with backslashes", `C:\Windows\**`, `C:\Windows\System32\x.dll`, true),
		Entry("a drive path with slashes", `c:/windows/**`, `C:\Windows\System32\x.dll`, true),
		Entry("a drive path elsewhere", `C:\Windows\**`, `C:\Users\u\x`, false),
		Entry("names are case-insensitive", "/SRC/**", `C:\Proj\src\A.go`, true),
		Entry("extension case-insensitive", "*.ENV", `C:\proj\sub\prod.env`, true),
		Entry("/ is the project root", "/src/**", `C:\proj\src\a\b.go`, true),
		Entry("/ is not the drive root", "/src/**", `C:\src\a.go`, false),
		Entry("./ is the start directory", "./secrets/**", `C:\proj\sub\secrets\k`, true),
		Entry("a relative pattern with backslashes", `src\*.go`, `C:\proj\sub\src\a.go`, true),
		Entry("~/ is home", "~/.ssh/**", `C:\Users\U\.ssh\id_rsa`, true),
		Entry("~\\ is home too", `~\.ssh\**`, `C:\Users\u\.ssh\id_rsa`, true),
		Entry("a dir-only drive path", `C:\proj\build\`, `C:\proj\build\out.o`, true),
		Entry("a dir-only drive path is not a file", `C:\proj\build\`, `C:\proj\build`, false),
		Entry("a UNC path", "//server/share/**", `\\server\share\a.txt`, true),
		Entry("a UNC path, other share", "//server/share/**", `\\server\other\a.txt`, false),
		Entry("a prefix is not a parent", `C:\pro\**`, `C:\proj\a`, false),
		Entry("outside the base", "src/**", `D:\proj\sub\src\a.go`, false),
	)

	DescribeTable("URL patterns",
		func(pattern, u string, want bool) {
			Expect(permission.MatchURL(pattern, u)).To(Equal(want))
		},
		Entry("domain", "domain:example.com", "https://example.com/a", true),
		Entry("domain is case-insensitive", "domain:Example.com", "https://EXAMPLE.com/a", true),
		Entry("other domain", "domain:example.com", "https://example.org/", false),
		Entry("suffix is not a subdomain", "domain:example.com", "https://evilexample.com/", false),
		Entry("subdomain is not the domain", "domain:example.com", "https://api.example.com/", false),
		Entry("wildcard subdomain", "domain:*.example.com", "https://api.example.com/", true),
		Entry("userinfo trick", "domain:example.com", "https://example.com@evil.com/", false),
		Entry("not a URL", "domain:example.com", "::", false),
	)
})
