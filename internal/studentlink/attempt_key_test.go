package studentlink

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStudentKeyIgnoresCaseAndSpacing: one student is one key, however
// their email or (without one) their name is typed; two students are two.
func TestStudentKeyIgnoresCaseAndSpacing(t *testing.T) {
	t.Parallel()
	same := [][2][2]string{ // {email, name} pairs that are one student
		{{"sam@pupils.test", "Sam"}, {"  SAM@Pupils.TEST ", "Samuel"}},
		{{"", "Sam Student"}, {"", "  sam   STUDENT "}},
		{{"", "Ada Lovelace"}, {" ", "ada\tlovelace"}},
	}
	for _, p := range same {
		require.Equal(t, studentKey(p[0][0], p[0][1]), studentKey(p[1][0], p[1][1]), "%q and %q", p[0], p[1])
	}
	different := [][2][2]string{
		{{"sam@pupils.test", "Sam"}, {"kim@pupils.test", "Sam"}},
		{{"", "Sam Student"}, {"", "Sam Students"}},
		// an email and a name that reads like it are two students
		{{"sam@pupils.test", ""}, {"", "sam@pupils.test"}},
	}
	for _, p := range different {
		require.NotEqual(t, studentKey(p[0][0], p[0][1]), studentKey(p[1][0], p[1][1]), "%q and %q", p[0], p[1])
	}
}
