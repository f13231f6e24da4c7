package chatdoc

import (
	"slices"
	"strings"
)

// PastDocument is one entry of a chat's pastDocuments: a version of the
// document, kept against the message at MessageIndex in the chat's messages.
// The version of an assistant message is the document that answer wrote; the
// version of a user message is the teacher's hand edit, kept when that
// message asked for a revision of it ("Your edit" in the document pane).
type PastDocument struct {
	MessageIndex int    `json:"messageIndex"`
	Document     string `json:"document"`
}

// Record returns past with the document of the message at messageIndex
// recorded, keyed by that index: an entry with the same index
// is replaced (a retried answer replaces the version of the answer it
// retries), so no index appears twice. An empty or white-space-only
// document records nothing and removes the entry for that index (the retried
// answer no longer has a document), and a negative index changes nothing. The
// result is sorted by MessageIndex, has no duplicate index even when past
// had some, and never shares its backing array with past.
func Record(past []PastDocument, messageIndex int, document string) []PastDocument {
	out := make([]PastDocument, 0, len(past)+1)
	seen := make(map[int]bool, len(past))
	for _, p := range past {
		if (messageIndex >= 0 && p.MessageIndex == messageIndex) || seen[p.MessageIndex] {
			continue
		}
		seen[p.MessageIndex] = true
		out = append(out, p)
	}
	if messageIndex >= 0 && strings.TrimSpace(document) != "" {
		out = append(out, PastDocument{MessageIndex: messageIndex, Document: document})
	}
	slices.SortStableFunc(out, func(a, b PastDocument) int { return a.MessageIndex - b.MessageIndex })
	return out
}
