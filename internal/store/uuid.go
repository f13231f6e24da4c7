package store

import (
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"
)

// registerUUID makes pgx send and read google/uuid's UUID and NullUUID (the
// type of every id sqlc gives us) as PostgreSQL's 16 binary bytes. Left to
// itself pgx takes them as driver.Valuer and sql.Scanner: every id
// parameter formatted as text and parsed again, every id column read
// through a string; on a poll's delta that was a tenth of the API's CPU
// (internal/result BenchmarkPollDelta).
func registerUUID(m *pgtype.Map) {
	t := &pgtype.Type{Name: "uuid", OID: pgtype.UUIDOID, Codec: uuidCodec{}}
	m.RegisterType(t)
	m.RegisterType(&pgtype.Type{Name: "_uuid", OID: pgtype.UUIDArrayOID, Codec: &pgtype.ArrayCodec{ElementType: t}})
}

// uuidCodec is pgx's UUIDCodec that also takes uuid.UUID and uuid.NullUUID
// as its own.
type uuidCodec struct{ pgtype.UUIDCodec }

func (c uuidCodec) PlanEncode(m *pgtype.Map, oid uint32, format int16, value any) pgtype.EncodePlan {
	switch value.(type) {
	case uuid.UUID, uuid.NullUUID:
		if next := c.UUIDCodec.PlanEncode(m, oid, format, pgtype.UUID{}); next != nil {
			return &uuidEncode{next: next}
		}
	}
	return c.UUIDCodec.PlanEncode(m, oid, format, value)
}

func (c uuidCodec) PlanScan(m *pgtype.Map, oid uint32, format int16, target any) pgtype.ScanPlan {
	switch target.(type) {
	case *uuid.UUID, *uuid.NullUUID:
		if next := c.UUIDCodec.PlanScan(m, oid, format, &pgtype.UUID{}); next != nil {
			return &uuidScan{next: next}
		}
	}
	return c.UUIDCodec.PlanScan(m, oid, format, target)
}

type uuidEncode struct{ next pgtype.EncodePlan }

func (p *uuidEncode) Encode(value any, buf []byte) ([]byte, error) {
	switch v := value.(type) {
	case uuid.UUID:
		return p.next.Encode(pgtype.UUID{Bytes: v, Valid: true}, buf)
	case uuid.NullUUID:
		return p.next.Encode(pgtype.UUID{Bytes: v.UUID, Valid: v.Valid}, buf)
	}
	return p.next.Encode(value, buf)
}

type uuidScan struct{ next pgtype.ScanPlan }

// Scan reads NULL into a UUID as the zero UUID, as uuid.UUID's own Scan
// does.
func (p *uuidScan) Scan(src []byte, target any) error {
	var u pgtype.UUID
	if err := p.next.Scan(src, &u); err != nil {
		return err
	}
	switch t := target.(type) {
	case *uuid.UUID:
		*t = u.Bytes
		if !u.Valid {
			*t = uuid.Nil
		}
	case *uuid.NullUUID:
		*t = uuid.NullUUID{UUID: u.Bytes, Valid: u.Valid}
		if !u.Valid {
			t.UUID = uuid.Nil
		}
	}
	return nil
}
