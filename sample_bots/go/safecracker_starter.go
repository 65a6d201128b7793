// Safe Cracker starter bot in Go (standard library only): copy this file and
// make it smarter.
//
// Run it through the referee (which builds it); other sizes go up to 10
// digits from 1-9:
//
//	referee match safecracker sample_bots/go/safecracker_starter.go target/release/safecracker_random
//	referee match safecracker sample_bots/go/safecracker_starter.go target/release/safecracker_random --length 5 --digits 6
//	referee bench safecracker sample_bots/go/safecracker_starter.go --all
//
// By hand: go build -o safecracker_starter sample_bots/go/safecracker_starter.go
//
// The protocol (see protocol.md, Safe Cracker): one line at a time.
//
//	safecracker LENGTH DIGITS ROLE ATTEMPTS SEED   the game; ROLE is first, second or solo
//	code            answer with your secret code, e.g. "1 2 3"
//	guess           answer with a guess, e.g. "1 2 3"
//	feedback K      your last guess had K exact matches
//	opponent G K    the opponent guessed G (e.g. 1-2-3) and got K exact matches
//	end RESULT WHY  the game is over; stdin closes after it
//
// Write one line per request and Flush it.
//
// Strategy: guess a code that agrees with every feedback so far. With at most
// limit codes it keeps them all and guesses the first one left in
// lexicographic order. With more (up to 9^10) it looks for a consistent code
// by random restarts and local search for at most budget, and plays the
// least inconsistent one found.
package main

import (
	"bufio"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"time"
)

const (
	limit  = 50000                  // list every code when there are at most this many
	budget = 500 * time.Millisecond // for a search when there are more (the limit is 2 s)
)

type seen struct {
	guess   []int
	matches int
}

var (
	length, digits = 3, 3
	rng            = rand.New(rand.NewSource(1))
	history        []seen
)

func exact(a, b []int) int {
	k := 0
	for i := 0; i < length; i++ {
		if a[i] == b[i] {
			k++
		}
	}
	return k
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func randomCode() []int {
	code := make([]int, length)
	for i := range code {
		code[i] = 1 + rng.Intn(digits)
	}
	return code
}

// errorOf is how far code is from agreeing with every feedback (0: consistent).
func errorOf(code []int) int {
	total := 0
	for _, s := range history {
		total += abs(exact(code, s.guess) - s.matches)
	}
	return total
}

// search: random restarts and local search (change one digit while it does
// not get worse), for at most budget.
func search() []int {
	deadline := time.Now().Add(budget)
	best := randomCode()
	bestError := errorOf(best)
	for bestError > 0 && time.Now().Before(deadline) {
		code := randomCode()
		err := errorOf(code)
		tweak := make([]int, length)
		for step := 0; step < 20*length && err > 0 && time.Now().Before(deadline); step++ {
			copy(tweak, code)
			tweak[rng.Intn(length)] = 1 + rng.Intn(digits)
			if e := errorOf(tweak); e <= err {
				code, tweak, err = tweak, code, e // keep the tweak, reuse the old code's slice
			}
		}
		if err < bestError {
			best, bestError = code, err
		}
	}
	return best
}

// allCodes is every code in lexicographic order, or none when there are more than limit.
func allCodes() [][]int {
	n := 1
	for i := 0; i < length && n <= limit; i++ {
		n *= digits
	}
	var codes [][]int
	for k := 0; n <= limit && k < n; k++ {
		code := make([]int, length)
		for i, rest := length-1, k; i >= 0; i, rest = i-1, rest/digits {
			code[i] = 1 + rest%digits
		}
		codes = append(codes, code)
	}
	return codes
}

func main() {
	var possible [][]int // every code agreeing with every feedback, when listed
	var last []int
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	send := func(code []int) {
		parts := make([]string, len(code))
		for i, digit := range code {
			parts[i] = strconv.Itoa(digit)
		}
		out.WriteString(strings.Join(parts, " ") + "\n")
		out.Flush()
	}
	for in.Scan() {
		words := strings.Fields(in.Text())
		if len(words) == 0 {
			continue
		}
		switch words[0] {
		case "safecracker":
			length, _ = strconv.Atoi(words[1])
			digits, _ = strconv.Atoi(words[2])
			seed, _ := strconv.ParseInt(words[5], 10, 64)
			rng = rand.New(rand.NewSource(seed))
		case "code":
			send(randomCode())
		case "guess":
			if len(history) == 0 {
				possible = allCodes()
			}
			if len(possible) > 0 {
				last = possible[0]
			} else {
				last = search()
			}
			send(last)
		case "feedback":
			k, _ := strconv.Atoi(words[1])
			history = append(history, seen{last, k})
			var kept [][]int
			for _, code := range possible {
				if exact(code, last) == k {
					kept = append(kept, code)
				}
			}
			possible = kept
		case "end":
			return
		}
		// "opponent G K" lines are information only: nothing to answer.
	}
}
