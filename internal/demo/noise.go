package demo

import "math"

// Noise returns a deterministic pseudo-random number in [-1, 1) for seed
// and keys: the same arguments always give the same value, and nearby keys
// give unrelated values. Demo generators derived from other datasets' rows
// use it where a generator seeded per day would cost more than the rows.
func Noise(seed uint64, keys ...int64) float64 {
	h := seed
	for _, k := range keys {
		h = splitmix(h ^ uint64(k))
	}
	return float64(h>>11)/(1<<52) - 1
}

// splitmix is SplitMix64's finaliser.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// SmoothNoise is value noise: Noise at whole values of x, joined by a
// smoothstep; in [-1, 1], continuous in x, and the same for the same seed
// and x whatever else is asked.
func SmoothNoise(seed uint64, x float64) float64 {
	i := math.Floor(x)
	a, b := Noise(seed, int64(i)), Noise(seed, int64(i)+1)
	return a + (b-a)*smoothstep(x-i)
}
