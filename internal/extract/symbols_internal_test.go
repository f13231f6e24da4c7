package extract

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSymbolText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ font, char, want string }{
		{"Symbol", "F0B0", "°"}, {"Symbol", "f0b0", "°"}, {"symbol", "F0B1", "±"}, {"Symbol", "F0B4", "×"},
		{"Symbol", "F0B8", "÷"}, {"Symbol", "F0A3", "≤"}, {"Symbol", "F0B3", "≥"}, {"Symbol", "F0B9", "≠"},
		{"Symbol", "F0BB", "≈"}, {"Symbol", "F0A5", "∞"}, {"Symbol", "F0AE", "→"}, {"Symbol", "F0AC", "←"},
		{"Symbol", "F0AD", "↑"}, {"Symbol", "F0AF", "↓"}, {"Symbol", "F061", "α"}, {"Symbol", "F070", "π"},
		{"Symbol", "F06D", "μ"}, {"Symbol", "F057", "Ω"}, {"Symbol", "F044", "Δ"}, {"Symbol", "F0D6", "√"},
		{"Symbol", "F028", "("}, {"Symbol", "F02D", "−"}, {"Symbol", "F0F0", ""},
		{"Wingdings", "F0FC", "✓"}, {"Wingdings", "F0FB", "✗"}, {"Wingdings", "F0FE", "☑"}, {"Wingdings", "F0FD", "☒"},
		{"Wingdings", "F0A8", "◻"}, {"Wingdings", "F06F", "□"}, {"Wingdings", "F04A", "☺"}, {"Wingdings", "F0D8", "➢"},
		{"Wingdings 2", "F050", ""}, // another font's code is not guessed
		{"Calibri", "00B0", "°"}, {"Cambria Math", "2211", "∑"}, {"Segoe UI Emoji", "1F600", "😀"},
		{"Symbol", "", ""}, {"Symbol", "zz", ""}, {"Symbol", "0007", ""}, {"Symbol", "E000", ""}, {"Symbol", "110000", ""},
	} {
		require.Equal(t, c.want, symbolText(c.font, c.char), "%s %s", c.font, c.char)
	}
}
