/* Safe Cracker starter bot in C: copy this file and make it smarter.
 *
 * Run it through the referee (which compiles it with gcc):
 *   referee match safecracker sample_bots/c/safecracker_starter.c target/release/safecracker_random
 *   referee match safecracker sample_bots/c/safecracker_starter.c target/release/safecracker_random --length 5 --digits 6
 *   referee bench safecracker sample_bots/c/safecracker_starter.c --all
 * (sizes go up to 10 digits from 1-9)
 * By hand: gcc -O2 -o safecracker_starter sample_bots/c/safecracker_starter.c
 *
 * The protocol (see protocol.md, Safe Cracker): one line at a time.
 *   safecracker LENGTH DIGITS ROLE ATTEMPTS SEED   the game; ROLE is first, second or solo
 *   code            answer with your secret code, e.g. "1 2 3"
 *   guess           answer with a guess, e.g. "1 2 3"
 *   feedback K      your last guess had K exact matches
 *   opponent G K    the opponent guessed G (e.g. 1-2-3) and got K exact matches
 *   end RESULT WHY  the game is over; stdin closes after it
 * Print one line per request and flush stdout after it.
 *
 * Strategy: guess a code that agrees with every feedback so far. With at most
 * LIMIT codes it keeps them all and guesses the first one left in
 * lexicographic order. With more (up to 9^10) it looks for a consistent code
 * by random restarts and local search for at most BUDGET seconds, and plays
 * the least inconsistent one found.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_LENGTH 10
#define LIMIT 50000 /* list every code when there are at most this many */
#define BUDGET 0.5  /* seconds for a search when there are more (the limit is 2 s) */

typedef struct { unsigned char digit[MAX_LENGTH]; } Code;
typedef struct { Code guess; int matches; } Seen;

static int length = 3, digits = 3;
static Code *possible; /* every code agreeing with every feedback, when listed */
static int n_possible = -1; /* -1: not listed */
static Seen *history;
static int n_history, cap_history;

static int exact(const Code *a, const Code *b) {
    int k = 0;
    for (int i = 0; i < length; i++) k += a->digit[i] == b->digit[i];
    return k;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static Code random_code(void) {
    Code c = {{0}};
    for (int i = 0; i < length; i++) c.digit[i] = (unsigned char)(1 + rand() % digits);
    return c;
}

/* How far `code` is from agreeing with every feedback (0: consistent). */
static int error(const Code *code) {
    int total = 0;
    for (int h = 0; h < n_history; h++) total += abs(exact(code, &history[h].guess) - history[h].matches);
    return total;
}

/* Random restarts and local search: change one digit while it does not get worse. */
static Code search(void) {
    double deadline = now() + BUDGET;
    Code best = random_code();
    int best_error = error(&best);
    while (best_error > 0 && now() < deadline) {
        Code code = random_code();
        int err = error(&code);
        for (int step = 0; step < 20 * length && err > 0 && now() < deadline; step++) {
            Code tweak = code;
            tweak.digit[rand() % length] = (unsigned char)(1 + rand() % digits);
            int e = error(&tweak);
            if (e <= err) { code = tweak; err = e; }
        }
        if (err < best_error) { best = code; best_error = err; }
    }
    return best;
}

static void list_codes(void) {
    long n = 1;
    for (int i = 0; i < length && n <= LIMIT; i++) n *= digits;
    if (n > LIMIT) return;
    possible = malloc(sizeof(Code) * n);
    for (long k = 0; k < n; k++) {
        long rest = k;
        for (int i = length - 1; i >= 0; i--) { possible[k].digit[i] = 1 + rest % digits; rest /= digits; }
    }
    n_possible = (int)n;
}

static void print_code(const Code *code) {
    for (int i = 0; i < length; i++) printf(i ? " %d" : "%d", code->digit[i]);
    printf("\n");
    fflush(stdout);
}

int main(void) {
    char line[1100];
    Code last = {{0}};
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "safecracker", 11) == 0) {
            unsigned long seed = 1;
            char role[32];
            int attempts;
            sscanf(line, "safecracker %d %d %31s %d %lu", &length, &digits, role, &attempts, &seed);
            srand((unsigned)seed);
        } else if (strncmp(line, "code", 4) == 0) {
            Code secret = random_code();
            print_code(&secret);
        } else if (strncmp(line, "guess", 5) == 0) {
            if (n_possible < 0 && n_history == 0) list_codes();
            last = n_possible > 0 ? possible[0] : search();
            print_code(&last);
        } else if (strncmp(line, "feedback", 8) == 0) {
            int k = 0;
            sscanf(line, "feedback %d", &k);
            if (n_history == cap_history) {
                cap_history = cap_history ? 2 * cap_history : 64;
                history = realloc(history, sizeof(Seen) * cap_history);
            }
            history[n_history++] = (Seen){last, k};
            int kept = 0;
            for (int i = 0; i < n_possible; i++)
                if (exact(&possible[i], &last) == k) possible[kept++] = possible[i];
            if (n_possible > 0) n_possible = kept;
        } else if (strncmp(line, "end", 3) == 0) {
            break;
        }
        /* "opponent G K" lines are information only: nothing to answer. */
    }
    free(possible);
    free(history);
    return 0;
}
