package grading

import (
	"strings"
	"testing"
)

// essayText is a 250-word answer without anything addressed to the grader,
// what nearly every submission is.
var essayText = strings.Repeat(`Plants are living things that make their own food from sunlight, water and air.
Chlorophyll is the green pigment in leaves that traps the energy of light.
The sun heats the sea and evaporation from oceans lifts water into the air as vapour.
High up the air is cold, so condensation forms clouds out of tiny droplets.
I was not sure about this part, so I read the textbook chapter again.
Oxygen is given off as a waste gas, which is lucky for animals like us.
`, 3)

// BenchmarkDetectInjection is the detector on one ordinary answer: every
// grading job runs it.
func BenchmarkDetectInjection(b *testing.B) {
	b.SetBytes(int64(len(essayText)))
	for b.Loop() {
		if f := DetectInjection(essayText); len(f) != 0 {
			b.Fatal(f)
		}
	}
}
