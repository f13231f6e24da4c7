// Package apperr is Markwell's error vocabulary: every error a user may see
// carries a code and a message meant for them; anything else is internal and
// is logged, never shown.
package apperr

import (
	"errors"
	"fmt"
	"time"
)

// Code classifies an error; the HTTP layer maps each code to one status.
type Code string

// The codes.
const (
	Invalid      Code = "invalid"
	NotFound     Code = "not_found"
	Forbidden    Code = "forbidden"
	Unauthorized Code = "unauthorized"
	Conflict     Code = "conflict"
	TooLarge     Code = "too_large"
	RateLimited  Code = "rate_limited"
	Upstream     Code = "upstream" // a service Markwell depends on (the AI model) failed
	Internal     Code = "internal"
)

// SignInCode names a sign-in failure as NextAuth names it. It is not an
// HTTP answer: it travels to the sign-in page as ?error=<SignInCode>, and
// the page shows a message for each.
type SignInCode string

// The sign-in codes.
const (
	// SignInOAuthSignin: the sign-in at the provider could not be started
	// (for example, its discovery document could not be fetched).
	SignInOAuthSignin SignInCode = "OAuthSignin"
	// SignInOAuthCallback: the provider's answer was refused (unknown or
	// replayed state, failed code exchange, an id_token whose signature,
	// audience, expiry or nonce does not check out, or the user declined).
	SignInOAuthCallback SignInCode = "OAuthCallbackError"
	// SignInAccountNotLinked: the email belongs to an existing user, but this
	// provider did not verify it, so the accounts are not linked.
	SignInAccountNotLinked SignInCode = "AccountNotLinkedError"
	// SignInCredentials: the development sign-in's name or email is not usable.
	SignInCredentials SignInCode = "CredentialsSignin"
	// SignInCallback: signing in failed on our side (e.g. the database).
	SignInCallback SignInCode = "Callback"
	// SignInSessionRequired: the page needs a signed-in user.
	SignInSessionRequired SignInCode = "SessionRequired"
	// SignInConfiguration: the server is not configured for this sign-in.
	SignInConfiguration SignInCode = "Configuration"
)

// Error is an error with a code and a message safe to show a user.
type Error struct {
	Code    Code
	Message string
	Err     error
	// RetryAfter is how long a RateLimited caller should wait; the HTTP
	// layer sends it as Retry-After.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// New returns an error with a code and a user-facing message.
func New(code Code, message string) *Error { return &Error{Code: code, Message: message} }

// Wrap attaches a code and user-facing message to a cause.
func Wrap(code Code, message string, err error) *Error {
	return &Error{Code: code, Message: message, Err: err}
}

// Invalidf is an Invalid error with a formatted message.
func Invalidf(format string, args ...any) *Error {
	return &Error{Code: Invalid, Message: fmt.Sprintf(format, args...)}
}

// RateLimitedAfter is a RateLimited error telling the caller to come back
// after d.
func RateLimitedAfter(message string, d time.Duration) *Error {
	return &Error{Code: RateLimited, Message: message, RetryAfter: d}
}

// SignInError is a sign-in failure: a SignInCode for the user, a cause for
// the log.
type SignInError struct {
	// Code names the failure for the sign-in page.
	Code SignInCode
	// Err is the cause, for the log only.
	Err error
}

// Error describes the failure for the log.
func (e *SignInError) Error() string {
	if e.Err == nil {
		return "sign-in: " + string(e.Code)
	}
	return fmt.Sprintf("sign-in: %s: %v", e.Code, e.Err)
}

// Unwrap returns the cause.
func (e *SignInError) Unwrap() error { return e.Err }

// SignInFailed is a sign-in failure with code, caused by err.
func SignInFailed(code SignInCode, err error) *SignInError {
	return &SignInError{Code: code, Err: err}
}

// SignInCodeOf returns the SignInCode in err's chain, or SignInCallback
// (a failure on our side) when it has none.
func SignInCodeOf(err error) SignInCode {
	var e *SignInError
	if errors.As(err, &e) {
		return e.Code
	}
	return SignInCallback
}

// ErrNotFound is the one not-found answer: ids of other teams look exactly
// like ids that do not exist.
var ErrNotFound = New(NotFound, "Not found")

// From returns the *Error in err's chain, or an Internal one.
func From(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: Internal, Message: "Something went wrong. Please try again.", Err: err}
}
