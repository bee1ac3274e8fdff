package notebook

import (
	"fmt"
	"strings"
)

// MaxOutputChars caps the text of one cell output in a rendering.
const MaxOutputChars = 10_000

// Part is one piece of a rendered notebook: text, or an image when
// MediaType is set.
type Part struct {
	// Text is set for text parts.
	Text string
	// MediaType is set for images, e.g. image/png.
	MediaType string
	// Data is the base64-encoded image.
	Data string
}

// Render shows every cell with its outputs, for a model to read:
//
//	<cell id="a1b2" type="code" execution_count="3">
//	print("hi")
//	</cell>
//	<output cell="a1b2" type="stream" name="stdout">
//	hi
//	</output>
//
// Images in outputs become image parts right after the text that precedes
// them. An output longer than MaxOutputChars is cut with a note.
func Render(nb *Notebook) []Part {
	var parts []Part
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			parts = append(parts, Part{Text: strings.TrimSuffix(b.String(), "\n")})
			b.Reset()
		}
	}
	for _, c := range nb.Cells() {
		fmt.Fprintf(&b, "<cell id=%q type=%q", c.ID, c.Type)
		if c.ExecutionCount != nil {
			fmt.Fprintf(&b, " execution_count=\"%d\"", *c.ExecutionCount)
		}
		b.WriteString(">\n")
		b.WriteString(c.Source)
		if c.Source != "" && !strings.HasSuffix(c.Source, "\n") {
			b.WriteByte('\n')
		}
		b.WriteString("</cell>\n")
		for _, o := range c.Outputs {
			fmt.Fprintf(&b, "<output cell=%q type=%q", c.ID, o.Type)
			if o.Name != "" {
				fmt.Fprintf(&b, " name=%q", o.Name)
			}
			b.WriteString(">\n")
			text := o.Text
			if len(text) > MaxOutputChars {
				text = text[:MaxOutputChars] + fmt.Sprintf("\n[output truncated: %d more characters]", len(o.Text)-MaxOutputChars)
			}
			b.WriteString(text)
			if text != "" && !strings.HasSuffix(text, "\n") {
				b.WriteByte('\n')
			}
			for _, img := range o.Images {
				fmt.Fprintf(&b, "[image %s follows]\n", img.MediaType)
				flush()
				parts = append(parts, Part{MediaType: img.MediaType, Data: img.Data})
			}
			b.WriteString("</output>\n")
		}
	}
	flush()
	if len(parts) == 0 {
		parts = append(parts, Part{Text: "The notebook has no cells."})
	}
	return parts
}
