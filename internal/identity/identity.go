// Package identity holds who a request acts for. It is its own small
// package so that the services that only need to know the signed-in
// teacher and their team do not import the team service.
package identity

import "github.com/google/uuid"

// Actor is the signed-in user a request acts for: every service method
// scopes its queries to TeamID.
type Actor struct {
	UserID uuid.UUID
	TeamID uuid.UUID
	Name   string
	Email  string
}
