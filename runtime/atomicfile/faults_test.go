//go:build linux

package atomicfile_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"

	"github.com/agentcore/agentcore/runtime/atomicfile"
)

// The fault specs run this test binary again as a child (TestMain calls
// faultChild) to write under a fault a test process cannot safely put on
// itself: a file-size limit, a private full tmpfs, a SIGKILL before the
// rename.
const (
	faultDirEnv  = "ATOMICFILE_FAULT_DIR"
	faultSizeEnv = "ATOMICFILE_FAULT_SIZE"
)

func init() { faultChildMain = faultChild }

// faultReport is what a child tells the spec, as JSON on stdout.
type faultReport struct {
	Err       string   // Write's error under the fault
	Intact    bool     // the original is byte-identical afterwards
	Entries   []string // the directory afterwards
	RetryErr  string   // a second write once the fault is gone
	RetryGood bool     // the second write's content is in place
}

var (
	original = bytes.Repeat([]byte("original line, byte-identical or bust\n"), 27) // 1026 bytes
	bigger   = bytes.Repeat([]byte("N"), 48<<10)
)

func listDir(dir string) []string {
	es, _ := os.ReadDir(dir)
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// faultChild runs in the child process; its exit status is 0 when it
// could report, 3 when setting up the fault failed.
func faultChild(mode string) int {
	dir := os.Getenv(faultDirEnv)
	path := filepath.Join(dir, "f.txt")
	fail := func(err error) int { fmt.Fprintln(os.Stderr, "fault child:", err); return 3 }
	report := func(r faultReport) int {
		_ = json.NewEncoder(os.Stdout).Encode(r)
		return 0
	}
	switch mode {
	case "rlimit":
		limit, err := strconv.ParseUint(os.Getenv(faultSizeEnv), 10, 64)
		if err != nil {
			return fail(err)
		}
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
			return fail(err)
		}
		var r faultReport
		if err := atomicfile.Write(path, bigger, 0); err != nil {
			r.Err = err.Error()
		}
		return report(r)
	case "tmpfs":
		// The child is alone in a mount namespace (unshare): the tmpfs
		// goes away with it.
		if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
			return fail(fmt.Errorf("mount tmpfs: %w", err))
		}
		if err := os.WriteFile(path, original, 0o644); err != nil {
			return fail(err)
		}
		// Fill the filesystem, then free 16 KiB: the 48 KiB write gets
		// a third of the way and meets ENOSPC.
		filler, err := os.Create(filepath.Join(dir, "filler"))
		if err != nil {
			return fail(err)
		}
		chunk := make([]byte, 4096)
		for {
			if _, err := filler.Write(chunk); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					return fail(err)
				}
				break
			}
		}
		fi, _ := filler.Stat()
		if err := filler.Truncate(fi.Size() - 16<<10); err != nil {
			return fail(err)
		}
		filler.Close()
		var r faultReport
		if err := atomicfile.Write(path, bigger, 0); err != nil {
			r.Err = err.Error()
		}
		got, _ := os.ReadFile(path)
		r.Intact = bytes.Equal(got, original)
		r.Entries = listDir(dir)
		// The space comes back: the next write works.
		_ = os.Remove(filepath.Join(dir, "filler"))
		if err := atomicfile.Write(path, bigger, 0); err != nil {
			r.RetryErr = err.Error()
		}
		got, _ = os.ReadFile(path)
		r.RetryGood = bytes.Equal(got, bigger)
		return report(r)
	case "kill":
		atomicfile.SetBeforeRename(func(tmp string) {
			fmt.Println(tmp)
			time.Sleep(time.Hour) // the spec kills the process here
		})
		if err := atomicfile.Write(path, bigger, 0); err != nil {
			return fail(err)
		}
		return fail(errors.New("the write finished: the hook did not hold it"))
	}
	return fail(fmt.Errorf("unknown mode %q", mode))
}

