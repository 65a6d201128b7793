/* Mastermind starter bot in C: copy this file and make it smarter.
 *
 * Run it through the referee (which compiles it with gcc):
 *   referee match mastermind sample_bots/c/mastermind_starter.c target/release/mastermind_random
 *   referee match mastermind sample_bots/c/mastermind_starter.c target/release/mastermind_random --pegs 5 --colours 8
 *   referee bench mastermind sample_bots/c/mastermind_starter.c --all
 * (sizes go up to 12 pegs and 36 colours)
 * By hand: gcc -O2 -o mastermind_starter sample_bots/c/mastermind_starter.c
 *
 * The protocol (see protocol.md, Mastermind): one line at a time.
 *   mastermind PEGS COLOURS ROLE MAX_ATTACKS SEED   the game; ROLE is first, second or solo
 *   code              answer with your secret code, e.g. "0 1 2 3"
 *   attack            answer with a guess, e.g. "0 0 1 1"
 *   feedback B W      your last guess: B pegs right in place, W right in colour only
 *   end RESULT WHY    the game is over; stdin closes after it
 * Colours 0-9 are digits, 10-35 the letters a-z. Print one line per request
 * and flush stdout after it.
 *
 * Strategy: attack with a code that agrees with every feedback so far. With
 * at most LIMIT codes it keeps them all and attacks with the first one left
 * in the rules' order (base C, first peg most significant). With more (up to
 * 36^12) it looks for a consistent code by random restarts and local search
 * for at most BUDGET seconds, and plays the least inconsistent one found.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_PEGS 12
#define MAX_COLOURS 36
#define LIMIT 50000 /* list every code when there are at most this many */
#define BUDGET 0.5  /* seconds for a search when there are more (the limit is 2 s) */

typedef struct { unsigned char peg[MAX_PEGS]; } Code;
typedef struct { Code guess; int black, white; } Seen;

static int pegs = 4, colours = 6;
static Code *possible; /* every code agreeing with every feedback, when listed */
static int n_possible = -1; /* -1: not listed */
static Seen *history;
static int n_history, cap_history;

/* The rules' reference feedback function. */
static void feedback(const Code *code, const Code *guess, int *black, int *white) {
    int v_code[MAX_COLOURS] = {0}, v_guess[MAX_COLOURS] = {0};
    *black = 0;
    for (int i = 0; i < pegs; i++) {
        if (code->peg[i] == guess->peg[i]) (*black)++;
        else { v_code[code->peg[i]]++; v_guess[guess->peg[i]]++; }
    }
    *white = 0;
    for (int c = 0; c < colours; c++) *white += v_code[c] < v_guess[c] ? v_code[c] : v_guess[c];
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static Code random_code(void) {
    Code c = {{0}};
    for (int i = 0; i < pegs; i++) c.peg[i] = (unsigned char)(rand() % colours);
    return c;
}

/* How far `code` is from agreeing with every feedback (0: consistent). */
static int error(const Code *code) {
    int total = 0, b, w;
    for (int h = 0; h < n_history; h++) {
        feedback(code, &history[h].guess, &b, &w);
        total += abs(b - history[h].black) + abs(w - history[h].white);
    }
    return total;
}

/* Random restarts and local search: change one peg while it does not get worse. */
static Code search(void) {
    double deadline = now() + BUDGET;
    Code best = random_code();
    int best_error = error(&best);
    while (best_error > 0 && now() < deadline) {
        Code code = random_code();
        int err = error(&code);
        for (int step = 0; step < 20 * pegs && err > 0 && now() < deadline; step++) {
            Code tweak = code;
            tweak.peg[rand() % pegs] = (unsigned char)(rand() % colours);
            int e = error(&tweak);
            if (e <= err) { code = tweak; err = e; }
        }
        if (err < best_error) { best = code; best_error = err; }
    }
    return best;
}

static void list_codes(void) {
    long n = 1;
    for (int i = 0; i < pegs && n <= LIMIT; i++) n *= colours;
    if (n > LIMIT) return;
    possible = malloc(sizeof(Code) * n);
    for (long k = 0; k < n; k++) {
        long rest = k;
        for (int i = pegs - 1; i >= 0; i--) { possible[k].peg[i] = rest % colours; rest /= colours; }
    }
    n_possible = (int)n;
}

static void print_code(const Code *code) {
    static const char symbols[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    for (int i = 0; i < pegs; i++) printf(i ? " %c" : "%c", symbols[code->peg[i]]);
    printf("\n");
    fflush(stdout);
}

int main(void) {
    char line[1100];
    Code last = {{0}};
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "mastermind", 10) == 0) {
            unsigned long seed = 1;
            char role[32];
            int attacks;
            sscanf(line, "mastermind %d %d %31s %d %lu", &pegs, &colours, role, &attacks, &seed);
            srand((unsigned)seed);
        } else if (strncmp(line, "code", 4) == 0) {
            Code secret = random_code();
            print_code(&secret);
        } else if (strncmp(line, "attack", 6) == 0) {
            if (n_possible < 0 && n_history == 0) list_codes();
            last = n_possible > 0 ? possible[0] : search();
            print_code(&last);
        } else if (strncmp(line, "feedback", 8) == 0) {
            int b = 0, w = 0;
            sscanf(line, "feedback %d %d", &b, &w);
            if (n_history == cap_history) {
                cap_history = cap_history ? 2 * cap_history : 64;
                history = realloc(history, sizeof(Seen) * cap_history);
            }
            history[n_history++] = (Seen){last, b, w};
            int kept = 0;
            for (int k = 0; k < n_possible; k++) {
                int pb, pw;
                feedback(&possible[k], &last, &pb, &pw);
                if (pb == b && pw == w) possible[kept++] = possible[k];
            }
            if (n_possible > 0) n_possible = kept;
        } else if (strncmp(line, "end", 3) == 0) {
            break;
        }
    }
    free(possible);
    free(history);
    return 0;
}
