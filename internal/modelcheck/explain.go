package modelcheck

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"syscall"

	"github.com/openai/openai-go/v3"

	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/llm"
)

// Explain says in plain words, for an operator, what err means when model
// was asked through the provider o describes: which setting to look at and
// what to set it to.
func Explain(err error, o Options, model string) string {
	base := o.BaseURL
	if base == "" {
		base = "LLM_BASE_URL"
	}
	var apiErr *openai.Error
	var rl *llm.RateLimitError
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var netErr net.Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &rl):
		return fmt.Sprintf("the provider is rate-limiting this key (429, retry after %s): wait and run the check again, "+
			"and check the key's quota or billing; set LLM_RPM/LLM_TPM a little under its limits", rl.RetryAfter)
	case llm.IsSchemaRefusal(err):
		return "the provider refused the answer's schema for strict structured output: please report this as a Markwell bug; " +
			"LLM_OUTPUT_MODE=json_object works around it" + providerSays(err)
	case errors.As(err, &apiErr):
		return explainStatus(apiErr, o, model, base)
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &netErr) && netErr.Timeout():
		limit := "the time limit"
		if o.Timeout > 0 {
			limit = "LLM_TIMEOUT (" + o.Timeout.String() + ")"
		}
		return fmt.Sprintf("no answer from %s within %s: a slow model (a local GPU) needs a longer LLM_TIMEOUT", base, limit)
	case errors.Is(err, context.Canceled):
		return "the check was stopped before the provider answered"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "nothing answers at " + base + ": is the server running, and is LLM_BASE_URL's host and port right?"
	case errors.As(err, &dnsErr):
		return fmt.Sprintf("the host %q of %s is not found (DNS): check LLM_BASE_URL", dnsErr.Name, base)
	case errors.As(err, &certErr) || errors.As(err, &unknownAuth):
		return base + "'s TLS certificate is not trusted by this machine: install its CA, or check LLM_BASE_URL"
	case errors.Is(err, grading.ErrInvalidOutput):
		return "the model's answer did not follow the schema, twice (bad output): " + cause(err)
	case errors.Is(err, llm.ErrBadOutput):
		return "the model's answer could not be used (bad output): " + cause(err)
	case errors.Is(err, syscall.ECONNRESET) || strings.Contains(err.Error(), "EOF"):
		return "the connection to " + base + " was closed before an answer: is it an OpenAI-compatible endpoint?"
	}
	return "the call failed: " + err.Error()
}

// explainStatus says what an HTTP error from the provider means.
func explainStatus(e *openai.Error, o Options, model, base string) string {
	said := providerSays(e)
	lower := strings.ToLower(e.Message + " " + e.Code + " " + e.Param)
	switch s := e.StatusCode; {
	case s == http.StatusUnauthorized:
		return "the API key was refused (401): check LLM_API_KEY" + said
	case s == http.StatusForbidden:
		return fmt.Sprintf("the API key may not use the model %s (403): check the key's project and permissions", model) + said
	case s == http.StatusNotFound && (e.Code == "model_not_found" || strings.Contains(lower, "model")):
		return fmt.Sprintf("the model %s does not exist at %s (404): check LLM_MODEL/LLM_VISION_MODEL against the provider's model list", model, base) + said
	case s == http.StatusNotFound:
		return fmt.Sprintf("%s has no chat completions endpoint (404): LLM_BASE_URL usually ends in /v1", base) + said
	case s == http.StatusBadRequest && refusesFormat(lower, "json_schema") && o.Mode != llm.ModeJSONObject && o.Mode != llm.ModePrompt:
		return "the provider refused structured output; LLM_OUTPUT_MODE=json_object" + said
	case s == http.StatusBadRequest && refusesFormat(lower, "json_object") && o.Mode == llm.ModeJSONObject:
		return "the provider refused JSON mode; LLM_OUTPUT_MODE=prompt" + said
	case s == http.StatusRequestEntityTooLarge:
		return "the request was too large for the provider (413)" + said
	case s >= 500:
		return fmt.Sprintf("the provider failed (%d): try again later; if it persists, the server's logs say why", s) + said
	}
	return fmt.Sprintf("the provider refused the request (%d)", e.StatusCode) + said
}

// providerSays quotes the provider's own message in err, if any.
func providerSays(err error) string {
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) || strings.TrimSpace(apiErr.Message) == "" {
		return ""
	}
	return ` (the provider says: "` + clip(apiErr.Message) + `")`
}

// refusesFormat reports whether a 400's text is about the response format
// (of kind format, or structured output in general).
func refusesFormat(lower, format string) bool {
	return strings.Contains(lower, "response_format") || strings.Contains(lower, format) ||
		strings.Contains(lower, "structured output") || strings.Contains(lower, "json mode")
}

// cause is the innermost part of an error's text: what went wrong, without
// the chain of "llm grade_answers: …" prefixes.
func cause(err error) string {
	s := err.Error()
	for _, sentinel := range []error{grading.ErrInvalidOutput, llm.ErrBadOutput} {
		s = strings.ReplaceAll(s, ": "+sentinel.Error(), "")
		s = strings.ReplaceAll(s, sentinel.Error()+": ", "")
	}
	if i := strings.LastIndex(s, "llm "); i >= 0 {
		if j := strings.Index(s[i:], ": "); j >= 0 {
			s = s[i+j+2:]
		}
	}
	return clip(s)
}

// clip shortens text for a table cell's sentence.
func clip(s string) string {
	const limit = 200
	r := []rune(strings.TrimSpace(s))
	if len(r) <= limit {
		return string(r)
	}
	return string(r[:limit]) + "…"
}
