package fakellm

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	_ "image/jpeg" // page images arrive as JPEG or PNG
	_ "image/png"
	"strings"
)

// TaskTranscribePage is the handwriting transcription of one page image
// (package jobs, transcribe_pages): {"text": string}.
const TaskTranscribePage = "transcribe_page"

// teachTranscribe teaches s the transcription task. The demo model cannot
// read handwriting, so its transcript says so plainly instead of inventing
// writing; it is the same for the same image.
func teachTranscribe(s *Server) {
	s.Handle(TaskTranscribePage, func(req ChatRequest) (any, error) {
		return map[string]any{"text": demoTranscript(req)}, nil
	})
}

// demoTranscript is the demo model's honest stand-in for a transcript.
func demoTranscript(req ChatRequest) string {
	var images []string
	for _, m := range req.Messages {
		for _, u := range m.ImageURLs {
			images = append(images, describeImage(u))
		}
	}
	seen := "no page image came with the request"
	if len(images) > 0 {
		seen = "page image: " + strings.Join(images, "; ")
	}
	return "[Demo model transcript] Markwell's demo model cannot read handwriting, so this text stands in for " +
		"the writing on the page (" + seen + "). Configure a vision-capable AI provider (LLM_BASE_URL and " +
		"LLM_VISION_MODEL) for real transcripts."
}

// describeImage names an image URL's size when it is a data: URL the demo
// model can decode.
func describeImage(u string) string {
	header, payload, ok := strings.Cut(u, ",")
	if !ok || !strings.HasPrefix(header, "data:") || !strings.HasSuffix(header, ";base64") {
		return "an image URL the demo model does not download"
	}
	data, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return "an image that is not valid base64"
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return "an image the demo model cannot decode"
	}
	return fmt.Sprintf("%s, %d × %d pixels", strings.ToUpper(format), cfg.Width, cfg.Height)
}
