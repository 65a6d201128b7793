/* Arrow 5 starter bot in C: copy this file and make it smarter.
 *
 * Run it through the referee (which compiles it with gcc):
 *   referee match arrow5 sample_bots/c/arrow5_starter.c target/release/arrow5_random
 *   referee match arrow5 sample_bots/c/arrow5_starter.c target/release/arrow5_random --variant hidden-eye
 *   referee bench arrow5 sample_bots/c/arrow5_starter.c --samples 200
 * By hand: gcc -O2 -o arrow5_starter sample_bots/c/arrow5_starter.c
 *
 * The protocol (see protocol.md): one line at a time from the referee.
 *   arrow5 VARIANT ROLE MAX_ROUNDS SEED   the game; use SEED for randomness
 *   code                                  answer with your secret code, e.g. "0 1 2 3 4"
 *   attack                                answer with your attack
 *   signal < . >                          the signal for your last attack ("-" = no marks)
 *   end win|loss|draw REASON              the game is over; stdin closes after it
 * Symbols are 0-9 and E (the eye, 10 below). Print one line per request and
 * flush stdout after it.
 *
 * Strategy: keep every code consistent with the signals so far (all 55,440
 * codes at the start) and attack with the first of them. Both variants: in
 * hidden-eye the eye never earns a mark, and signal_of() leaves it out too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CODES 55440
#define EYE 10

static unsigned char codes[CODES][5];
static int possible[CODES];
static int n_possible;
static int hidden_eye;

static void enumerate(void) {
    int n = 0;
    for (int a = 0; a < 11; a++)
        for (int b = 0; b < 11; b++)
            for (int c = 0; c < 11; c++)
                for (int d = 0; d < 11; d++)
                    for (int e = 0; e < 11; e++) {
                        int s[5] = {a, b, c, d, e}, ok = 1;
                        for (int i = 0; i < 5 && ok; i++)
                            for (int j = 0; j < i; j++)
                                if (s[i] == s[j]) ok = 0;
                        if (!ok) continue;
                        for (int i = 0; i < 5; i++) codes[n][i] = (unsigned char)s[i];
                        possible[n] = n;
                        n++;
                    }
    n_possible = n;
}

/* Writes the signal `secret` gives `attack` into out ("<.>" style); returns its length. */
static int signal_of(const unsigned char *secret, const unsigned char *attack, char *out) {
    int len = 0;
    for (int i = 0; i < 5; i++) {
        int j = -1;
        for (int k = 0; k < 5; k++)
            if (secret[k] == attack[i]) j = k;
        if (j < 0 || (hidden_eye && attack[i] == EYE)) continue;
        out[len++] = j < i ? '<' : j == i ? '.' : '>';
    }
    out[len] = '\0';
    return len;
}

static void print_code(const unsigned char *code) {
    for (int i = 0; i < 5; i++) {
        if (code[i] == EYE) printf("E"); else printf("%d", code[i]);
        printf(i < 4 ? " " : "\n");
    }
    fflush(stdout);
}

int main(void) {
    char line[1100];
    int last = -1;
    enumerate();
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "arrow5", 6) == 0) {
            char variant[32], role[32];
            int rounds;
            unsigned long seed = 1;
            if (sscanf(line, "arrow5 %31s %31s %d %lu", variant, role, &rounds, &seed) >= 2)
                hidden_eye = strcmp(variant, "hidden-eye") == 0;
            srand((unsigned)seed);
        } else if (strncmp(line, "code", 4) == 0) {
            print_code(codes[rand() % CODES]);
        } else if (strncmp(line, "attack", 6) == 0) {
            last = possible[0];
            print_code(codes[last]);
        } else if (strncmp(line, "signal", 6) == 0 && last >= 0) {
            char want[8] = {0}, got[8];
            int len = 0;
            for (char *p = line + 6; *p && len < 5; p++)
                if (*p == '<' || *p == '.' || *p == '>') want[len++] = *p;
            int kept = 0;
            for (int i = 0; i < n_possible; i++) {
                int c = possible[i];
                if (c != last && signal_of(codes[c], codes[last], got) == len && strcmp(got, want) == 0)
                    possible[kept++] = c;
            }
            if (kept > 0) n_possible = kept;
        } else if (strncmp(line, "end", 3) == 0) {
            break;
        }
    }
    return 0;
}
