package docx

// prescan reads the markdown source before goldmark parses it and refuses a document whose structure would make
// the parse itself slow. goldmark's Parse takes no context and cannot be stopped, and some inputs of a few hundred
// kilobytes are quadratic inside it (measured with goldmark v1.8.7 on 500,000 characters):
//
//   - containers opened on one line: ">" × 499,000 or "- " × 250,000 (each new block quote or list item walks
//     the blocks already open), and lists nested by indentation (each line re-measures its indentation for each
//     open list): minutes. Refused past Limits.Depth markers on a line.
//   - inline marks that never pair: "*a_" runs mixing *, _ and ~ (the delimiter stack is searched back to its
//     bottom for every closer), unclosed "[" labels, backtick runs, "<": minutes. The work is at most
//     quadratic in the number of marks of one paragraph, and a paragraph never spans a blank line, so the sum
//     over blank-line-separated chunks of (marks in the chunk)² bounds it: refused past Limits.MarkWork.
//   - link addresses and titles that are never closed: "[a](" × 120,000 (each "](" scans the rest of its line
//     for the end of the address, and a title the rest of its paragraph for its closing quote): 5 minutes. The
//     scans are simulated here as goldmark does them, summing their lengths: refused past Limits.LinkScan.
//
// Everything here is linear in the source (the simulation stops as soon as the sum passes its cap). What goldmark
// does per node afterwards is capped by the walk (builder.enter).
func prescan(src []byte, lim Limits) error {
	if err := scanLines(src, lim); err != nil {
		return err
	}
	return scanLinks(src, lim)
}

// scanLines checks each line's container markers, each chunk's inline marks, and refuses a chunk that holds a table
// delimiter row ("|---|---|") and more pipe rows than a table may have: goldmark would parse a table of 80,000 rows
// (linear, but half a second) before the walk refuses it. A table never spans a blank line either; rows without a
// pipe are left to the walk's count.
func scanLines(src []byte, lim Limits) error {
	work, marks, pipeRows := 0, 0, 0
	delimiter := false
	for start := 0; start < len(src); {
		end := start
		for end < len(src) && src[end] != '\n' {
			end++
		}
		line := src[start:end]
		start = end + 1
		if blank(line) { // a paragraph (any inline block) never spans a blank line
			work += marks * marks
			marks, pipeRows, delimiter = 0, 0, false
			if work > lim.MarkWork {
				return lim.tooManyMarks()
			}
			continue
		}
		if containerDepth(line) > lim.Depth {
			return lim.tooDeep()
		}
		pipe := false
		for _, c := range line {
			if isMark[c] {
				marks++
			}
			pipe = pipe || c == '|'
		}
		if pipe {
			pipeRows++
			delimiter = delimiter || delimiterRow(line)
			if delimiter && pipeRows > lim.TableRows+1 { // the header and the delimiter row are not rows
				return lim.tooManyRows()
			}
		}
	}
	if work+marks*marks > lim.MarkWork {
		return lim.tooManyMarks()
	}
	return nil
}

// delimiterRow reports whether line looks like a table's delimiter row: cells of dashes with optional colons,
// separated by pipes ("|---|:-:|", "--- | ---").
func delimiterRow(line []byte) bool {
	dashes := false
	for _, c := range line {
		switch c {
		case '-':
			dashes = true
		case '|', ':', ' ', '\t', '\r', '>':
		default:
			return false
		}
	}
	return dashes
}

// isMark marks the bytes that start or end inline constructs goldmark pairs up: emphasis and strikethrough
// delimiters, link and image brackets, code spans, raw HTML and autolinks, escapes and entities.
var isMark = func() (m [256]bool) {
	for _, c := range []byte("*_~`[]<!\\&") {
		m[c] = true
	}
	return m
}()

// blank reports whether line holds only spaces and tabs (a trailing \r of a CRLF ending included).
func blank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// containerDepth bounds how deep the containers (block quotes, list items) the line opens or continues nest: the
// markers at its start ("> ", "- ", "* ", "+ ", "1. ", "1) ") plus one level for every two columns of white space
// among them (a nested list item is indented at least two columns past its parent's marker). A line without any
// marker opens no container, so it cannot be deeper than a line before it: it counts 0. A thematic break ("- - -",
// "* * *") ends the markers, as goldmark reads it.
func containerDepth(line []byte) int {
	markers, ws, col := 0, 0, 0
	i := 0
	for i < len(line) {
		switch c := line[i]; {
		case c == ' ':
			ws++
			col++
			i++
			continue
		case c == '\t':
			w := 4 - col%4
			ws += w
			col += w
			i++
			continue
		case c == '>':
			markers++
			col++
			i++
			continue
		case (c == '-' || c == '*' || c == '+') && spaceOrEnd(line, i+1):
			if thematicBreak(line[i:]) {
				return depthOf(markers, ws)
			}
			markers++
			col++
			i++
			continue
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j < len(line) && (line[j] == '.' || line[j] == ')') && spaceOrEnd(line, j+1) {
				markers++
				col += j + 1 - i
				i = j + 1
				continue
			}
		}
		break
	}
	return depthOf(markers, ws)
}

