// Package answerbox is the answer boxes of handwritten grade assignments: a
// template of one box per question, drawn once per assignment on a sample
// page; the geometry that crops each submission's answers out of its page
// images; and the answers tree of a function result that points at the
// crops. It knows nothing of HTTP.
package answerbox

import (
	"encoding/json"
	"fmt"
	"image"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/files"
)

// Limits of a template.
const (
	// MaxBoxes caps a template's boxes: one per question, and a grade
	// assignment has at most 200 questions.
	MaxBoxes = 200
	// MaxDepth is how deep a box's path reaches into the question tree.
	MaxDepth = 3
	// MaxPage is one more than the highest page a box may be on.
	MaxPage = 1000
)

// The template validation messages.
const (
	MsgNotHandwrittenGrade = "Answer boxes are for handwritten grade assignments"
	MsgTooManyBoxes        = "An assignment can have at most 200 answer boxes"
	MsgPath                = "Each answer box must belong to a question of this assignment"
	MsgDuplicate           = "Each question can have only one answer box"
	MsgPage                = "Each answer box must be on a page of the submission"
	MsgGeometry            = "Each answer box must lie inside the page and have a width and height"
)

// Box is one question's answer box: where on which page (0-based) the
// answer to the question at Path (indexes into the question tree, 1 to 3
// levels) is written. X, Y, Width and Height are fractions of the page.
type Box struct {
	Path   []int   `json:"path"`
	Page   int     `json:"page"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Rect is a box's place on its page, as the answers tree holds it.
type Rect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Rect is b's place on its page.
func (b Box) Rect() Rect { return Rect{X: b.X, Y: b.Y, Width: b.Width, Height: b.Height} }

// PathKey joins a path with '-' ("0-1"): the name of its crop.
func PathKey(path []int) string {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = strconv.Itoa(p)
	}
	return strings.Join(parts, "-")
}

// Question is the part of a grade question the answers tree mirrors.
type Question struct {
	Criteria     []json.RawMessage `json:"criteria"`
	Subquestions []Question        `json:"subquestions"`
}

// ParseQuestions reads a function's stored question tree.
func ParseQuestions(raw json.RawMessage) ([]Question, error) {
	var qs []Question
	if len(raw) == 0 {
		return nil, nil
	}
	if err := json.Unmarshal(raw, &qs); err != nil {
		return nil, fmt.Errorf("read question tree: %w", err)
	}
	return qs, nil
}

// ParseBoxes reads a stored template.
func ParseBoxes(raw json.RawMessage) ([]Box, error) {
	boxes := []Box{}
	if len(raw) == 0 {
		return boxes, nil
	}
	if err := json.Unmarshal(raw, &boxes); err != nil {
		return nil, fmt.Errorf("read answer boxes: %w", err)
	}
	return boxes, nil
}

// exists reports whether path names a question of qs.
func exists(qs []Question, path []int) bool {
	if len(path) == 0 || len(path) > MaxDepth {
		return false
	}
	level := qs
	for _, i := range path {
		if i < 0 || i >= len(level) {
			return false
		}
		level = level[i].Subquestions
	}
	return true
}

// Validate checks a template against the question tree it points into and
// returns it sorted by path, so equal templates are stored alike.
func Validate(qs []Question, boxes []Box) ([]Box, error) {
	if len(boxes) > MaxBoxes {
		return nil, apperr.New(apperr.Invalid, MsgTooManyBoxes)
	}
	seen := make(map[string]bool, len(boxes))
	out := make([]Box, len(boxes))
	for i, b := range boxes {
		if !exists(qs, b.Path) {
			return nil, apperr.New(apperr.Invalid, MsgPath)
		}
		key := PathKey(b.Path)
		if seen[key] {
			return nil, apperr.New(apperr.Invalid, MsgDuplicate)
		}
		seen[key] = true
		if b.Page < 0 || b.Page >= MaxPage {
			return nil, apperr.New(apperr.Invalid, MsgPage)
		}
		if !inside(b) {
			return nil, apperr.New(apperr.Invalid, MsgGeometry)
		}
		b.Path = slices.Clone(b.Path)
		out[i] = b
	}
	slices.SortFunc(out, func(a, b Box) int { return slices.Compare(a.Path, b.Path) })
	return out, nil
}

// eps forgives the rounding of a box drawn up to the page's edge.
const eps = 1e-9

// inside reports whether b has a size and lies within the page.
func inside(b Box) bool {
	for _, v := range []float64{b.X, b.Y, b.Width, b.Height} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return b.X >= 0 && b.Y >= 0 && b.Width > 0 && b.Height > 0 &&
		b.X+b.Width <= 1+eps && b.Y+b.Height <= 1+eps
}

// CropRect is the pixel rectangle of b on a page of the given bounds: each
// fraction times the page's size, rounded, at least one pixel, within the
// page.
func CropRect(b Box, page image.Rectangle) image.Rectangle {
	w, h := float64(page.Dx()), float64(page.Dy())
	x0 := int(math.Round(b.X * w))
	y0 := int(math.Round(b.Y * h))
	cw := max(1, int(math.Round(b.Width*w)))
	ch := max(1, int(math.Round(b.Height*h)))
	r := image.Rect(x0, y0, x0+cw, y0+ch).Add(page.Min)
	r = r.Intersect(page)
	if r.Empty() { // a sliver at the very edge: its last pixel
		r = image.Rect(page.Max.X-1, page.Max.Y-1, page.Max.X, page.Max.Y)
	}
	return r
}

// The key layout of answer-box files, inside the assignment's submissions
// folder (docs/files.md): page images the drawing screen shows, and crops.

// PageKey is where the JPEG of one page of a submission is kept:
// "assignments/{id}/submissions/pages/{submissionId}/{page}.jpg".
func PageKey(assignment, submission uuid.UUID, page int) string {
	pages, _ := files.DerivedFolders(assignment, submission)
	return fmt.Sprintf("%s%d.jpg", pages, page)
}

// CropKey is where the crop of one answer is kept:
// "assignments/{id}/submissions/crops/{submissionId}/{path joined by -}.jpg".
// A rerun writes the same key.
func CropKey(assignment, submission uuid.UUID, path []int) string {
	return fmt.Sprintf("%s%s.jpg", CropFolder(assignment, submission), PathKey(path))
}

// CropFolder is the folder of a submission's crops.
func CropFolder(assignment, submission uuid.UUID) string {
	_, crops := files.DerivedFolders(assignment, submission)
	return crops
}
