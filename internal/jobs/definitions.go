package jobs

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/rubric"
	"github.com/markwell/markwell/internal/store"
)

// maxCachedDefinitions bounds the worker's cache of decoded definitions
// (one entry per assignment being graded); a full cache starts again empty.
const maxCachedDefinitions = 512

// definitions is a worker's cache of decoded assignment definitions, so a
// class of 300 reads and decodes its definition once instead of 300 times.
// An entry is keyed by the assignment and the version of its definition
// row (functions.changed_xid, which every write of the row stamps): a
// teacher who edits the definition mid-batch changes the version, and the
// next job of the batch reads the new one. The rubrics a definition uses
// are not cached (their edits do not stamp the definition): a definition
// with rubrics reads them for every job, as before.
type definitions struct {
	mu      sync.Mutex
	entries map[uuid.UUID]definition
}

// definition is one cached definition: never modified once cached (the
// grading reads a Function, it never writes one).
type definition struct {
	version string
	fn      assignment.Function
	// rubricIDs are the rubrics fn uses (its own and its questions').
	rubricIDs []uuid.UUID
	// graded is assignment.GradedParts(fn) when fn uses no rubric.
	graded json.RawMessage
}

// load returns the definition of t's assignment as LoadFunction does, with
// the fingerprints a result graded against it stores (GradedParts).
func (c *definitions) load(ctx context.Context, db store.DBTX, t store.RunTargetRow) (assignment.Function, map[uuid.UUID]rubric.Rubric, json.RawMessage, error) {
	if t.DefinitionVersion == "" {
		return assignment.Function{}, nil, nil, errNoDefinition
	}
	d, ok := c.get(t.AssignmentID, t.DefinitionVersion)
	if !ok {
		row, err := store.Q.GetAssignmentFunction(ctx, db, store.GetAssignmentFunctionParams{AssignmentID: t.AssignmentID, TeamID: t.TeamID})
		if err != nil {
			// gone or not readable: the uncached path says which
			fn, rubrics, err := LoadFunction(ctx, db, t.TeamID, t.AssignmentID)
			return fn, rubrics, assignment.GradedParts(fn), err
		}
		fn, err := assignment.FunctionFromRow(row)
		if err != nil {
			return fn, nil, nil, err
		}
		d = definition{fn: fn, rubricIDs: assignment.RubricIDs(fn)}
		if len(d.rubricIDs) == 0 {
			d.graded = assignment.GradedParts(fn)
		}
		if row.ChangedXid.Valid {
			// keyed by the version read, which may be newer than t's
			d.version = strconv.FormatUint(row.ChangedXid.Uint64, 10)
			c.put(t.AssignmentID, d)
		}
	}
	if len(d.rubricIDs) == 0 {
		return d.fn, map[uuid.UUID]rubric.Rubric{}, d.graded, nil
	}
	fn := d.fn
	rubrics, err := assignment.EmbedRubrics(ctx, db, t.TeamID, &fn, d.rubricIDs)
	if err != nil {
		return fn, nil, nil, err
	}
	return fn, rubrics, assignment.GradedParts(fn), nil
}

func (c *definitions) get(id uuid.UUID, version string) (definition, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.entries[id]
	return d, ok && d.version == version
}

func (c *definitions) put(id uuid.UUID, d definition) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= maxCachedDefinitions {
		c.entries = map[uuid.UUID]definition{}
	}
	c.entries[id] = d
}
