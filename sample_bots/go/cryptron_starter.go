// Cryptron starter bot in Go (standard library only), written to the rules'
// "Bot Format": read the player number, then loop: read the opponent's move
// (except on player 1's first turn), choose a move, print it.
//
// Run it through the referee (which builds it):
//
//	referee match cryptron sample_bots/go/cryptron_starter.go sample_bots/c/cryptron_starter.c
//
// By hand: go build -o cryptron_starter sample_bots/go/cryptron_starter.go
//
// The bot keeps its own board in its own frame (its base is row 0): mine[r]
// and theirs[r] count droids in row r. The opponent's move arrives in the
// opponent's frame, so its row r is our row 7 - r.
//
// A move is "i1,f1,i2,f2": first attack i1 -> f1 = i1 + 1, second attack
// i2 -> f2 by as many rows as the first attack's landing row held droids
// (1 row when landing in the opponent's base). "f1,f1" for the second attack
// when there is none; "0,0,0,0" when no first attack is legal.
//
// Strategy: every legal turn is tried; the one leaving the best points
// difference wins, ties broken by rows gained (greedy, one turn deep).
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

var (
	points = [8]int{0, 0, 0, 0, 1, 2, 3, 5}
	mine   = [8]int{6, 1, 1, 1, 1, 1, 1, 0}
	theirs = [8]int{0, 1, 1, 1, 1, 1, 1, 6}
)

func total(r int) int { return mine[r] + theirs[r] }

// room: rows 1-6 hold at most 6 droids, both sides together; bases any number.
func room(r int) bool { return r == 0 || r == 7 || total(r) < 6 }

func value() int {
	own, other, progress := 0, 0, 0
	for r := 0; r < 8; r++ {
		own += points[r] * mine[r]
		other += points[7-r] * theirs[r]
		progress += r * mine[r]
	}
	return (own-other)*100 + progress
}

// step moves one droid of side from row from to row to (undo: swap them).
func step(side *[8]int, from, to int) {
	side[from]--
	side[to]++
}

// play plays a move on side; mirror when it is written in the opponent's frame.
func play(side *[8]int, move [4]int, mirror bool) {
	if move == [4]int{0, 0, 0, 0} {
		return // a pass
	}
	if mirror {
		for k := range move {
			move[k] = 7 - move[k]
		}
	}
	step(side, move[0], move[1])
	if move[2] != move[3] { // f1,f1: no second attack
		step(side, move[2], move[3])
	}
}

// choose returns the best legal turn, already played on our board.
func choose() [4]int {
	best := [4]int{0, 0, 0, 0} // no first attack at all: a pass
	bestValue := -1 << 30
	for i1 := 0; i1 < 7; i1++ {
		if mine[i1] == 0 || !room(i1+1) {
			continue
		}
		f1 := i1 + 1
		length := total(f1) // counted before the first attack
		if f1 == 7 {
			length = 1
		}
		step(&mine, i1, f1)
		any := false
		for i2 := 0; length > 0 && i2+length <= 7; i2++ {
			if mine[i2] == 0 || !room(i2+length) {
				continue
			}
			any = true
			step(&mine, i2, i2+length)
			if v := value(); v > bestValue {
				bestValue, best = v, [4]int{i1, f1, i2, i2 + length}
			}
			step(&mine, i2+length, i2)
		}
		if v := value(); !any && v > bestValue { // no second attack: written f1,f1
			bestValue, best = v, [4]int{i1, f1, f1, f1}
		}
		step(&mine, f1, i1)
	}
	play(&mine, best, false)
	return best
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	if !in.Scan() {
		return
	}
	player, _ := strconv.Atoi(strings.TrimSpace(in.Text()))
	for turn := 1; ; turn++ {
		if !(player == 1 && turn == 1) {
			if !in.Scan() || strings.HasPrefix(in.Text(), "end") {
				return // the game is over
			}
			var move [4]int
			for k, row := range strings.Split(strings.TrimSpace(in.Text()), ",") {
				if k < 4 {
					move[k], _ = strconv.Atoi(strings.TrimSpace(row))
				}
			}
			play(&theirs, move, true)
		}
		m := choose()
		fmt.Fprintf(out, "%d,%d,%d,%d\n", m[0], m[1], m[2], m[3])
		out.Flush()
	}
}
