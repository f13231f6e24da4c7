package mdtext

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestUnescapeDecodesOnce(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":                                    "plain text",
		"add a second example &amp; explain it":         "add a second example & explain it",
		"&lt;script&gt;x&lt;/script&gt;":                "<script>x</script>",
		"&amp;amp; and &amp;lt;notes&amp;gt;":           "&amp; and &lt;notes&gt;", // a typed "&amp;" stays "&amp;"
		`\&amp; is typed`:                               "&amp; is typed",
		`\*not bold\* \_x\_ \[a\] \\ \~ \` + "`":        "*not bold* _x_ [a] \\ ~ `",
		`C:\dir \n`:                                     `C:\dir \n`, // not an escape
		"&quot;q&quot; &#39;s&#39; &#x3C;b&#X3e; &#60;": `"q" 's' <b> <`,
		"&nbsp;":                             "\u00a0",
		"caf&eacute; &copy;":                 "café ©",
		"a & b &unknown; &; &#; &#x; & amp;": "a & b &unknown; &; &#; &#x; & amp;",
		"&#0; &#xD800; &#99999999;":          "\ufffd \ufffd &#99999999;",
		"tail \\":                            "tail \\",
		"tail &amp":                          "tail &amp",
	} {
		require.Equal(t, want, Unescape(in), in)
	}
}

func TestBreaks(t *testing.T) {
	require.Equal(t, 4, BreakAt("<br>x"))
	require.Equal(t, 5, BreakAt("<BR/>"))
	require.Equal(t, 6, BreakAt("<br />"))
	require.Equal(t, 0, BreakAt("<bra>"))
	require.Equal(t, 0, BreakAt("&lt;br&gt;"))
	require.Equal(t, 0, BreakAt("<br"))
	require.Equal(t, []string{"a", "b", "", "c <b> d"}, SplitBreaks("a<br>b<br/><BR >c <b> d"))
	require.Equal(t, []string{"no tags < here"}, SplitBreaks("no tags < here"))
	require.Equal(t, []string{"", ""}, SplitBreaks("<br>"))
}

func TestTextDecodesOutsideCode(t *testing.T) {
	for in, want := range map[string]string{
		"plain\n\n## Heading": "plain\n\n## Heading",
		"add a second example &amp; explain it. &lt;script&gt;x&lt;/script&gt;": "add a second example & explain it. <script>x</script>",
		`\*not bold\* **bold** &amp;amp; \&amp;`:                                "*not bold* **bold** &amp; &amp;",
		"| one<br>two | &lt;br&gt; <b>x</b> |":                                  "| one\ntwo | <br> <b>x</b> |",
		"a `code &amp; \\*` b &amp; `` x ` y `` \\` &amp;":                      "a `code &amp; \\*` b & `` x ` y `` ` &",
		"un`closed &amp;":                                          "un`closed &",
		"&nbsp;\n\nline  \nhard\\\nbreak":                          "\u00a0\n\nline  \nhard\nbreak",
		"```go\n&amp; \\* <br>\n```\n&amp;\n~~~\n&lt;\n~~~~\n&gt;": "```go\n&amp; \\* <br>\n```\n&\n~~~\n&lt;\n~~~~\n>",
		"   ```\n&amp;\n   ``` \n&amp;":                            "   ```\n&amp;\n   ``` \n&",
		"C:\\dir \\n & b":                                          "C:\\dir \\n & b",
	} {
		require.Equal(t, want, Text(in), in)
	}
}
