package checkpoint_test

import (
	"io/fs"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/checkpoint"
)

// tree reads every regular file under root (outside the store) with its
// mode: the state a rewind must give back byte for byte.
func tree(root, skip string) map[string]string {
	out := map[string]string{}
	Expect(filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		Expect(err).NotTo(HaveOccurred())
		if p == skip {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			data, err := os.ReadFile(p)
			Expect(err).NotTo(HaveOccurred())
			fi, err := d.Info()
			Expect(err).NotTo(HaveOccurred())
			out[p] = fi.Mode().Perm().String() + "\x00" + string(data)
		}
		return nil
	})).To(Succeed())
	return out
}

var _ = Describe("Store", func() {
	var (
		root, work string
		store      *checkpoint.Store
	)

	// write is a tool's write: the checkpoint first, then the content.
	write := func(name, content string) {
		p := filepath.Join(work, name)
		Expect(store.Before(p)).To(Succeed())
		Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
		Expect(os.WriteFile(p, []byte(content), 0o644)).To(Succeed())
	}

	BeforeEach(func() {
		root = GinkgoT().TempDir()
		work = filepath.Join(root, "work")
		Expect(os.MkdirAll(work, 0o755)).To(Succeed())
		var err error
		store, err = checkpoint.Open(filepath.Join(root, "store"))
		Expect(err).NotTo(HaveOccurred())
	})

	Context("after three turns of edits", func() {
		var before1, before2, before3 map[string]string

		BeforeEach(func() {
			Expect(os.WriteFile(filepath.Join(work, "a.txt"), []byte("a0\n"), 0o644)).To(Succeed())
			Expect(os.WriteFile(filepath.Join(work, "script.sh"), []byte("#!/bin/sh\necho 0\n"), 0o755)).To(Succeed())
			Expect(os.WriteFile(filepath.Join(work, "untouched"), []byte("u\n"), 0o644)).To(Succeed())
			before1 = tree(work, "")

			Expect(store.Begin(1, "edit a\nand more")).To(Succeed())
			write("a.txt", "a1\n")
			write("a.txt", "a1 again\n") // the turn's first write is what counts
			write("script.sh", "#!/bin/sh\necho 1\n")
			before2 = tree(work, "")

			Expect(store.Begin(2, "create b")).To(Succeed())
			write("sub/b.txt", "b2\n")
			write("a.txt", "a2\n")
			before3 = tree(work, "")

			Expect(store.Begin(3, "overwrite")).To(Succeed())
			write("sub/b.txt", "b3\n")
			write("c.txt", "c3\n")
			write("script.sh", "")
		})

		It("restores every file byte-identical to its state before turn 1 and removes the files created since", func() {
			changes, err := store.Restore(1, false)
			Expect(err).NotTo(HaveOccurred())
			Expect(tree(work, "")).To(Equal(before1))
			Expect(filepath.Join(work, "sub", "b.txt")).NotTo(BeAnExistingFile())
			Expect(filepath.Join(work, "c.txt")).NotTo(BeAnExistingFile())
			Expect(changes).To(ConsistOf(
				checkpoint.Change{Path: filepath.Join(work, "a.txt")},
				checkpoint.Change{Path: filepath.Join(work, "script.sh")},
				checkpoint.Change{Path: filepath.Join(work, "sub", "b.txt"), Removed: true},
				checkpoint.Change{Path: filepath.Join(work, "c.txt"), Removed: true},
			))
		})

		It("restores the state before turn 2, and then before turn 1", func() {
			_, err := store.Restore(2, false)
			Expect(err).NotTo(HaveOccurred())
			Expect(tree(work, "")).To(Equal(before2))
			_, err = store.Restore(1, false)
			Expect(err).NotTo(HaveOccurred())
			Expect(tree(work, "")).To(Equal(before1))
		})

		It("restores the state before turn 3", func() {
			_, err := store.Restore(3, false)
			Expect(err).NotTo(HaveOccurred())
			Expect(tree(work, "")).To(Equal(before3))
		})

		It("gives a file back its mode as well as its content when both changed since", func() {
			script := filepath.Join(work, "script.sh")
			Expect(os.Chmod(script, 0o600)).To(Succeed())
			_, err := store.Restore(1, false)
			Expect(err).NotTo(HaveOccurred())
			Expect(tree(work, "")).To(Equal(before1))
		})

		It("with dryRun lists the changes and writes nothing", func() {
			now := tree(work, "")
			changes, err := store.Restore(1, true)
			Expect(err).NotTo(HaveOccurred())
			Expect(changes).To(HaveLen(4))
			Expect(tree(work, "")).To(Equal(now))
		})

		It("lists the turns with their prompts' first lines and files", func() {
			turns, err := store.Turns()
			Expect(err).NotTo(HaveOccurred())
			Expect(turns).To(HaveLen(3))
			Expect(turns[0].N).To(Equal(1))
			Expect(turns[0].Prompt).To(Equal("edit a"))
			Expect(turns[0].Files).To(HaveLen(2))
			Expect(turns[1].Files[0]).To(Equal(checkpoint.File{Path: filepath.Join(work, "sub", "b.txt")}))
		})

		It("is read back by a store opened later on the same directory (a resumed session)", func() {
			again, err := checkpoint.Open(store.Dir())
			Expect(err).NotTo(HaveOccurred())
			_, err = again.Restore(1, false)
			Expect(err).NotTo(HaveOccurred())
			Expect(tree(work, "")).To(Equal(before1))
		})

		It("refuses a turn it has no checkpoint of, naming the turns it keeps", func() {
			_, err := store.Restore(7, false)
			Expect(err).To(MatchError(ContainSubstring("turns 1 to 3")))
		})
	})

	It("stores the same content once", func() {
		for _, n := range []string{"x", "y", "z"} {
			Expect(os.WriteFile(filepath.Join(work, n), []byte("same\n"), 0o644)).To(Succeed())
		}
		Expect(store.Begin(1, "p")).To(Succeed())
		write("x", "1")
		write("y", "1")
		Expect(store.Begin(2, "p")).To(Succeed())
		write("z", "1")
		blobs, err := os.ReadDir(filepath.Join(store.Dir(), "blobs"))
		Expect(err).NotTo(HaveOccurred())
		Expect(blobs).To(HaveLen(1))
		_, err = store.Restore(1, false)
		Expect(err).NotTo(HaveOccurred())
		for _, n := range []string{"x", "y", "z"} {
			Expect(os.ReadFile(filepath.Join(work, n))).To(BeEquivalentTo("same\n"))
		}
	})

	It("keeps only the last turns and the blobs they name", func() {
		store.SetLimits(2, 0)
		for i, c := range []string{"one", "two", "three"} {
			Expect(store.Begin(i+1, c)).To(Succeed())
			write("f", c)
		}
		Expect(store.Begin(4, "four")).To(Succeed())
		turns, err := store.Turns()
		Expect(err).NotTo(HaveOccurred())
		Expect(turns).To(HaveLen(2))
		Expect(turns[0].N).To(Equal(3))
		blobs, err := os.ReadDir(filepath.Join(store.Dir(), "blobs"))
		Expect(err).NotTo(HaveOccurred())
		Expect(blobs).To(HaveLen(1)) // "two", what turn 3 found
		_, err = store.Restore(1, false)
		Expect(err).To(MatchError(ContainSubstring("no checkpoint of turn 1")))
		_, err = store.Restore(3, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(os.ReadFile(filepath.Join(work, "f"))).To(BeEquivalentTo("two"))
	})

	It("records a file above the size cap as too large and leaves it alone on a rewind", func() {
		store.SetLimits(0, 4)
		Expect(os.WriteFile(filepath.Join(work, "big"), []byte("0123456789"), 0o644)).To(Succeed())
		Expect(store.Begin(1, "p")).To(Succeed())
		write("big", "small")
		changes, err := store.Restore(1, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(changes).To(ConsistOf(checkpoint.Change{Path: filepath.Join(work, "big"), Skipped: "it was larger than the checkpoint size cap"}))
		Expect(os.ReadFile(filepath.Join(work, "big"))).To(BeEquivalentTo("small"))
	})

	It("records nothing before a turn begins", func() {
		write("early", "x")
		turns, err := store.Turns()
		Expect(err).NotTo(HaveOccurred())
		Expect(turns).To(BeEmpty())
	})
})

var _ = Describe("BeginNext", func() {
	It("makes no directory until a turn is written, then makes them in the background", func() {
		dir := filepath.Join(GinkgoT().TempDir(), "file-history", "session")
		s, err := checkpoint.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(dir).NotTo(BeADirectory(), "a session that never began a turn leaves nothing")
		turns, err := s.Turns()
		Expect(err).NotTo(HaveOccurred())
		Expect(turns).To(BeEmpty())

		Expect(s.BeginNext("a")).To(Equal(1))
		Expect(s.Flush()).To(Succeed())
		Expect(filepath.Join(dir, "blobs")).To(BeADirectory())
		Expect(filepath.Join(dir, "turns", "000001.json")).To(BeARegularFile())
	})

	It("writes a begun turn when Write asks, in the background, or else when the store is next read", func() {
		dir := GinkgoT().TempDir()
		s, err := checkpoint.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(s.BeginNext("a")).To(Equal(1))
		Expect(filepath.Join(dir, "turns", "000001.json")).NotTo(BeAnExistingFile(), "nothing on disk before Write")
		s.Write()
		s.Write() // once
		Expect(s.Flush()).To(Succeed())
		Expect(filepath.Join(dir, "turns", "000001.json")).To(BeARegularFile())

		Expect(s.BeginNext("b")).To(Equal(2))
		turns, err := s.Turns() // no Write: read back all the same
		Expect(err).NotTo(HaveOccurred())
		Expect(turns).To(HaveLen(2))
		Expect(turns[1].Prompt).To(Equal("b"))
		Expect(filepath.Join(dir, "turns", "000002.json")).To(BeARegularFile())
	})

	It("reports a directory it cannot make at the call after the write that needed it", func() {
		parent := GinkgoT().TempDir()
		// A dangling link: no turns to read, and no directory to make.
		Expect(os.Symlink(filepath.Join(parent, "gone"), filepath.Join(parent, "file-history"))).To(Succeed())
		s, err := checkpoint.Open(filepath.Join(parent, "file-history", "session"))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.BeginNext("a")).To(Equal(1))
		Expect(s.Flush()).To(MatchError(ContainSubstring("checkpoint store")))
	})

	It("reports at once a store whose directory is a file", func() {
		parent := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(parent, "file-history"), nil, 0o600)).To(Succeed())
		s, err := checkpoint.Open(filepath.Join(parent, "file-history", "session"))
		Expect(err).NotTo(HaveOccurred())
		_, err = s.BeginNext("a")
		Expect(err).To(MatchError(ContainSubstring("not a directory")))
	})

	It("numbers turns on from the last one kept, across stores opened on the same directory", func() {
		dir := GinkgoT().TempDir()
		s, err := checkpoint.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(s.BeginNext("a")).To(Equal(1))
		Expect(s.BeginNext("b")).To(Equal(2))
		// A session flushes its store as it closes; the next process
		// opens the directory after that.
		Expect(s.Flush()).To(Succeed())
		again, err := checkpoint.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(again.BeginNext("c")).To(Equal(3))
		Expect(again.Flush()).To(Succeed())
	})

	It("writes a turn in the background and reports a failed write at the next call", func() {
		dir := GinkgoT().TempDir()
		s, err := checkpoint.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(os.RemoveAll(filepath.Join(dir, "turns"))).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "turns"), nil, 0o600)).To(Succeed()) // not a directory
		Expect(s.Begin(1, "a")).To(Succeed(), "the write runs after Begin returns")
		Expect(s.Before(filepath.Join(dir, "x"))).To(MatchError(ContainSubstring("checkpoint store")))
		Expect(s.Flush()).To(Succeed(), "an error is reported once")
	})
})
