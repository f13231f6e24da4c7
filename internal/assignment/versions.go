package assignment

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/markwell/markwell/internal/process"
	"github.com/markwell/markwell/internal/rubric"
)

// Versions of a definition (issue 19, item 2). Every question and criterion
// of a grade definition has an id, stable across edits, so a question can
// move or a criterion be removed without its ticks landing on another one.
// A definition's parts (a question's text, a criterion's description, a
// highlighter, the rubric, the prompt, the context) each have a fingerprint;
// a result keeps the fingerprints it was graded against (graded_parts), and
// a part whose fingerprint now differs, or that is new, makes the result
// "graded against an earlier version". Points are no part of a fingerprint:
// a points change re-totals every result on read and changes no grading.

var idPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,40}$`)

// newID is a fresh id for a question ("q_…") or criterion ("c_…").
func newID(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + "_" + hex.EncodeToString(b)
}

// legacyIDs gives the questions and criteria of a definition stored before
// ids existed ids from their positions ("q1-2", "c3"): the same on every
// read, so a client that saves them back keeps them.
func legacyIDs(qs []Question, parent string) {
	for i := range qs {
		pos := strconv.Itoa(i + 1)
		if parent != "" {
			pos = parent + "-" + pos
		}
		if qs[i].ID == "" {
			qs[i].ID = "q" + pos
		}
		for j := range qs[i].Criteria {
			if qs[i].Criteria[j].ID == "" {
				qs[i].Criteria[j].ID = "c" + strconv.Itoa(j+1)
			}
		}
		legacyIDs(qs[i].Subquestions, pos)
	}
}

// assignIDs gives every question and criterion of qs an id: its own when it
// has a valid one not used before in the definition; else, for a client that
// sends none, the id of the question (criterion) at the same place in old,
// the definition being replaced (so the spec's payload keeps working by
// position); else a new one.
func assignIDs(qs, old []Question) {
	seen := map[string]bool{}
	var walk func(qs, old []Question)
	walk = func(qs, old []Question) {
		for i := range qs {
			q := &qs[i]
			var prev *Question
			if i < len(old) {
				prev = &old[i]
			}
			q.ID = pickID(q.ID, prev, func(p *Question) string { return p.ID }, seen, "q")
			seenC := map[string]bool{}
			for j := range q.Criteria {
				c := &q.Criteria[j]
				var prevC *Criterion
				if prev != nil && j < len(prev.Criteria) {
					prevC = &prev.Criteria[j]
				}
				c.ID = pickID(c.ID, prevC, func(p *Criterion) string { return p.ID }, seenC, "c")
			}
			var oldSubs []Question
			if prev != nil {
				oldSubs = prev.Subquestions
			}
			walk(q.Subquestions, oldSubs)
		}
	}
	walk(qs, old)
}

func pickID[T any](own string, prev *T, idOf func(*T) string, seen map[string]bool, prefix string) string {
	own = strings.TrimSpace(own)
	switch {
	case own != "" && idPattern.MatchString(own) && !seen[own]:
	case own == "" && prev != nil && idOf(prev) != "" && !seen[idOf(prev)]:
		own = idOf(prev)
	default:
		own = newID(prefix)
	}
	seen[own] = true
	return own
}

// Part is one fingerprinted part of a definition.
type Part struct {
	Key string
	// Label names it for a teacher: "question 2b", "highlighter “Evidence”",
	// "the prompt".
	Label string
	// Question is the id of the question the part belongs to, or "".
	Question string
	// Added says the part was not there when the result was graded (set
	// by Outdated): a question or criterion added since, which the result
	// never marked, so its student would see it as not met.
	Added bool
	print string
}

// fingerprint hashes "len:field|" for each field (stored in results'
// graded_parts, so the bytes hashed must never change).
func fingerprint(fields ...string) string {
	h := sha256.New()
	var buf []byte
	for _, f := range fields {
		buf = strconv.AppendInt(buf[:0], int64(len(f)), 10)
		buf = append(buf, ':')
		buf = append(buf, f...)
		buf = append(buf, '|')
		h.Write(buf)
	}
	var sum [sha256.Size]byte
	return hex.EncodeToString(h.Sum(sum[:0])[:8])
}

// Parts lists the fingerprinted parts of f, in the definition's order.
func Parts(f Function) []Part {
	var out []Part
	if f.Context != "" {
		out = append(out, Part{Key: "context", Label: "the question context", print: fingerprint(f.Context)})
	}
	var walk func(qs []Question, path []int)
	walk = func(qs []Question, path []int) {
		for i, q := range qs {
			p := append(append([]int(nil), path...), i)
			label := "question " + QuestionLabel(p)
			rubricID := ""
			if q.RubricID != nil {
				rubricID = *q.RubricID
			}
			out = append(out, Part{Key: "q:" + q.ID, Label: label, Question: q.ID, print: fingerprint(q.QuestionText, q.Context, rubricID)})
			for _, c := range q.Criteria {
				out = append(out, Part{Key: "c:" + q.ID + "/" + c.ID, Label: label, Question: q.ID, print: fingerprint(c.Description)})
			}
			walk(q.Subquestions, p)
		}
	}
	walk(f.Questions, nil)
	for _, h := range f.Highlights {
		out = append(out, Part{Key: "h:" + h.Key, Label: "highlighter “" + h.Title + "”", print: fingerprint(h.Title, h.Description)})
	}
	if f.RubricID != nil {
		out = append(out, Part{Key: "rubric", Label: "the rubric", print: fingerprint(f.RubricID.String())})
		if f.Rubric != nil {
			out = append(out, Part{Key: rubricTextKey, Label: "the rubric", print: rubricText(f.Rubric)})
		}
	}
	if f.Prompt != "" {
		out = append(out, Part{Key: "prompt", Label: "the prompt", print: fingerprint(f.Prompt)})
	}
	return out
}

// rubricTextKey is the part of a rubric's words: its criteria and their
// levels (not their points, as for questions). Results graded before it
// was fingerprinted do not have it, and are not outdated for want of it
// (outdatedParts).
const rubricTextKey = "rubric:text"

// rubricText fingerprints a rubric's criteria and level descriptions, in
// order: an edit of the saved rubric (a level added, a description
// reworded) makes the results graded against it "graded against an earlier
// version", as an edit of a question does. A level added or removed also
// moves what each result's level index means.
func rubricText(r *rubric.Rubric) string {
	fields := make([]string, 0, 1+len(r.Criteria)*4)
	fields = append(fields, strconv.Itoa(len(r.Criteria)))
	for _, c := range r.Criteria {
		fields = append(fields, c.CriterionDescription, strconv.Itoa(len(c.LevelDescriptions)))
		fields = append(fields, c.LevelDescriptions...)
	}
	return fingerprint(fields...)
}

// GradedParts is what a result keeps of the definition it was graded
// against: each part's key and fingerprint.
func GradedParts(f Function) json.RawMessage {
	m := map[string]string{}
	for _, p := range Parts(f) {
		m[p.Key] = p.print
	}
	b, _ := json.Marshal(m)
	return b
}

// Outdated lists the parts of f that changed, or were added, since a
// result was graded against graded (its graded_parts): nil when it is
// graded against f, or when graded is empty (never graded, or graded
// before versions existed and its definition never changed since).
func Outdated(graded json.RawMessage, f Function) []Part {
	if isNullJSON(graded) {
		return nil
	}
	return outdatedParts(graded, Parts(f))
}

// outdatedParts is Outdated with the definition's parts at hand.
func outdatedParts(graded json.RawMessage, parts []Part) []Part {
	if isNullJSON(graded) {
		return nil
	}
	var was map[string]string
	if err := json.Unmarshal(graded, &was); err != nil {
		return nil
	}
	var out []Part
	for _, p := range parts {
		prev, ok := was[p.Key]
		if !ok && p.Key == rubricTextKey {
			continue // graded before the rubric's words were fingerprinted
		}
		if !ok || prev != p.print {
			p.Added = !ok
			out = append(out, p)
		}
	}
	return out
}

// QuestionsAdded reports whether a question or criterion is among the
// parts added (Outdated): one a result was graded without.
func QuestionsAdded(parts []Part) bool {
	for _, p := range parts {
		if p.Added && p.Question != "" {
			return true
		}
	}
	return false
}

// OutdatedMarker marks many results against one definition (a class's
// read): the definition's parts are fingerprinted once, and the results
// graded against the same parts, most of a class, are compared once.
type OutdatedMarker struct {
	parts []Part
	seen  map[string]outdatedMark // graded_parts as stored → its mark
}

// outdatedMark is what the marker found for one graded_parts.
type outdatedMark struct {
	labels []string // nil: up to date
	added  bool     // a question or criterion was added since
}

// NewOutdatedMarker returns a marker for results of definition f.
func NewOutdatedMarker(f Function) *OutdatedMarker {
	return &OutdatedMarker{parts: Parts(f), seen: map[string]outdatedMark{}}
}

// Mark sets Outdated and OutdatedParts of r as r.MarkOutdated(f) does.
func (m *OutdatedMarker) Mark(r *FunctionResult) {
	if r.GradedAt == nil || r.Status == "failed" || process.IsInProgress(r.Status) {
		return
	}
	mark, ok := m.seen[string(r.GradedParts)]
	if !ok {
		parts := outdatedParts(r.GradedParts, m.parts)
		mark = outdatedMark{labels: OutdatedLabels(parts), added: QuestionsAdded(parts)}
		if len(mark.labels) == 0 {
			mark.labels = nil
		}
		m.seen[string(r.GradedParts)] = mark
	}
	r.Outdated = mark.labels != nil
	if r.Outdated {
		r.OutdatedParts = append([]string(nil), mark.labels...)
		r.QuestionsAdded = mark.added
	}
}

// OutdatedLabels names the changed parts once each, in order.
func OutdatedLabels(parts []Part) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, p := range parts {
		if !seen[p.Label] {
			seen[p.Label] = true
			out = append(out, p.Label)
		}
	}
	return out
}

// OutdatedQuestions are the ids of the questions a changed part belongs
// to; ok is false when a part outside the questions changed (the context,
// a highlighter, the rubric, the prompt), which only a whole regrade
// answers.
func OutdatedQuestions(parts []Part) (ids map[string]bool, ok bool) {
	ids = map[string]bool{}
	for _, p := range parts {
		if p.Question == "" {
			return nil, false
		}
		ids[p.Question] = true
	}
	return ids, true
}

func isNullJSON(raw json.RawMessage) bool {
	t := strings.TrimSpace(string(raw))
	return t == "" || t == "null"
}

// QuestionLabel is a question's label from its path, as the answer boxes
// show it: [0] → "1", [0, 1] → "1b", [0, 1, 2] → "1b iii".
func QuestionLabel(path []int) string {
	var b strings.Builder
	for d, i := range path {
		switch d {
		case 0:
			b.WriteString(strconv.Itoa(i + 1))
		case 1:
			b.WriteString(letters(i + 1))
		default:
			b.WriteString(" " + roman(i+1))
		}
	}
	return b.String()
}

func letters(n int) string {
	out := ""
	for n > 0 {
		out = string(rune('a'+(n-1)%26)) + out
		n = (n - 1) / 26
	}
	return out
}

func roman(n int) string {
	vals := []int{10, 9, 5, 4, 1}
	syms := []string{"x", "ix", "v", "iv", "i"}
	out := ""
	for i, v := range vals {
		for n >= v {
			out += syms[i]
			n -= v
		}
	}
	return out
}

// quote shortens a text for a history line.
func quote(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > 60 {
		r := []rune(s)
		s = strings.TrimSpace(string(r[:57])) + "…"
	}
	return "“" + s + "”"
}

func pts(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// points counts points in words: "1 point", "0.5 points", "3 points".
func points(x float64) string {
	if x == 1 {
		return "1 point"
	}
	return pts(x) + " points"
}

// indexQuestions maps question ids to their question and label.
type placedQuestion struct {
	q      Question
	label  string
	parent string
}

func indexQuestions(qs []Question) (map[string]placedQuestion, map[string][]string) {
	byID := map[string]placedQuestion{}
	order := map[string][]string{} // parent id → child ids in order
	var walk func(qs []Question, path []int, parent string)
	walk = func(qs []Question, path []int, parent string) {
		for i, q := range qs {
			p := append(append([]int(nil), path...), i)
			byID[q.ID] = placedQuestion{q: q, label: QuestionLabel(p), parent: parent}
			order[parent] = append(order[parent], q.ID)
			walk(q.Subquestions, p, q.ID)
		}
	}
	walk(qs, nil, "")
	return byID, order
}

// DescribeChanges lists what changed from old to new as sentences for the
// history ("changed the points of 2a: 2 → 3"); rubricName names a rubric
// by id ("" when unknown).
func DescribeChanges(old, new Function, rubricName func(id string) string) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if old.Context != new.Context {
		add("changed the question context")
	}
	oldQ, oldOrder := indexQuestions(old.Questions)
	newQ, newOrder := indexQuestions(new.Questions)
	var walk func(qs []Question)
	walk = func(qs []Question) {
		for _, q := range qs {
			n := newQ[q.ID]
			o, had := oldQ[q.ID]
			if !had {
				add("added question %s: %s", n.label, quote(q.QuestionText))
				walk(q.Subquestions)
				continue
			}
			if o.q.QuestionText != q.QuestionText {
				add("changed the text of question %s: %s → %s", n.label, quote(o.q.QuestionText), quote(q.QuestionText))
			}
			if o.q.Context != q.Context {
				add("changed the context of question %s", n.label)
			}
			if ptrStr(o.q.RubricID) != ptrStr(q.RubricID) {
				switch {
				case q.RubricID == nil:
					add("removed the rubric of question %s", n.label)
				default:
					add("set the rubric of question %s to %s", n.label, quote(rubricName(*q.RubricID)))
				}
			}
			oldC := map[string]Criterion{}
			var oldCOrder, keptOrder []string
			for _, c := range o.q.Criteria {
				oldC[c.ID] = c
				oldCOrder = append(oldCOrder, c.ID)
			}
			newC := map[string]bool{}
			for _, c := range q.Criteria {
				newC[c.ID] = true
				was, ok := oldC[c.ID]
				if !ok {
					add("added a criterion to %s: %s (%s)", n.label, quote(c.Description), points(c.Points))
					continue
				}
				keptOrder = append(keptOrder, c.ID)
				if was.Description != c.Description {
					add("changed a criterion of %s: %s → %s", n.label, quote(was.Description), quote(c.Description))
				}
				if was.Points != c.Points {
					add("changed the points of %s: %s → %s (%s)", n.label, pts(was.Points), pts(c.Points), quote(c.Description))
				}
			}
			var oldKept []string
			for _, id := range oldCOrder {
				if !newC[id] {
					add("removed a criterion from %s: %s", n.label, quote(oldC[id].Description))
				} else {
					oldKept = append(oldKept, id)
				}
			}
			if strings.Join(oldKept, ",") != strings.Join(keptOrder, ",") {
				add("reordered the criteria of %s", n.label)
			}
			walk(q.Subquestions)
		}
	}
	walk(new.Questions)
	for _, o := range old.Questions {
		removed(o, oldQ, newQ, add)
	}
	for parent, ids := range newOrder {
		var kept, was []string
		for _, id := range ids {
			if p, ok := oldQ[id]; ok && p.parent == parent {
				kept = append(kept, id)
			}
		}
		for _, id := range oldOrder[parent] {
			if p, ok := newQ[id]; ok && p.parent == parent {
				was = append(was, id)
			}
		}
		if strings.Join(kept, ",") != strings.Join(was, ",") {
			add("reordered the questions")
			break
		}
	}
	oldH := map[string]Highlighter{}
	for _, h := range old.Highlights {
		oldH[h.Key] = h
	}
	newH := map[string]bool{}
	for _, h := range new.Highlights {
		newH[h.Key] = true
		was, ok := oldH[h.Key]
		switch {
		case !ok:
			add("added the highlighter %s", quote(h.Title))
		case was != h:
			add("changed the highlighter %s", quote(h.Title))
		}
	}
	for _, h := range old.Highlights {
		if !newH[h.Key] {
			add("removed the highlighter %s", quote(h.Title))
		}
	}
	if rubricStr(old) != rubricStr(new) && new.RubricID != nil {
		add("changed the rubric to %s", quote(rubricName(new.RubricID.String())))
	}
	if old.Prompt != new.Prompt {
		add("changed the prompt")
	}
	return out
}

// removed reports a question gone from the definition (its subquestions go
// with it, unsaid), or walks on into its subquestions when it stays.
func removed(o Question, oldQ, newQ map[string]placedQuestion, add func(string, ...any)) {
	if _, ok := newQ[o.ID]; !ok {
		add("removed question %s: %s", oldQ[o.ID].label, quote(o.QuestionText))
		return
	}
	for _, s := range o.Subquestions {
		removed(s, oldQ, newQ, add)
	}
}

func ptrStr(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func rubricStr(f Function) string {
	if f.RubricID == nil {
		return ""
	}
	return f.RubricID.String()
}

// answer node fields (answerbox.FieldGrade, answerbox.FieldSubanswers).
const (
	fieldGrade      = "grade"
	fieldSubanswers = "subanswers"
)

// RemapAnswers moves a result's answers from the shape of old to that of
// new, by question and criterion id: a moved question takes its answer
// (grade, feedback, crops) along, a criterion its tick; an added question
// gets no node (the totals add it ungraded), a removed one's answer and a
// removed criterion's tick are dropped. changed is false when nothing moved.
func RemapAnswers(answers json.RawMessage, old, new []Question) (json.RawMessage, bool, error) {
	if isNullJSON(answers) {
		return answers, false, nil
	}
	var tree []map[string]json.RawMessage
	if err := json.Unmarshal(answers, &tree); err != nil {
		return answers, false, nil // not a tree: left as it is
	}
	type located struct {
		node map[string]json.RawMessage
		q    Question
	}
	byID := map[string]located{}
	var index func(nodes []map[string]json.RawMessage, qs []Question) error
	index = func(nodes []map[string]json.RawMessage, qs []Question) error {
		for i, q := range qs {
			if i >= len(nodes) || nodes[i] == nil {
				continue
			}
			byID[q.ID] = located{node: nodes[i], q: q}
			var subs []map[string]json.RawMessage
			if raw, ok := nodes[i][fieldSubanswers]; ok && !isNullJSON(raw) {
				if err := json.Unmarshal(raw, &subs); err != nil {
					return err
				}
			}
			if err := index(subs, q.Subquestions); err != nil {
				return err
			}
		}
		return nil
	}
	if err := index(tree, old); err != nil {
		return answers, false, nil
	}
	var build func(qs []Question) ([]map[string]json.RawMessage, error)
	build = func(qs []Question) ([]map[string]json.RawMessage, error) {
		out := make([]map[string]json.RawMessage, 0, len(qs))
		for _, q := range qs {
			l, ok := byID[q.ID]
			node := map[string]json.RawMessage{"answerBoxesCoordinates": json.RawMessage(`null`), "answerMedia": json.RawMessage(`[]`)}
			if ok {
				node = map[string]json.RawMessage{}
				for k, v := range l.node {
					node[k] = v
				}
				if raw, has := l.node[fieldGrade]; has && !isNullJSON(raw) {
					var g map[string]json.RawMessage
					if err := json.Unmarshal(raw, &g); err != nil {
						return nil, err
					}
					var ticks []bool
					if c, has := g["criteria"]; has && !isNullJSON(c) {
						if err := json.Unmarshal(c, &ticks); err != nil {
							return nil, err
						}
					}
					was := map[string]bool{}
					for j, c := range l.q.Criteria {
						if j < len(ticks) {
							was[c.ID] = ticks[j]
						}
					}
					moved := make([]bool, len(q.Criteria))
					for j, c := range q.Criteria {
						moved[j] = was[c.ID]
					}
					b, err := json.Marshal(moved)
					if err != nil {
						return nil, err
					}
					g["criteria"] = b
					if node[fieldGrade], err = json.Marshal(g); err != nil {
						return nil, err
					}
				}
			}
			subs, err := build(q.Subquestions)
			if err != nil {
				return nil, err
			}
			b, err := json.Marshal(subs)
			if err != nil {
				return nil, err
			}
			node[fieldSubanswers] = b
			out = append(out, node)
		}
		return out, nil
	}
	next, err := build(new)
	if err != nil {
		return answers, false, nil
	}
	b, err := json.Marshal(next)
	if err != nil {
		return nil, false, fmt.Errorf("encode answers: %w", err)
	}
	var before any
	_ = json.Unmarshal(answers, &before)
	var after any
	_ = json.Unmarshal(b, &after)
	canonBefore, _ := json.Marshal(before)
	canonAfter, _ := json.Marshal(after)
	return b, string(canonBefore) != string(canonAfter), nil
}
