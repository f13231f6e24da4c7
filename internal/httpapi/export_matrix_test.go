package httpapi

import (
	"context"

	"github.com/google/uuid"
)

// TeamBlind marks ctx so that the router serves its request team-blind, as
// the team teamID (see teamBlindKey): the route matrix's test of the test
// wraps one route's request in it to simulate a handler without its team
// check. Compiled into the tests only.
func TeamBlind(ctx context.Context, teamID uuid.UUID) context.Context {
	return context.WithValue(ctx, teamBlindKey{}, teamID)
}
