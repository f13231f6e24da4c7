package grading

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/markwell/markwell/internal/answerbox"
	"github.com/markwell/markwell/internal/assignment"
)

// grade is a node's grade (answerbox.Grade: the tree's shape is answerbox's;
// this package fills in the grades).
type grade = answerbox.Grade

// node is one answer of the tree: its grade and subanswers decoded, every
// other field (coordinates, media, whatever another part of Markwell
// wrote) kept as raw JSON.
type node struct {
	fields map[string]json.RawMessage
	grade  grade
	subs   []*node
}

func (n *node) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &n.fields); err != nil {
		return err
	}
	if n.fields == nil {
		n.fields = map[string]json.RawMessage{}
	}
	if raw, ok := n.fields[answerbox.FieldGrade]; ok && !isNull(raw) {
		if err := json.Unmarshal(raw, &n.grade); err != nil {
			return fmt.Errorf("grade: %w", err)
		}
	}
	if raw, ok := n.fields[answerbox.FieldSubanswers]; ok && !isNull(raw) {
		if err := json.Unmarshal(raw, &n.subs); err != nil {
			return fmt.Errorf("subanswers: %w", err)
		}
	}
	delete(n.fields, answerbox.FieldGrade)
	delete(n.fields, answerbox.FieldSubanswers)
	return nil
}

func (n *node) MarshalJSON() ([]byte, error) {
	out := make(map[string]any, len(n.fields)+2)
	for k, v := range n.fields {
		out[k] = v
	}
	g := n.grade
	if g.Criteria == nil {
		g.Criteria = []bool{}
	}
	subs := n.subs
	if subs == nil {
		subs = []*node{}
	}
	out[answerbox.FieldGrade] = g
	out[answerbox.FieldSubanswers] = subs
	return json.Marshal(out)
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

// freshNode is an ungraded answer without a box or media.
func freshNode() *node {
	return &node{fields: map[string]json.RawMessage{
		answerbox.FieldCoordinates: json.RawMessage(`null`),
		answerbox.FieldMedia:       json.RawMessage(`[]`),
	}}
}

// parseTree reads an answers tree; null or empty is no tree.
func parseTree(raw json.RawMessage) ([]*node, error) {
	if isNull(raw) {
		return nil, nil
	}
	var tree []*node
	if err := json.Unmarshal(raw, &tree); err != nil {
		return nil, fmt.Errorf("read answers: %w", err)
	}
	return tree, nil
}

// shape returns tree shaped exactly like qs: a node per question (missing
// ones added ungraded, those of deleted questions left out) and one
// criterion boolean per criterion (a longer list cut, a shorter one padded
// with false).
func shape(tree []*node, qs []assignment.Question) []*node {
	out := make([]*node, len(qs))
	for i, q := range qs {
		n := freshNode()
		if i < len(tree) && tree[i] != nil {
			n = tree[i]
		}
		n.grade.Criteria = fit(n.grade.Criteria, len(q.Criteria))
		n.subs = shape(n.subs, q.Subquestions)
		out[i] = n
	}
	return out
}

func fit(cs []bool, n int) []bool {
	out := make([]bool, n)
	copy(out, cs)
	return out
}

// total sets every node's points from its true criteria and returns
// Σ score over the tree, where a node's score is points + gradeAdjustment
// kept within 0 and the node's maximum (see [capAdjustments]). The tree must
// be shaped. The adjustments themselves are left as they are.
func total(tree []*node, qs []assignment.Question) float64 {
	sum := 0.0
	for i, n := range tree {
		n.grade.Points = 0
		for j, met := range n.grade.Criteria {
			if met {
				n.grade.Points += qs[i].Criteria[j].Points
			}
		}
		n.grade.Points = round(n.grade.Points)
		if !finite(n.grade.GradeAdjustment) {
			n.grade.GradeAdjustment = 0
		}
		sum += n.grade.Points + cappedAdjustment(n, qs[i]) + total(n.subs, qs[i].Subquestions)
	}
	return sum
}

// ownMax is what a question's own criteria are worth (its subquestions
// not counted): the most its answer can score.
func ownMax(q assignment.Question) float64 {
	sum := 0.0
	for _, c := range q.Criteria {
		sum += c.Points
	}
	return round(sum)
}

// cappedAdjustment is the part of a node's grade adjustment that counts: an
// answer scores (points + adjustment) at least 0 and at most its question's
// maximum, so an adjustment beyond that bound counts only up to it. The
// node's points must be set.
func cappedAdjustment(n *node, q assignment.Question) float64 {
	return round(clamp(n.grade.GradeAdjustment, -n.grade.Points, ownMax(q)-n.grade.Points))
}

// capAdjustments sets every node's grade adjustment to the part of it that
// counts ([cappedAdjustment]), so that points + gradeAdjustment is the
// answer's score as a reader adds it up. The tree must be totalled.
func capAdjustments(tree []*node, qs []assignment.Question) {
	for i, n := range tree {
		n.grade.GradeAdjustment = cappedAdjustment(n, qs[i])
		capAdjustments(n.subs, qs[i].Subquestions)
	}
}

// MaxPoints is Σ of every criterion's points over the question tree.
func MaxPoints(qs []assignment.Question) float64 {
	sum := 0.0
	for _, q := range qs {
		for _, c := range q.Criteria {
			sum += c.Points
		}
		sum += MaxPoints(q.Subquestions)
	}
	return round(sum)
}

// Retotal computes a grade result's points from the CURRENT questions. It
// returns the tree shaped like the questions (a node per question: missing
// ones added ungraded, those of deleted questions left out; a criteria list
// longer than the question's cut, a shorter one padded with false), every
// node's grade.points set to Σ points of its true criteria; total = Σ
// (points + gradeAdjustment) over every node at every depth (the list holds
// the root's children; the root has no grade); and max = Σ of all criterion
// points.
//
// Each answer scores within 0 and its question's maximum (what the
// question's own criteria are worth): a grade adjustment moves an answer's
// score within that range but never beyond it, whoever wrote it. The tree
// returned carries the part of each adjustment that counts, so points +
// gradeAdjustment is the answer's score for every reader (the review
// screen, the student's page); the stored adjustment is not changed by a
// read. The total is therefore within [0, max] too. Null answers (never
// graded) stay null, with total 0.
func Retotal(answers json.RawMessage, questions []assignment.Question) (json.RawMessage, float64, float64, error) {
	maxPts := MaxPoints(questions)
	tree, err := parseTree(answers)
	if err != nil {
		return nil, 0, 0, err
	}
	if tree == nil {
		return json.RawMessage(`null`), 0, maxPts, nil
	}
	tree = shape(tree, questions)
	sum := clamp(round(total(tree, questions)), 0, maxPts)
	capAdjustments(tree, questions)
	out, err := json.Marshal(tree)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("encode answers: %w", err)
	}
	return out, sum, maxPts, nil
}

