package tooldefs_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/pool"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/tooldefs"
	"github.com/agentcore/agentcore/tooldefs/tasklist"
)

var _ = Describe("TodoWrite and the Task tools", func() {
	var home, dir string
	BeforeEach(func() {
		checkLeaks()
		home, dir = GinkgoT().TempDir(), GinkgoT().TempDir()
	})

	open := func(id string) *session.Session {
		GinkgoHelper()
		s, err := session.Open(context.Background(), session.Options{ID: id, Dir: dir, Home: home, Tools: generated.AllBaseTools(),
			Pool: pool.Options{Defer: pool.DeferMode{Kind: pool.DeferNever}}})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		return s
	}
	// call runs one call in s and returns its result text and is_error.
	call := func(s *session.Session, name string, input any) (string, bool) {
		GinkgoHelper()
		raw, err := json.Marshal(input)
		Expect(err).NotTo(HaveOccurred())
		for ev := range s.Exec(context.Background(), []orchestrate.ToolUse{{ID: "c", Name: name, Input: raw}}) {
			if ev.Kind == orchestrate.EventResult {
				return ev.Result.Text(), ev.Result.IsError
			}
		}
		Fail("no result")
		return "", false
	}
	names := func(tools []runtime.Tool) []string {
		var out []string
		for _, t := range tools {
			out = append(out, t.Name())
		}
		return out
	}

	It("switches between TodoWrite and the four Task tools by AGENTCORE_ENABLE_TASKS, never both", func() {
		GinkgoT().Setenv(tasklist.EnvEnableTasks, "")
		s := open("a")
		Expect(names(s.Tools())).To(ContainElement("TodoWrite"))
		Expect(names(s.Tools())).NotTo(ContainElements("TaskCreate", "TaskGet", "TaskUpdate", "TaskList"))
		for _, v := range []string{"1", "true", "on"} {
			GinkgoT().Setenv(tasklist.EnvEnableTasks, v)
			s := open("b" + v)
			Expect(names(s.Tools())).To(ContainElements("TaskCreate", "TaskGet", "TaskUpdate", "TaskList"))
			Expect(names(s.Tools())).NotTo(ContainElement("TodoWrite"))
		}
	})

	It("keeps the todo list on disk, per session", func() {
		GinkgoT().Setenv(tasklist.EnvEnableTasks, "")
		s := open("todos")
		text, isErr := call(s, "TodoWrite", map[string]any{"todos": []map[string]string{
			{"content": "Run the tests", "status": "completed", "activeForm": "Running the tests"},
			{"content": "Fix the bug", "status": "in_progress", "activeForm": "Fixing the bug"},
			{"content": "Write docs", "status": "pending", "activeForm": "Writing docs"},
		}})
		Expect(isErr).To(BeFalse(), text)
		Expect(text).To(HavePrefix("Todos have been modified successfully."))
		data, err := os.ReadFile(filepath.Join(home, ".agentcore", "tasks", "todos", "todos.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(ContainSubstring(`"activeForm": "Fixing the bug"`))
		t := runtime.Lookup(s.Tools(), "TodoWrite")
		in, err := t.Decode(json.RawMessage(`{"todos":[]}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(t.RenderResult(in, runtime.Result{Data: generatedTodoOutput(data)})).To(Equal("✓ Run the tests\n▸ Fixing the bug\n○ Write docs"))

		text, isErr = call(s, "TodoWrite", map[string]any{"todos": []map[string]string{{"content": " ", "status": "pending", "activeForm": "x"}}})
		Expect(isErr).To(BeTrue())
		Expect(text).To(ContainSubstring("todos[0]: content and activeForm must not be blank"))
		text, isErr = call(s, "TodoWrite", map[string]any{"todos": []map[string]string{{"content": "a", "status": "doing", "activeForm": "x"}}})
		Expect(isErr).To(BeTrue())
		Expect(text).To(ContainSubstring("todos[0].status"))
	})

	It("keeps the lists under the session's config directory when one is set ($AGENTCORE_CONFIG_DIR)", func() {
		GinkgoT().Setenv(tasklist.EnvEnableTasks, "")
		cfg := filepath.Join(GinkgoT().TempDir(), "cfg")
		s, err := session.Open(context.Background(), session.Options{ID: "cfgdir", Dir: dir, Home: home, Tools: generated.AllBaseTools(),
			ToolOptions: runtime.ToolOptions{ConfigDir: cfg},
			Pool:        pool.Options{Defer: pool.DeferMode{Kind: pool.DeferNever}}})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		text, isErr := call(s, "TodoWrite", map[string]any{"todos": []map[string]string{
			{"content": "Fix the bug", "status": "pending", "activeForm": "Fixing the bug"}}})
		Expect(isErr).To(BeFalse(), text)
		Expect(filepath.Join(cfg, "tasks", "cfgdir", "todos.json")).To(BeARegularFile())
		Expect(filepath.Join(home, ".agentcore", "tasks")).NotTo(BeADirectory())
	})

	It("refuses to start a task while a blocker is open, and allows it once the blocker completes", func() {
		GinkgoT().Setenv(tasklist.EnvEnableTasks, "1")
		s := open("deps")
		Expect(call(s, "TaskCreate", map[string]string{"subject": "Write the parser", "description": "d"})).To(Equal("Task #1 created successfully: Write the parser"))
		Expect(call(s, "TaskCreate", map[string]string{"subject": "Test the parser", "description": "d"})).To(Equal("Task #2 created successfully: Test the parser"))
		text, isErr := call(s, "TaskUpdate", map[string]any{"taskId": "2", "addBlockedBy": []string{"1"}})
		Expect(isErr).To(BeFalse(), text)
		text, isErr = call(s, "TaskUpdate", map[string]any{"taskId": "2", "status": "in_progress"})
		Expect(isErr).To(BeTrue())
		Expect(text).To(ContainSubstring("task #2 cannot start: it is blocked by #1, which is not completed"))
		text, _ = call(s, "TaskList", map[string]any{})
		Expect(text).To(Equal("○ #1 Write the parser\n○ #2 Test the parser [blocked by #1]"))
		text, isErr = call(s, "TaskUpdate", map[string]any{"taskId": "1", "addBlockedBy": []string{"2"}})
		Expect(isErr).To(BeTrue())
		Expect(text).To(ContainSubstring("would be a cycle"))
		Expect(call(s, "TaskUpdate", map[string]any{"taskId": "1", "status": "completed", "owner": "me"})).To(Equal("Updated task #1 owner, status"))
		Expect(call(s, "TaskUpdate", map[string]any{"taskId": "#2", "status": "in_progress"})).To(Equal("Updated task #2 status"))
		text, _ = call(s, "TaskGet", map[string]string{"taskId": "2"})
		Expect(text).To(ContainSubstring("Status: in_progress\nDescription: d\nBlocked by: #1 (open: none)"))
		text, isErr = call(s, "TaskGet", map[string]string{"taskId": "9"})
		Expect(isErr).To(BeTrue())
		Expect(text).To(ContainSubstring(`no task "9": the tasks are 1, 2`))
	})

	It("loses no update when many agents change the list at once, and a second session with the same ID sees it", func() {
		GinkgoT().Setenv(tasklist.EnvEnableTasks, "1")
		a, b := open("shared"), open("shared")
		var wg sync.WaitGroup
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer GinkgoRecover()
				s := a
				if i%2 == 1 {
					s = b
				}
				_, isErr := call(s, "TaskCreate", map[string]string{"subject": fmt.Sprintf("task %d", i), "description": "d"})
				Expect(isErr).To(BeFalse())
			}()
		}
		wg.Wait()
		st := &tasklist.Store{Dir: filepath.Join(home, ".agentcore", "tasks", "shared")}
		l, err := st.Tasks()
		Expect(err).NotTo(HaveOccurred())
		Expect(l.Tasks).To(HaveLen(20))
		Expect(l.Next).To(Equal(20))
	})

	It("is shared with the session's sub-agents", func() {
		GinkgoT().Setenv(tasklist.EnvEnableTasks, "1")
		sc, err := replay.Parse([]byte(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"c1","name":"TaskCreate","input":{"subject":"Count files","description":"d"}}]}
{"blocks":[{"type":"tool_use","id":"sub","name":"Agent","input":{"description":"Do task 1","prompt":"do #1"}}]}
{"agent":"sub","blocks":[{"type":"tool_use","id":"sub_u","name":"TaskUpdate","input":{"taskId":"1","status":"completed","owner":"sub"}}]}
{"agent":"sub","blocks":[{"type":"text","text":"done"}]}
{"blocks":[{"type":"tool_use","id":"l1","name":"TaskList","input":{}}]}
{"blocks":[{"type":"text","text":"all done"}]}`))
		Expect(err).NotTo(HaveOccurred())
		s, err := session.Open(context.Background(), session.Options{ID: "with-sub", Dir: dir, Home: home, Tools: generated.AllBaseTools(),
			Provider: replay.New(sc, replay.Options{})})
		Expect(err).NotTo(HaveOccurred())
		defer s.Close()
		var last string
		for ev := range s.Run(context.Background(), "") {
			if ev.Kind == agent.EventToolResult && ev.Name == "TaskList" {
				last = ev.Call.Result.Text()
			}
		}
		Expect(last).To(Equal("✓ #1 Count files (sub)"))
	})

	It("needs a session", func() {
		t := runtime.Lookup(generated.AllBaseTools(), "TodoWrite")
		in, err := t.Decode(json.RawMessage(`{"todos":[]}`))
		Expect(err).NotTo(HaveOccurred())
		_, err = t.Call(context.Background(), in, runtime.NewCall("x", runtime.NewToolContext(dir), nil))
		Expect(err).To(MatchError(runtime.ErrNoSession))
		Expect(err).To(MatchError(ContainSubstring("the task list needs a session")))
	})
})

// generatedTodoOutput is the TodoWrite output whose new list is the
// todos.json in data.
func generatedTodoOutput(data []byte) any {
	var todos []tasklist.Todo
	Expect(json.Unmarshal(data, &todos)).To(Succeed())
	return tooldefs.TodoWriteOutput{NewTodos: todos}
}
