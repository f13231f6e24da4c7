package httpapi

import (
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"sort"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/apperr"
)

const (
	logMaxFields = 30
	logMaxValue  = 2000
)

// clientLog is POST {base}/_log: NextAuth's client reports its errors here
// (form-encoded level, code and metadata). Each IP may send a few a minute;
// bodies are capped; entries are logged at warn.
func (h *authHandlers) clientLog(c *gin.Context) {
	if !h.logs.Allow(c.ClientIP(), time.Now()) {
		fail(c, apperr.New(apperr.RateLimited, "Too many client logs; try again later."))
		return
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, logBodyLimit)
	fields := map[string]string{}
	mt, _, _ := mime.ParseMediaType(c.GetHeader("Content-Type"))
	var err error
	if mt == "application/json" {
		var raw map[string]json.RawMessage
		if err = json.NewDecoder(c.Request.Body).Decode(&raw); err == nil {
			for k, v := range raw {
				var s string
				if json.Unmarshal(v, &s) != nil {
					s = string(v)
				}
				fields[k] = s
			}
		}
	} else if err = c.Request.ParseForm(); err == nil {
		for k, v := range c.Request.PostForm {
			if len(v) > 0 {
				fields[k] = v[0]
			}
		}
	}
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			fail(c, apperr.New(apperr.TooLarge, "Client log is too large"))
			return
		}
		fail(c, apperr.Wrap(apperr.Invalid, "Client log must be a form or a JSON object", err))
		return
	}
	level, code := clip(fields["level"]), clip(fields["code"])
	delete(fields, "level")
	delete(fields, "code")
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > logMaxFields {
		keys = keys[:logMaxFields]
	}
	meta := make(map[string]string, len(keys))
	for _, k := range keys {
		meta[clip(k)] = clip(fields[k])
	}
	logger(c).Warn("client log", "client_level", level, "code", code, "metadata", meta, "ip", c.ClientIP())
	c.JSON(http.StatusOK, gin.H{})
}

func clip(s string) string {
	if len(s) > logMaxValue {
		return s[:logMaxValue] + "…"
	}
	return s
}