// displayKey names a node for people and the model: 1-based and dotted,
// "1", "1.2", "1.2.3".
func displayKey(path []int) string {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = strconv.Itoa(p + 1)
	}
	return strings.Join(parts, ".")
}

func round(x float64) float64 { return math.Round(x*1e6) / 1e6 }

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func clamp(x, lo, hi float64) float64 { return math.Min(math.Max(x, lo), hi) }

// KeepUnchanged is a targeted regrade's answers ("Grade changed questions
// again"): the fresh answers of the questions in changed (by id, with
// their subquestions' own ids checked one by one) and, for every other
// question, its previous grade (the picks, the feedback and the teacher's
// adjustment) from prev. Both trees are shaped like questions first.
func KeepUnchanged(fresh, prev json.RawMessage, questions []assignment.Question, changed map[string]bool) (json.RawMessage, error) {
	newTree, err := parseTree(fresh)
	if err != nil {
		return nil, err
	}
	oldTree, err := parseTree(prev)
	if err != nil || oldTree == nil {
		return fresh, nil // nothing to keep
	}
	newTree, oldTree = shape(newTree, questions), shape(oldTree, questions)
	var keep func(nw, old []*node, qs []assignment.Question)
	keep = func(nw, old []*node, qs []assignment.Question) {
		for i, q := range qs {
			if !changed[q.ID] {
				nw[i].grade = old[i].grade
			}
			keep(nw[i].subs, old[i].subs, q.Subquestions)
		}
	}
	keep(newTree, oldTree, questions)
	out, err := json.Marshal(newTree)
	if err != nil {
		return nil, fmt.Errorf("encode answers: %w", err)
	}
	return out, nil
}
