package apperr_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
)

func TestSignInCodeOf(t *testing.T) {
	t.Parallel()
	cause := errors.New("the id_token's audience is not ours")
	err := fmt.Errorf("finish sign-in: %w", apperr.SignInFailed(apperr.SignInOAuthCallback, cause))
	// The sign-in page reads the code NextAuth's client expects.
	require.Equal(t, apperr.SignInOAuthCallback, apperr.SignInCodeOf(err))
	require.Equal(t, "OAuthCallbackError", string(apperr.SignInCodeOf(err)))
	require.ErrorIs(t, err, cause, "the cause stays for the log")
	require.Equal(t, "finish sign-in: sign-in: OAuthCallbackError: the id_token's audience is not ours", err.Error())
	// Anything else failed on our side.
	require.Equal(t, apperr.SignInCallback, apperr.SignInCodeOf(errors.New("database is down")))
	require.Equal(t, "sign-in: Configuration", (&apperr.SignInError{Code: apperr.SignInConfiguration}).Error())
}
