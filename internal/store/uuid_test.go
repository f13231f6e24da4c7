package store

import (
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"
)

func uuidMap(registered bool) *pgtype.Map {
	m := pgtype.NewMap()
	if registered {
		registerUUID(m)
	}
	return m
}

// An id goes over the wire and comes back as the same 16 bytes, a NULL as
// the zero UUID or an invalid NullUUID, as uuid's own Value and Scan did.
func TestUUIDsRoundTripInBinary(t *testing.T) {
	m := uuidMap(true)
	id := uuid.New()
	for _, in := range []any{id, uuid.NullUUID{UUID: id, Valid: true}, []uuid.UUID{id, uuid.Nil}} {
		buf, err := m.Encode(pgtype.UUIDOID, pgtype.BinaryFormatCode, in, nil)
		if _, isSlice := in.([]uuid.UUID); isSlice {
			buf, err = m.Encode(pgtype.UUIDArrayOID, pgtype.BinaryFormatCode, in, nil)
		}
		if err != nil {
			t.Fatal(in, err)
		}
		if _, isSlice := in.([]uuid.UUID); isSlice {
			var out []uuid.UUID
			if err := m.Scan(pgtype.UUIDArrayOID, pgtype.BinaryFormatCode, buf, &out); err != nil || len(out) != 2 || out[0] != id || out[1] != uuid.Nil {
				t.Fatal(out, err)
			}
			continue
		}
		if len(buf) != 16 {
			t.Fatalf("%T: %d bytes, not 16 binary ones", in, len(buf))
		}
		var out uuid.UUID
		var null uuid.NullUUID
		if err := m.Scan(pgtype.UUIDOID, pgtype.BinaryFormatCode, buf, &out); err != nil || out != id {
			t.Fatal(out, err)
		}
		if err := m.Scan(pgtype.UUIDOID, pgtype.BinaryFormatCode, buf, &null); err != nil || null != (uuid.NullUUID{UUID: id, Valid: true}) {
			t.Fatal(null, err)
		}
	}
	buf, err := m.Encode(pgtype.UUIDOID, pgtype.BinaryFormatCode, uuid.NullUUID{}, nil)
	if err != nil || buf != nil {
		t.Fatal("an invalid NullUUID is NULL", buf, err)
	}
	out, null := uuid.New(), uuid.NullUUID{UUID: uuid.New(), Valid: true}
	if err := m.Scan(pgtype.UUIDOID, pgtype.BinaryFormatCode, nil, &out); err != nil || out != uuid.Nil {
		t.Fatal(out, err)
	}
	if err := m.Scan(pgtype.UUIDOID, pgtype.BinaryFormatCode, nil, &null); err != nil || null != (uuid.NullUUID{}) {
		t.Fatal(null, err)
	}
}

// BenchmarkUUIDParam is one id parameter encoded and one id column read,
// as pgx does them with and without registerUUID.
func BenchmarkUUIDParam(b *testing.B) {
	id := uuid.New()
	for _, registered := range []bool{false, true} {
		name := "valuer"
		if registered {
			name = "binary"
		}
		b.Run(name, func(b *testing.B) {
			m := uuidMap(registered)
			raw, _ := uuidMap(true).Encode(pgtype.UUIDOID, pgtype.BinaryFormatCode, id, nil)
			b.ReportAllocs()
			var buf []byte
			var out uuid.UUID
			for b.Loop() {
				var err error
				if buf, err = m.Encode(pgtype.UUIDOID, pgtype.BinaryFormatCode, id, buf[:0]); err != nil {
					b.Fatal(err)
				}
				if err := m.Scan(pgtype.UUIDOID, pgtype.BinaryFormatCode, raw, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
