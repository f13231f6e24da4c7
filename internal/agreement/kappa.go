package agreement

// QWK is Cohen's quadratic weighted kappa of two raters who each put the
// same items in one of k ordered categories 0..k-1:
//
//	kappa = 1 − Σ w·O / Σ w·E,  w(i, j) = (i − j)² / (k − 1)²
//
// where O counts the items rater a put in i and rater b in j, and E is the
// count expected by chance (row total × column total / items). 1 is perfect
// agreement, 0 is chance, below 0 is worse than chance. ok is false when
// kappa is undefined: no items, a and b of different lengths, k < 2, a
// category outside 0..k-1, or no disagreement expected by chance (Σ w·E = 0,
// e.g. both raters always chose the same category).
func QWK(a, b []int, k int) (kappa float64, ok bool) {
	n := len(a)
	if n == 0 || len(b) != n || k < 2 {
		return 0, false
	}
	observed := make([][]float64, k)
	for i := range observed {
		observed[i] = make([]float64, k)
	}
	rows := make([]float64, k) // a's totals per category
	cols := make([]float64, k) // b's totals per category
	for x := range n {
		i, j := a[x], b[x]
		if i < 0 || i >= k || j < 0 || j >= k {
			return 0, false
		}
		observed[i][j]++
		rows[i]++
		cols[j]++
	}
	var wObserved, wExpected float64
	for i := range k {
		for j := range k {
			w := float64((i-j)*(i-j)) / float64((k-1)*(k-1))
			wObserved += w * observed[i][j]
			wExpected += w * rows[i] * cols[j] / float64(n)
		}
	}
	if wExpected == 0 {
		return 0, false
	}
	return 1 - wObserved/wExpected, true
}
