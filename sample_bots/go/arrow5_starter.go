// Arrow 5 starter bot in Go (standard library only): copy this file and make
// it smarter.
//
// Run it through the referee (which builds it):
//
//	referee match arrow5 sample_bots/go/arrow5_starter.go target/release/arrow5_random
//	referee match arrow5 sample_bots/go/arrow5_starter.go target/release/arrow5_random --variant hidden-eye
//
// By hand: go build -o arrow5_starter sample_bots/go/arrow5_starter.go
//
// The protocol (see protocol.md): one line at a time from the referee.
//
//	arrow5 VARIANT ROLE MAX_ROUNDS SEED   the game; use SEED for randomness
//	code                                  answer with your secret code, e.g. "0 1 2 3 4"
//	attack                                answer with your attack
//	signal < . >                          the signal for your last attack ("-" = no marks)
//	end win|loss|draw REASON              the game is over; stdin closes after it
//
// Symbols are 0-9 and E (the eye). Write one line per request and Flush it.
//
// Strategy: keep every code consistent with the signals so far (all 55,440
// codes at the start) and attack with the first of them.
package main

import (
	"bufio"
	"math/rand"
	"os"
	"strconv"
	"strings"
)

const symbols = "0123456789E"

// signal is the marks secret gives attack: '<', '.' or '>' for each symbol
// of the attack found in the secret; in hidden-eye the eye never gets a mark.
func signal(secret, attack string, hiddenEye bool) string {
	marks := ""
	for i := 0; i < len(attack); i++ {
		j := strings.IndexByte(secret, attack[i])
		if j < 0 || (hiddenEye && attack[i] == 'E') {
			continue
		}
		switch {
		case j < i:
			marks += "<"
		case j == i:
			marks += "."
		default:
			marks += ">"
		}
	}
	return marks
}

func main() {
	var possible []string
	for _, a := range symbols {
		for _, b := range symbols {
			for _, c := range symbols {
				for _, d := range symbols {
					for _, e := range symbols {
						code := string([]rune{a, b, c, d, e})
						distinct := true
						for i := 0; i < 5; i++ {
							if strings.IndexByte(code, code[i]) != i {
								distinct = false
							}
						}
						if distinct {
							possible = append(possible, code)
						}
					}
				}
			}
		}
	}
	hiddenEye := false
	rng := rand.New(rand.NewSource(1))
	last := ""
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	send := func(code string) {
		out.WriteString(strings.Join(strings.Split(code, ""), " ") + "\n")
		out.Flush()
	}
	for in.Scan() {
		words := strings.Fields(in.Text())
		if len(words) == 0 {
			continue
		}
		switch words[0] {
		case "arrow5":
			hiddenEye = len(words) > 1 && words[1] == "hidden-eye"
			if len(words) > 4 {
				seed, _ := strconv.ParseInt(words[4], 10, 64)
				rng = rand.New(rand.NewSource(seed))
			}
		case "code":
			send(possible[rng.Intn(len(possible))])
		case "attack":
			last = possible[0]
			send(last)
		case "signal":
			marks := ""
			for _, w := range words[1:] {
				if w != "-" {
					marks += strings.ReplaceAll(w, "\u00b7", ".")
				}
			}
			var kept []string
			for _, code := range possible {
				if code != last && signal(code, last, hiddenEye) == marks {
					kept = append(kept, code)
				}
			}
			if len(kept) > 0 { // never empty, whatever the referee said
				possible = kept
			}
		case "end":
			return
		}
	}
}
