package httpapi

import (
	"net/http/httptest"
	"reflect"

	"github.com/gin-gonic/gin"
)

// BodyType is the body type a handler made by handle binds, or nil for a
// handler made otherwise.
func BodyType(h gin.HandlerFunc) reflect.Type {
	c, _ := gin.CreateTestContext(httptest.NewRecorder())
	c.Request = httptest.NewRequest("POST", "/", nil)
	var t reflect.Type
	c.Set(bodyTypeKey, &t)
	func() {
		defer func() { _ = recover() }() // a plain handler may not like an empty request
		h(c)
	}()
	return t
}
