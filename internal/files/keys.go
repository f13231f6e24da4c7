package files

import (
	"strings"

	"github.com/google/uuid"
)

// The roots of the key layout (docs/files.md). Every stored object belongs to one team,
// named in its key or through the assignment its key names:
//
//	chats/{teamId}/{16 hex}-{name}                          a team's chat and assistant files
//	public/{teamId}/{16 hex}-{name}                         a team's assistant images, readable by anyone
//	assignments/{assignmentId}/submissions/{16 hex}-{name}  submissions, owned by the assignment's team
//	assignments/{assignmentId}/submissions/student/{16 hex}-{name}  those students sent by the assignment's link
const (
	chatsRoot       = "chats/"
	publicRoot      = "public/"
	assignmentsRoot = "assignments/"
	submissionsDir  = "submissions/"
	studentDir      = "student/"
)

// StudentFolder is the folder of the files students send through the link of
// assignment: "assignments/{assignmentId}/submissions/student/".
func StudentFolder(assignment uuid.UUID) string {
	return place{root: assignmentsRoot, id: assignment}.folder() + studentDir
}

// place is the folder an object lives in, and so who owns it: for chats/ and public/ id
// is the owning team, for assignments/ the assignment whose team owns it.
type place struct {
	root string // chatsRoot, publicRoot or assignmentsRoot
	id   uuid.UUID
}

// folder is the key prefix of p, ending in '/'.
func (p place) folder() string {
	if p.root == assignmentsRoot {
		return assignmentsRoot + p.id.String() + "/" + submissionsDir
	}
	return p.root + p.id.String() + "/"
}

// parsePlace reads the place s (a key or a folder) starts with, and what follows it. The
// id must be a UUID in its canonical lower-case form: uuid.Parse also reads braces,
// "urn:uuid:" and upper case, which would give one owner several folders.
func parsePlace(s string) (p place, rest string, ok bool) {
	for _, root := range []string{chatsRoot, publicRoot, assignmentsRoot} {
		after, found := strings.CutPrefix(s, root)
		if !found {
			continue
		}
		idText, rest, found := strings.Cut(after, "/")
		if !found {
			return place{}, "", false
		}
		id, err := uuid.Parse(idText)
		if err != nil || id.String() != idText {
			return place{}, "", false
		}
		if root == assignmentsRoot {
			if rest, found = strings.CutPrefix(rest, submissionsDir); !found {
				return place{}, "", false
			}
		}
		return place{root: root, id: id}, rest, true
	}
	return place{}, "", false
}

// parseFolder reads a folder a client named: exactly a place, nothing after it.
func parseFolder(folder string) (place, bool) {
	p, rest, ok := parsePlace(folder)
	return p, ok && rest == ""
}

// DerivedFolders are the folders of the files Markwell makes from one
// submission — its page images ("…/submissions/pages/{submissionId}/") and
// its answer crops ("…/submissions/crops/{submissionId}/") — which go when
// the submission goes.
func DerivedFolders(assignment, submission uuid.UUID) (pages, crops string) {
	base := "assignments/" + assignment.String() + "/submissions/"
	return base + "pages/" + submission.String() + "/", base + "crops/" + submission.String() + "/"
}
