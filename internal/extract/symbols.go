package extract

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// symbolText is the text of a Word symbol (w:sym). Word's Insert Symbol
// writes a character of a symbol font as the font's byte plus F000, a
// private-use code that means nothing without the font: "5°C" typed with
// Symbol's degree sign is `5<w:sym w:font="Symbol" w:char="F0B0"/>C`. Those
// codes are mapped to the Unicode characters the Symbol and Wingdings fonts
// draw; an unknown font's code is left out rather than guessed. A code
// outside F000–F0FF is already Unicode.
func symbolText(font, code string) string {
	n, err := strconv.ParseUint(strings.TrimSpace(code), 16, 32)
	if err != nil || n == 0 {
		return ""
	}
	if n >= 0xF000 && n <= 0xF0FF {
		b := byte(n)
		switch strings.ToLower(strings.TrimSpace(font)) {
		case "symbol":
			if strings.IndexByte(symbolASCII, b) >= 0 {
				return string(rune(b))
			}
			return runeText(symbolFont[b])
		case "wingdings":
			return runeText(wingdingsFont[b])
		}
		return ""
	}
	r := rune(n)
	if !utf8.ValidRune(r) || unicode.IsControl(r) || unicode.Is(unicode.Co, r) {
		return ""
	}
	return string(r)
}

// runeText is r as text, "" for 0 (a code with no character).
func runeText(r rune) string {
	if r == 0 {
		return ""
	}
	return string(r)
}

// symbolASCII are the bytes the Symbol font draws as ASCII does.
const symbolASCII = " !#%&()+,./0123456789:;<=>?[]_{|}"

// symbolFont is the Adobe Symbol encoding (Unicode's SYMBOL.TXT), with the
// Greek letters SYMBOL.TXT maps to look-alikes (Δ to U+2206, Ω to U+2126,
// μ to U+00B5) taken as Greek, and the corporate-use bracket and arrow
// pieces as their Unicode equivalents.
var symbolFont = map[byte]rune{
	0x22: '∀', 0x24: '∃', 0x27: '∋', 0x2A: '∗', 0x2D: '−', 0x40: '≅',
	0x41: 'Α', 0x42: 'Β', 0x43: 'Χ', 0x44: 'Δ', 0x45: 'Ε', 0x46: 'Φ', 0x47: 'Γ', 0x48: 'Η',
	0x49: 'Ι', 0x4A: 'ϑ', 0x4B: 'Κ', 0x4C: 'Λ', 0x4D: 'Μ', 0x4E: 'Ν', 0x4F: 'Ο', 0x50: 'Π',
	0x51: 'Θ', 0x52: 'Ρ', 0x53: 'Σ', 0x54: 'Τ', 0x55: 'Υ', 0x56: 'ς', 0x57: 'Ω', 0x58: 'Ξ',
	0x59: 'Ψ', 0x5A: 'Ζ', 0x5C: '∴', 0x5E: '⊥', 0x60: '‾',
	0x61: 'α', 0x62: 'β', 0x63: 'χ', 0x64: 'δ', 0x65: 'ε', 0x66: 'φ', 0x67: 'γ', 0x68: 'η',
	0x69: 'ι', 0x6A: 'ϕ', 0x6B: 'κ', 0x6C: 'λ', 0x6D: 'μ', 0x6E: 'ν', 0x6F: 'ο', 0x70: 'π',
	0x71: 'θ', 0x72: 'ρ', 0x73: 'σ', 0x74: 'τ', 0x75: 'υ', 0x76: 'ϖ', 0x77: 'ω', 0x78: 'ξ',
	0x79: 'ψ', 0x7A: 'ζ', 0x7E: '∼',
	0xA0: '€', 0xA1: 'ϒ', 0xA2: '′', 0xA3: '≤', 0xA4: '⁄', 0xA5: '∞', 0xA6: 'ƒ', 0xA7: '♣',
	0xA8: '♦', 0xA9: '♥', 0xAA: '♠', 0xAB: '↔', 0xAC: '←', 0xAD: '↑', 0xAE: '→', 0xAF: '↓',
	0xB0: '°', 0xB1: '±', 0xB2: '″', 0xB3: '≥', 0xB4: '×', 0xB5: '∝', 0xB6: '∂', 0xB7: '•',
	0xB8: '÷', 0xB9: '≠', 0xBA: '≡', 0xBB: '≈', 0xBC: '…', 0xBD: '⏐', 0xBE: '⎯', 0xBF: '↵',
	0xC0: 'ℵ', 0xC1: 'ℑ', 0xC2: 'ℜ', 0xC3: '℘', 0xC4: '⊗', 0xC5: '⊕', 0xC6: '∅', 0xC7: '∩',
	0xC8: '∪', 0xC9: '⊃', 0xCA: '⊇', 0xCB: '⊄', 0xCC: '⊂', 0xCD: '⊆', 0xCE: '∈', 0xCF: '∉',
	0xD0: '∠', 0xD1: '∇', 0xD2: '®', 0xD3: '©', 0xD4: '™', 0xD5: '∏', 0xD6: '√', 0xD7: '⋅',
	0xD8: '¬', 0xD9: '∧', 0xDA: '∨', 0xDB: '⇔', 0xDC: '⇐', 0xDD: '⇑', 0xDE: '⇒', 0xDF: '⇓',
	0xE0: '◊', 0xE1: '⟨', 0xE2: '®', 0xE3: '©', 0xE4: '™', 0xE5: '∑', 0xE6: '⎛', 0xE7: '⎜',
	0xE8: '⎝', 0xE9: '⎡', 0xEA: '⎢', 0xEB: '⎣', 0xEC: '⎧', 0xED: '⎨', 0xEE: '⎩', 0xEF: '⎪',
	0xF1: '⟩', 0xF2: '∫', 0xF3: '⌠', 0xF4: '⎮', 0xF5: '⌡', 0xF6: '⎞', 0xF7: '⎟', 0xF8: '⎠',
	0xF9: '⎤', 0xFA: '⎥', 0xFB: '⎦', 0xFC: '⎫', 0xFD: '⎬', 0xFE: '⎭',
}

// wingdingsFont is the part of Wingdings pupils and teachers use in
// written work: ticks, crosses and boxes (ü ✓, û ✗, þ ☑, ý ☒, ¨ ◻), bullets,
// arrows, stars and faces, as Unicode 7 maps them.
var wingdingsFont = map[byte]rune{
	0x4A: '☺', 0x4B: '😐', 0x4C: '☹', 0x4E: '☠', 0x54: '❄', 0x6C: '●', 0x6D: '❍', 0x6E: '■',
	0x6F: '□', 0x71: '❑', 0x72: '❒', 0x73: '⬧', 0x74: '⧫', 0x75: '◆', 0x76: '❖', 0x77: '⬥',
	0x78: '⌧', 0x9E: '·', 0x9F: '•', 0xA0: '▪', 0xA1: '○', 0xA4: '◉', 0xA5: '◎', 0xA7: '▪',
	0xA8: '◻', 0xAA: '✦', 0xAB: '★', 0xD8: '➢', 0xDC: '➲', 0xE8: '➔', 0xEF: '⇦', 0xF0: '⇨',
	0xF1: '⇧', 0xF2: '⇩', 0xF3: '⬄', 0xF4: '⇳', 0xF9: '▭', 0xFA: '▫', 0xFB: '✗', 0xFC: '✓',
	0xFD: '☒', 0xFE: '☑',
}