func depthOf(markers, ws int) int {
	if markers == 0 {
		return 0
	}
	return markers + max(ws-markers, 0)/2
}

// spaceOrEnd reports whether line[i] is a space or tab, or the line ends there.
func spaceOrEnd(line []byte, i int) bool {
	return i >= len(line) || line[i] == ' ' || line[i] == '\t' || line[i] == '\r'
}

// thematicBreak reports whether s is a thematic break: three or more of the same -, * or _ and nothing but
// spaces and tabs.
func thematicBreak(s []byte) bool {
	var mark byte
	n := 0
	for _, c := range s {
		switch {
		case c == ' ' || c == '\t' || c == '\r':
		case (c == '-' || c == '*' || c == '_') && (mark == 0 || c == mark):
			mark = c
			n++
		default:
			return false
		}
	}
	return n >= 3
}

// scanLinks simulates goldmark's search for the end of every inline link's address and title ("](") and of every
// full reference's label ("]["), summing the bytes each search reads. Every "](" and "][" is counted, as if each
// closed a link label: more than goldmark reads, never less.
func scanLinks(src []byte, lim Limits) error {
	total := 0
	for i := 0; i+1 < len(src); i++ {
		if src[i] != ']' || (src[i+1] != '(' && src[i+1] != '[') {
			continue
		}
		var n int
		if src[i+1] == '(' {
			n = linkScan(src, i+2)
		} else {
			_, n = closure(src, i+2, '[', ']')
		}
		if total += n; total > lim.LinkScan {
			return lim.tooMuchLinkScan()
		}
	}
	return nil
}

// linkScan is the number of bytes goldmark's parseLink reads from p, just past "](" : white space, the address
// (to the end of its line at most), white space, and a title in "…", '…' or (…) up to its closer.
func linkScan(src []byte, p int) int {
	start := p
	p = skipSpace(src, p)
	if p >= len(src) || src[p] == ')' {
		return p - start
	}
	if src[p] == '<' { // <address>: to the first unescaped '>' of the line
		i := p + 1
		for i < len(src) && src[i] != '\n' {
			if src[i] == '\\' && i+1 < len(src) && src[i+1] != '\n' && isPunct(src[i+1]) {
				i += 2
				continue
			}
			if src[i] == '>' {
				break
			}
			i++
		}
		if i >= len(src) || src[i] != '>' {
			return i - start
		}
		p = i + 1
	} else { // bare address: to white space or an unbalanced ')'
		opened := 0
		i := p
	scan:
		for i < len(src) {
			c := src[i]
			switch {
			case c == '\\' && i+1 < len(src) && isPunct(src[i+1]):
				i += 2
				continue
			case c == '(':
				opened++
			case c == ')':
				if opened--; opened < 0 {
					break scan
				}
			case isSpace(c):
				break scan
			}
			i++
		}
		p = i
	}
	p = skipSpace(src, p)
	if p >= len(src) {
		return p - start
	}
	var closer byte
	switch src[p] {
	case '"', '\'':
		closer = src[p]
	case '(':
		closer = ')'
	default:
		return p - start
	}
	end, _ := closure(src, p+1, src[p], closer)
	return end - start
}

// closure is goldmark's FindClosure without nesting: from p, the position just past the first closer not escaped
// by a backslash, or the end of the paragraph (a blank line) when there is none; and the bytes read.
func closure(src []byte, p int, _ /* opener */, closer byte) (end, n int) {
	start := p
	lineStart := false
	for p < len(src) {
		c := src[p]
		if lineStart {
			if blank(restOfLine(src, p)) {
				return p, p - start
			}
			lineStart = false
		}
		switch {
		case c == '\\' && p+1 < len(src) && src[p+1] != '\n' && isPunct(src[p+1]):
			p += 2
			continue
		case c == closer:
			return p + 1, p + 1 - start
		case c == '\n':
			lineStart = true
		}
		p++
	}
	return p, p - start
}

// restOfLine is src from p to the end of its line.
func restOfLine(src []byte, p int) []byte {
	e := p
	for e < len(src) && src[e] != '\n' {
		e++
	}
	return src[p:e]
}

// skipSpace skips white space, line endings included (goldmark's SkipSpaces crosses lines).
func skipSpace(src []byte, p int) int {
	for p < len(src) && isSpace(src[p]) {
		p++
	}
	return p
}

// isSpace is goldmark's util.IsSpace.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// isPunct is goldmark's util.IsPunct: ASCII punctuation.
func isPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}
