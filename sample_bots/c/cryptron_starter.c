/* Cryptron starter bot in C, written to the rules' "Bot Format": read the
 * player number, then loop: read the opponent's move (except on player 1's
 * first turn), choose a move, print it.
 *
 * The bot keeps its own board: mine[r] and theirs[r] count droids in row r of
 * MY frame (my base is row 0). The opponent's move arrives in ITS frame, so
 * its row r is my row 7 - r.
 *
 * Strategy: try every legal turn and keep the one that leaves the best
 * points difference (greedy, one turn deep).
 *
 * Run it through the referee (which compiles it with gcc):
 *   referee match cryptron sample_bots/c/cryptron_starter.c sample_bots/python/cryptron_starter.py
 * By hand: gcc -O2 -o cryptron_starter sample_bots/c/cryptron_starter.c
 */
#include <stdio.h>
#include <string.h>

static int mine[8], theirs[8];
static const int points[8] = {0, 0, 0, 0, 1, 2, 3, 5};

static int total(int r) { return mine[r] + theirs[r]; }
static int room(int r) { return r == 0 || r == 7 || total(r) < 6; }

static int score(void) {
    int s = 0;
    for (int r = 0; r < 8; r++) s += points[r] * mine[r] - points[7 - r] * theirs[r];
    return s;
}

/* Applies the opponent's move i1,f1,i2,f2 written in its frame. */
static void apply_theirs(int i1, int f1, int i2, int f2) {
    if (i1 == 0 && f1 == 0 && i2 == 0 && f2 == 0) return; /* a pass */
    theirs[7 - i1]--; theirs[7 - f1]++;
    if (i2 != f2) { theirs[7 - i2]--; theirs[7 - f2]++; } /* f1,f1: no second attack */
}

/* Chooses my move, plays it on my board, and writes it into out. */
static void choose(char *out) {
    int best = -1000000, b1 = -1, b2 = -1, blen = 0;
    for (int i1 = 0; i1 < 7; i1++) {
        if (!mine[i1] || !room(i1 + 1)) continue;
        int len = (i1 + 1 == 7) ? 1 : total(i1 + 1);
        mine[i1]--; mine[i1 + 1]++;
        int any = 0;
        for (int i2 = 0; len > 0 && i2 + len <= 7; i2++) {
            if (!mine[i2] || i2 == 7 || !room(i2 + len)) continue;
            any = 1;
            mine[i2]--; mine[i2 + len]++;
            int s = score();
            if (s > best) { best = s; b1 = i1; b2 = i2; blen = len; }
            mine[i2]++; mine[i2 + len]--;
        }
        if (!any) {
            int s = score();
            if (s > best) { best = s; b1 = i1; b2 = -1; blen = len; }
        }
        mine[i1]++; mine[i1 + 1]--;
    }
    if (b1 < 0) { strcpy(out, "0,0,0,0"); return; } /* no first attack: pass */
    mine[b1]--; mine[b1 + 1]++;
    if (b2 < 0) {
        sprintf(out, "%d,%d,%d,%d", b1, b1 + 1, b1 + 1, b1 + 1); /* no second attack */
    } else {
        mine[b2]--; mine[b2 + blen]++;
        sprintf(out, "%d,%d,%d,%d", b1, b1 + 1, b2, b2 + blen);
    }
}

int main(void) {
    int player, turn = 1;
    if (scanf("%d", &player) != 1) return 0;
    mine[0] = theirs[7] = 6;
    for (int r = 1; r <= 6; r++) mine[r] = theirs[r] = 1;
    while (1) {
        if (!(player == 1 && turn == 1)) {
            int i1, f1, i2, f2;
            /* The last line, "end win|loss|draw REASON", does not parse: stop. */
            if (scanf(" %d,%d,%d,%d", &i1, &f1, &i2, &f2) != 4) return 0;
            apply_theirs(i1, f1, i2, f2);
        }
        char move[16];
        choose(move);
        printf("%s\n", move);
        fflush(stdout);
        turn++;
    }
}
