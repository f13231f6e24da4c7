// Package migrations embeds Markwell's numbered SQL migrations (goose format).
package migrations

import "embed"

// FS holds every migration file.
//
//go:embed *.sql
var FS embed.FS
