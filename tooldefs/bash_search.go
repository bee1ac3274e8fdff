//go:build !ant

package tooldefs

import "github.com/agentcore/agentcore/runtime"

// BashSearchTools is the sentence of Bash's description about the tools
// to use instead of shell commands: in this variant Glob and Grep search
// (the ant variant, which has neither, says grep and find are built in;
// see bash_search_ant.go).
const BashSearchTools = `Prefer the dedicated tools where they exist, they are faster
and easier for the user to review:
- Glob to find files (not find or ls)
- Grep to search contents (not grep or rg)
- Read to read files (not cat, head or tail)
- Edit to change files (not sed or awk)
- Write to create files (not echo > or cat <<EOF)`

// bashSearchPath adds nothing to the PATH of Bash commands here: their
// grep and find are the system's.
func bashSearchPath(*runtime.ToolContext) (string, func(), error) {
	return "", func() {}, nil
}
