package main

import (
	tea "charm.land/bubbletea/v2"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/ask"
)

var _ = Describe("the permission picker", func() {
	req := ask.AskRequest{Tool: "Edit", Use: "README.md", Detail: "-old\n+new", Suggestion: "Edit(README.md)"}
	press := func(m *permissionPicker, keys ...tea.KeyPressMsg) tea.Cmd {
		var cmd tea.Cmd
		for _, k := range keys {
			_, cmd = m.Update(k)
		}
		return cmd
	}
	It("shows the detail and the exact session rule", func() {
		v := newPermissionPicker(req).View().Content
		Expect(v).To(ContainSubstring("  │ -old\n  │ +new"))
		Expect(v).To(ContainSubstring("2. Yes, and allow Edit(README.md) for this session"))
	})
	It("moves with the arrows and picks with Enter", func() {
		m := newPermissionPicker(req)
		cmd := press(m, tea.KeyPressMsg{Code: tea.KeyDown}, tea.KeyPressMsg{Code: tea.KeyEnter})
		Expect(cmd).NotTo(BeNil())
		Expect(m.answer).To(Equal(ask.AnswerAllowSession))
	})
	It("wraps upwards from the first row to No", func() {
		m := newPermissionPicker(req)
		press(m, tea.KeyPressMsg{Code: tea.KeyUp}, tea.KeyPressMsg{Code: tea.KeyEnter})
		Expect(m.answer).To(Equal(ask.AnswerDeny))
	})
	It("picks by number", func() {
		m := newPermissionPicker(req)
		press(m, tea.KeyPressMsg{Code: '1', Text: "1"})
		Expect(m.done).To(BeTrue())
		Expect(m.answer).To(Equal(ask.AnswerAllowOnce))
	})
	It("denies on Esc", func() {
		m := newPermissionPicker(req)
		press(m, tea.KeyPressMsg{Code: tea.KeyDown}, tea.KeyPressMsg{Code: tea.KeyEscape})
		Expect(m.done).To(BeTrue())
		Expect(m.answer).To(Equal(ask.AnswerDeny))
	})
	It("offers only Yes and No without a suggestion", func() {
		m := newPermissionPicker(ask.AskRequest{Tool: "Bash", Use: "ls"})
		Expect(m.labels).To(HaveLen(2))
		press(m, tea.KeyPressMsg{Code: '2', Text: "2"})
		Expect(m.answer).To(Equal(ask.AnswerDeny))
	})
})
