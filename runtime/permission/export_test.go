package permission

// Exported for the external test package.
var (
	MatchCommand = matchCommand
	MatchURL     = matchURL
)

// MatchPath matches a path pattern with the given roots.
func MatchPath(pattern, abs, root, cwd, home string) bool {
	return matchPath(pattern, abs, pathBase{root: root, cwd: cwd, home: home})
}

// MatchWindowsPath matches a path pattern by Windows rules, on any OS.
func MatchWindowsPath(pattern, abs, root, cwd, home string) bool {
	return matchWindowsPath(pattern, abs, pathBase{root: root, cwd: cwd, home: home})
}
