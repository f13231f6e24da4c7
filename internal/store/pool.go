package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
)

// NewPool connects to url with ParseConfig's settings.
func NewPool(ctx context.Context, url string) (*pgxpool.Pool, error) {
	cfg, err := ParseConfig(url)
	if err != nil {
		return nil, err
	}
	return pgxpool.NewWithConfig(ctx, cfg)
}

// ParseConfig is pgxpool.ParseConfig with Markwell's JSON codecs on every
// connection (see unmarshalJSON).
func ParseConfig(url string) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("database url: %w", err)
	}
	after := cfg.AfterConnect
	cfg.AfterConnect = func(ctx context.Context, conn *pgx.Conn) error {
		m := conn.TypeMap()
		m.RegisterType(&pgtype.Type{Name: "json", OID: pgtype.JSONOID, Codec: &pgtype.JSONCodec{Marshal: json.Marshal, Unmarshal: unmarshalJSON}})
		m.RegisterType(&pgtype.Type{Name: "jsonb", OID: pgtype.JSONBOID, Codec: &pgtype.JSONBCodec{Marshal: json.Marshal, Unmarshal: unmarshalJSON}})
		registerUUID(m)
		if after != nil {
			return after(ctx, conn)
		}
		return nil
	}
	return cfg, nil
}

// unmarshalJSON is json.Unmarshal, except that a json.RawMessage (what
// sqlc gives every jsonb column) takes PostgreSQL's bytes as they are:
// the server has already checked them, and checking again was a quarter
// of the time of reading a class's results (BenchmarkGetAssignment300).
func unmarshalJSON(data []byte, v any) error {
	if raw, ok := v.(*json.RawMessage); ok {
		*raw = append((*raw)[:0], data...)
		return nil
	}
	return json.Unmarshal(data, v)
}
