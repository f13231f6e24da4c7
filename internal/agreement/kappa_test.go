package agreement_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/agreement"
)

// ratings expands a confusion matrix (rows: rater a, columns: rater b) into
// the two raters' lists.
func ratings(m [][]int) (a, b []int) {
	for i, row := range m {
		for j, n := range row {
			for range n {
				a, b = append(a, i), append(b, j)
			}
		}
	}
	return a, b
}

func TestQWKHandComputed(t *testing.T) {
	t.Parallel()
	// Teacher in rows, AI in columns, 3 categories, 10 items:
	//
	//	      AI0 AI1 AI2 | rows
	//	T0     2   0   1  |  3
	//	T1     1   3   1  |  5
	//	T2     0   1   1  |  2
	//	cols   3   4   3  | 10
	//
	// Weights w(i,j) = (i−j)²/(k−1)² = (i−j)²/4: 0.25 one apart, 1 two apart.
	// Σ w·O = 1·O02 + 0.25·(O10 + O12 + O21) = 1 + 0.25·3 = 1.75.
	// Expected E(i,j) = row_i·col_j/10:
	//	E01 = 3·4/10 = 1.2  E02 = 3·3/10 = 0.9  E10 = 5·3/10 = 1.5
	//	E12 = 5·3/10 = 1.5  E20 = 2·3/10 = 0.6  E21 = 2·4/10 = 0.8
	// Σ w·E = 0.25·(1.2 + 1.5 + 1.5 + 0.8) + 1·(0.9 + 0.6) = 1.25 + 1.5 = 2.75.
	// kappa = 1 − 1.75/2.75 = 4/11 ≈ 0.3636.
	a, b := ratings([][]int{{2, 0, 1}, {1, 3, 1}, {0, 1, 1}})
	kappa, ok := agreement.QWK(a, b, 3)
	require.True(t, ok)
	require.InDelta(t, 0.3636, kappa, 0.00005)
	require.InDelta(t, 4.0/11, kappa, 1e-12)

	// Swapping the raters transposes the matrix; kappa is symmetric.
	back, ok := agreement.QWK(b, a, 3)
	require.True(t, ok)
	require.InDelta(t, kappa, back, 1e-12)
}

func TestQWK(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		a, b   []int
		k      int
		want   float64
		wantOK bool
	}{
		{name: "perfect agreement", a: []int{0, 1, 2, 3, 1}, b: []int{0, 1, 2, 3, 1}, k: 4, want: 1, wantOK: true},
		// O has (0,2), (1,1), (2,0): Σ w·O = 1 + 0 + 1 = 2. Rows and columns
		// are all 1, so E = 1/3 everywhere: Σ w·E = (1/3)·(4·0.25 + 2·1) = 1.
		// kappa = 1 − 2/1 = −1.
		{name: "systematic reversal", a: []int{0, 1, 2}, b: []int{2, 1, 0}, k: 3, want: -1, wantOK: true},
		// The AI is always one level above a teacher who uses levels 0 and 1
		// (k = 3, w = 0.25 one apart): pairs (0,1), (1,2), (0,1), (1,2).
		// Σ w·O = 4·0.25 = 1. Rows 2,2,0; columns 0,2,2; E = 1 for each of
		// (0,1), (0,2), (1,1), (1,2): Σ w·E = 0.25 + 1 + 0 + 0.25 = 1.5.
		// kappa = 1 − 1/1.5 = 1/3, below agreement and above chance.
		{name: "always one level higher", a: []int{0, 1, 0, 1}, b: []int{1, 2, 1, 2}, k: 3, want: 1.0 / 3, wantOK: true},
		// The teacher always chose 1, so the observed and expected matrices
		// are the same row: kappa is exactly chance, 0.
		{name: "chance", a: []int{1, 1, 1}, b: []int{0, 1, 2}, k: 3, want: 0, wantOK: true},
		{name: "both always the same category", a: []int{2, 2, 2}, b: []int{2, 2, 2}, k: 3},
		{name: "no items", a: nil, b: nil, k: 3},
		{name: "different lengths", a: []int{0, 1}, b: []int{0}, k: 3},
		{name: "one category", a: []int{0, 0}, b: []int{0, 0}, k: 1},
		{name: "category out of range", a: []int{0, 3}, b: []int{0, 1}, k: 3},
		{name: "negative category", a: []int{0, -1}, b: []int{0, 1}, k: 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			kappa, ok := agreement.QWK(tc.a, tc.b, tc.k)
			require.Equal(t, tc.wantOK, ok)
			require.InDelta(t, tc.want, kappa, 1e-12)
		})
	}
}
