package httpapi

import (
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/modelcheck"
	"github.com/markwell/markwell/internal/ratelimit"
)

// ModelCheckPage is the app's page of the provider check. The server
// serves the app there to operators only (404 to everyone else, as for
// /admin/jobs); the rest of /admin/ is never the app's.
const ModelCheckPage = "/admin/model-check"

// ModelCheckLimit is how often the provider check may run, for every
// operator together: each run spends the school's tokens on the provider.
var ModelCheckLimit = ratelimit.Rule{Limit: 10, Window: time.Hour}

// Messages of the provider check's refusals.
const (
	MsgModelCheckLimited = "The provider check has run 10 times this hour: each run spends tokens. Please wait and try again."
	MsgModelCheckRunning = "A provider check is already running. Please wait for it to finish."
)

// modelCheckHandlers serve the operator page's provider check
// (/admin/model-check in the app).
type modelCheckHandlers struct {
	checker *modelcheck.Checker
	limiter *ratelimit.Limiter
	// running lets one check run at a time: a second would only spend the
	// same tokens again.
	running sync.Mutex
}

// registerModelCheck adds the operator routes of the provider check to g
// (the /api/v1 group: CSRF-checked writes). Everyone but an operator gets
// 404, as for /admin/jobs; without a checker, operators get 404 too.
func registerModelCheck(g *gin.RouterGroup, d Deps) {
	h := &modelCheckHandlers{checker: d.ModelCheck, limiter: d.Limiter}
	op := g.Group("/operator", operatorOnly(d), func(c *gin.Context) {
		if h.checker == nil {
			notFound(c)
		}
	})
	op.GET("/model-check", handle(h.settings))
	op.POST("/model-check", handle(h.run))
}

// settings is what a check would run against: the page shows it first.
func (h *modelCheckHandlers) settings(_ *gin.Context, _ identity.Actor, _ *struct{}) (gin.H, error) {
	return gin.H{"settings": h.checker.Settings(), "classSize": modelcheck.DefaultClassSize,
		"limit": gin.H{"runs": ModelCheckLimit.Limit, "windowSeconds": int(ModelCheckLimit.Window.Seconds())}}, nil
}

type modelCheckBody struct {
	// Mode is the output mode to check; empty means the configured one
	// (LLM_OUTPUT_MODE).
	Mode string `json:"mode"`
}

// run runs the provider check and answers its report (seconds to minutes).
func (h *modelCheckHandlers) run(c *gin.Context, _ identity.Actor, in *modelCheckBody) (gin.H, error) {
	var mode llm.OutputMode
	if in.Mode != "" {
		m, err := llm.ParseOutputMode(in.Mode)
		if err != nil {
			return nil, apperr.New(apperr.Invalid, "mode must be auto, json_schema, json_object or prompt")
		}
		mode = m
	}
	if !h.running.TryLock() {
		return nil, apperr.New(apperr.Conflict, MsgModelCheckRunning)
	}
	defer h.running.Unlock()
	if err := h.limiter.Allow(c, ModelCheckLimit, "operator:model-check", MsgModelCheckLimited); err != nil {
		return nil, err
	}
	rep, err := h.checker.Check(c, mode)
	if err != nil {
		return nil, err
	}
	logger(c).Info("provider check", "passed", rep.Passed, "mode", rep.Mode, "first_error", rep.FirstError)
	return gin.H{"report": rep}, nil
}
