// Mastermind starter bot in Go (standard library only): copy this file and
// make it smarter.
//
// Run it through the referee (which builds it); other sizes go up to 12 pegs
// and 36 colours:
//
//	referee match mastermind sample_bots/go/mastermind_starter.go target/release/mastermind_random
//	referee match mastermind sample_bots/go/mastermind_starter.go target/release/mastermind_random --pegs 5 --colours 8
//	referee bench mastermind sample_bots/go/mastermind_starter.go --all
//
// By hand: go build -o mastermind_starter sample_bots/go/mastermind_starter.go
//
// The protocol (see protocol.md, Mastermind): one line at a time.
//
//	mastermind PEGS COLOURS ROLE MAX_ATTACKS SEED   the game; ROLE is first, second or solo
//	code              answer with your secret code, e.g. "0 1 2 3"
//	attack            answer with a guess, e.g. "0 0 1 1"
//	feedback B W      your last guess: B pegs right in place, W right in colour only
//	end RESULT WHY    the game is over; stdin closes after it
//
// Colours 0-9 are digits, 10-35 the letters a-z. Write one line per request
// and Flush it.
//
// Strategy: attack with a code that agrees with every feedback so far. With
// at most limit codes it keeps them all and attacks with the first one left
// in the rules' order (base C, first peg most significant). With more (up to
// 36^12) it looks for a consistent code by random restarts and local search
// for at most budget, and plays the least inconsistent one found.
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
	limit   = 50000                  // list every code when there are at most this many
	budget  = 500 * time.Millisecond // for a search when there are more (the limit is 2 s)
	symbols = "0123456789abcdefghijklmnopqrstuvwxyz"
)

type seen struct {
	guess        []int
	black, white int
}

var (
	pegs, colours = 4, 6
	rng           = rand.New(rand.NewSource(1))
	history       []seen
)

// feedback is the rules' reference function: black, white.
func feedback(code, guess []int) (int, int) {
	var vCode, vGuess [36]int // colours go up to 36
	black, white := 0, 0
	for i := 0; i < pegs; i++ {
		if code[i] == guess[i] {
			black++
		} else {
			vCode[code[i]]++
			vGuess[guess[i]]++
		}
	}
	for c := 0; c < colours; c++ {
		if vCode[c] < vGuess[c] {
			white += vCode[c]
		} else {
			white += vGuess[c]
		}
	}
	return black, white
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func randomCode() []int {
	code := make([]int, pegs)
	for i := range code {
		code[i] = rng.Intn(colours)
	}
	return code
}

// errorOf is how far code is from agreeing with every feedback (0: consistent).
func errorOf(code []int) int {
	total := 0
	for _, s := range history {
		black, white := feedback(code, s.guess)
		total += abs(black-s.black) + abs(white-s.white)
	}
	return total
}

// search: random restarts and local search (change one peg while it does
// not get worse), for at most budget.
func search() []int {
	deadline := time.Now().Add(budget)
	best := randomCode()
	bestError := errorOf(best)
	for bestError > 0 && time.Now().Before(deadline) {
		code := randomCode()
		err := errorOf(code)
		tweak := make([]int, pegs)
		for step := 0; step < 20*pegs && err > 0 && time.Now().Before(deadline); step++ {
			copy(tweak, code)
			tweak[rng.Intn(pegs)] = rng.Intn(colours)
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

// allCodes is every code in the rules' order, or none when there are more than limit.
func allCodes() [][]int {
	n := 1
	for i := 0; i < pegs && n <= limit; i++ {
		n *= colours
	}
	var codes [][]int
	for k := 0; n <= limit && k < n; k++ {
		code := make([]int, pegs)
		for i, rest := pegs-1, k; i >= 0; i, rest = i-1, rest/colours {
			code[i] = rest % colours
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
		for i, peg := range code {
			parts[i] = symbols[peg : peg+1]
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
		case "mastermind":
			pegs, _ = strconv.Atoi(words[1])
			colours, _ = strconv.Atoi(words[2])
			seed, _ := strconv.ParseInt(words[5], 10, 64)
			rng = rand.New(rand.NewSource(seed))
		case "code":
			send(randomCode())
		case "attack":
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
			s := seen{guess: last}
			s.black, _ = strconv.Atoi(words[1])
			s.white, _ = strconv.Atoi(words[2])
			history = append(history, s)
			var kept [][]int
			for _, code := range possible {
				if b, w := feedback(code, last); b == s.black && w == s.white {
					kept = append(kept, code)
				}
			}
			possible = kept
		case "end":
			return
		}
	}
}
