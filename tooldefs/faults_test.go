//go:build linux

package tooldefs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/pool"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// The fault specs drive the real tools through a session, as the model
// would call them: each fault must end in one clear is_error result, and
// the next call must work.
var _ = Describe("tools under faults, through a session", Label("faults"), func() {
	var (
		dir string
		s   *session.Session
	)
	open := func() {
		home := GinkgoT().TempDir()
		var err error
		s, err = session.Open(context.Background(), session.Options{
			Dir: dir, Home: home, Tools: generated.AllBaseTools(),
			Permissions: permission.Sources{Mode: permission.ModeBypass, ConfigDir: filepath.Join(home, ".agentcore")},
			Pool:        pool.Options{Defer: pool.DeferMode{Kind: pool.DeferNever}},
		})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
	}
	exec := func(name string, input any) runtime.Result {
		raw, err := json.Marshal(input)
		Expect(err).NotTo(HaveOccurred())
		var res *runtime.Result
		for ev := range s.Exec(context.Background(), []orchestrate.ToolUse{{ID: "toolu_" + name, Name: name, Input: raw}}) {
			if ev.Kind == orchestrate.EventResult {
				r := ev.Result
				res = &r
			}
		}
		Expect(res).NotTo(BeNil(), "no result for %s", name)
		return *res
	}

	It("cuts a hung Bash command at its timeout, kills its whole process group (a child ignoring SIGTERM included), and the next call works", func() {
		var err error
		dir, err = filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		open()
		res := exec("Bash", map[string]any{
			"command": `echo $$; bash -c 'trap "" TERM; echo $$; sleep 1000' & sleep 1000`,
			"timeout": 500,
		})
		Expect(res.IsError).To(BeTrue())
		Expect(res.Text()).To(ContainSubstring("Command timed out after 500 ms"))
		lines := strings.Fields(res.Text())
		pgid, err := strconv.Atoi(lines[0])
		Expect(err).NotTo(HaveOccurred(), res.Text())
		// By the time the result is there, nothing of the group is alive:
		// the shell, the sleeps, and the child that ignored SIGTERM.
		Expect(tooltest.GroupMembers(pgid)).To(BeEmpty())

		res = exec("Bash", map[string]any{"command": "echo next"})
		Expect(res.IsError).To(BeFalse(), res.Text())
		Expect(res.Text()).To(ContainSubstring("next"))
	})

	It("answers a Write that fails midway on a full disk with a clear error, the file byte-identical, no temporary file, and writes once there is room", func() {
		dir = GinkgoT().TempDir()
		if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
			// tooldefs/filetool's specs run the same fault in a child
			// process, without privileges.
			tooltest.Missing(tooltest.Root, "mounting a tmpfs needs root or CAP_SYS_ADMIN here ("+err.Error()+"); the filetool fault specs cover the full disk in a private mount namespace and by RLIMIT_FSIZE")
		}
		DeferCleanup(func() { Expect(syscall.Unmount(dir, syscall.MNT_DETACH)).To(Succeed()) })
		path := filepath.Join(dir, "f.txt")
		original := bytes.Repeat([]byte("keep me exactly as I am\n"), 40)
		Expect(os.WriteFile(path, original, 0o644)).To(Succeed())
		filler, err := os.Create(filepath.Join(dir, "filler"))
		Expect(err).NotTo(HaveOccurred())
		for {
			if _, err := filler.Write(make([]byte, 4096)); err != nil {
				Expect(errors.Is(err, syscall.ENOSPC)).To(BeTrue(), "%v", err)
				break
			}
		}
		fi, err := filler.Stat()
		Expect(err).NotTo(HaveOccurred())
		Expect(filler.Truncate(fi.Size() - 16<<10)).To(Succeed())
		Expect(filler.Close()).To(Succeed())
		open()

		Expect(exec("Read", map[string]any{"file_path": path}).IsError).To(BeFalse())
		res := exec("Write", map[string]any{"file_path": path, "content": strings.Repeat("new content\n", 4096)})
		Expect(res.IsError).To(BeTrue())
		Expect(res.Text()).To(ContainSubstring("write " + path + ": no space left on device: the file is unchanged; free some space and write it again"))
		Expect(os.ReadFile(path)).To(Equal(original))
		es, err := os.ReadDir(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(es).To(HaveLen(2), "f.txt and filler, no temporary file")

		// The session goes on: its file state agrees that nothing changed
		// (a second Read is answered from the first), and once there is
		// room the same write goes through.
		read := exec("Read", map[string]any{"file_path": path})
		Expect(read.IsError).To(BeFalse(), read.Text())
		Expect(read.Text()).To(HavePrefix("File unchanged since last read"))
		Expect(os.Remove(filepath.Join(dir, "filler"))).To(Succeed())
		res = exec("Write", map[string]any{"file_path": path, "content": strings.Repeat("new content\n", 4096)})
		Expect(res.IsError).To(BeFalse(), res.Text())
		Expect(os.ReadFile(path)).To(HaveLen(12 * 4096))
	})
})