var _ = Describe("atomicfile.Write under faults", Label("faults"), func() {
	var dir, path string
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		path = filepath.Join(dir, "f.txt")
	})

	child := func(mode string, wrap ...string) *exec.Cmd {
		self, err := os.Executable()
		Expect(err).NotTo(HaveOccurred())
		args := append(wrap, self)
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = append(os.Environ(), faultChildEnv+"="+mode, faultDirEnv+"="+dir, faultSizeEnv+"=16384")
		return cmd
	}
	run := func(cmd *exec.Cmd) faultReport {
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred(), "fault child: %s", stderr.String())
		var r faultReport
		Expect(json.Unmarshal(out, &r)).To(Succeed(), string(out))
		return r
	}

	It("stops at a file-size limit (RLIMIT_FSIZE) with a clear error, the original byte-identical and no temporary file", func() {
		Expect(os.WriteFile(path, original, 0o644)).To(Succeed())
		r := run(child("rlimit"))
		Expect(r.Err).To(Equal("write " + path + ": file too large: the file is unchanged; the process's file-size limit (ulimit -f) is smaller than the new content"))
		Expect(os.ReadFile(path)).To(Equal(original))
		Expect(listDir(dir)).To(Equal([]string{"f.txt"}))
		// Without the limit (this process), the same write goes through.
		Expect(atomicfile.Write(path, bigger, 0)).To(Succeed())
		Expect(os.ReadFile(path)).To(Equal(bigger))
	})

	It("fails midway on a full tmpfs with a clear error, the original byte-identical, no temporary file, and writes again once there is room", func() {
		unshare := tooltest.Need(tooltest.Userns)
		wrap := []string{unshare, "--mount"}
		if os.Geteuid() != 0 {
			wrap = append(wrap, "--map-root-user")
		}
		cmd := child("tmpfs", wrap...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil && strings.Contains(stderr.String(), "unshare failed") {
			tooltest.Missing(tooltest.Userns, "the kernel refuses a private mount namespace here ("+strings.TrimSpace(stderr.String())+"); the RLIMIT_FSIZE spec covers a write that fails midway")
		}
		Expect(err).NotTo(HaveOccurred(), "fault child: %s", stderr.String())
		var r faultReport
		Expect(json.Unmarshal(out, &r)).To(Succeed(), string(out))
		Expect(r.Err).To(Equal("write " + path + ": no space left on device: the file is unchanged; free some space and write it again"))
		Expect(r.Intact).To(BeTrue(), "the original must be byte-identical")
		Expect(r.Entries).To(Equal([]string{"f.txt", "filler"}), "no temporary file may stay behind")
		Expect(r.RetryErr).To(BeEmpty())
		Expect(r.RetryGood).To(BeTrue())
	})

	It("leaves the original intact when the process is killed (SIGKILL) between the temporary file and the rename", func() {
		Expect(os.WriteFile(path, original, 0o644)).To(Succeed())
		cmd := child("kill")
		stdout, err := cmd.StdoutPipe()
		Expect(err).NotTo(HaveOccurred())
		Expect(cmd.Start()).To(Succeed())
		DeferCleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		line := make(chan string, 1)
		go func() {
			s, _ := bufio.NewReader(stdout).ReadString('\n')
			line <- strings.TrimSpace(s)
		}()
		var tmp string
		Eventually(line).WithTimeout(30 * time.Second).Should(Receive(&tmp))
		Expect(filepath.Dir(tmp)).To(Equal(dir))
		Expect(os.ReadFile(tmp)).To(Equal(bigger), "the temporary file is complete")

		Expect(cmd.Process.Signal(syscall.SIGKILL)).To(Succeed())
		err = cmd.Wait()
		var exit *exec.ExitError
		Expect(errors.As(err, &exit)).To(BeTrue())
		Expect(exit.Sys().(syscall.WaitStatus).Signal()).To(Equal(syscall.SIGKILL))

		Expect(os.ReadFile(path)).To(Equal(original))
		// The killed process could not remove its temporary file: it stays,
		// a dot-file beside the original, and does not stop the next write.
		Expect(listDir(dir)).To(ConsistOf("f.txt", filepath.Base(tmp)))
		Expect(atomicfile.Write(path, []byte("next\n"), 0)).To(Succeed())
		Expect(os.ReadFile(path)).To(Equal([]byte("next\n")))
	})
})
