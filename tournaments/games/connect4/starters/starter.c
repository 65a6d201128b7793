/* A Connect Four starter bot in C: wins if it can, blocks a win of the
 * opponent's, else plays the legal column nearest the centre.
 *
 * Lines it reads (README.md beside the judge): the greeting
 * `connect4 COLS ROWS first|second`, then `opponent C` (the column the
 * opponent just played) and `move` (answer with a column, 1 to COLS), and
 * finally `end win|loss|draw REASON`. Always flush after a reply. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX 16
enum { EMPTY, MINE, THEIRS };

static int rows, cols;
static int board[MAX][MAX]; /* board[r][c], row 0 at the bottom */

static int top(int col) { /* the free row of `col`, or rows if full */
    int r = 0;
    while (r < rows && board[r][col] != EMPTY) r++;
    return r;
}

static int wins(int col, int who) { /* four in a row by dropping in col? */
    static const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    int row = top(col);
    for (int d = 0; d < 4; d++) {
        int count = 1;
        for (int sign = 1; sign >= -1; sign -= 2) {
            int r = row + sign * dirs[d][0], c = col + sign * dirs[d][1];
            while (r >= 0 && r < rows && c >= 0 && c < cols && board[r][c] == who) {
                count++;
                r += sign * dirs[d][0];
                c += sign * dirs[d][1];
            }
        }
        if (count >= 4) return 1;
    }
    return 0;
}

static int choose(void) {
    for (int who = MINE; who <= THEIRS; who++) /* win first, then block */
        for (int c = 0; c < cols; c++)
            if (top(c) < rows && wins(c, who)) return c;
    int best = -1;
    for (int c = 0; c < cols; c++) { /* nearest the centre, left first */
        if (top(c) == rows) continue;
        if (best < 0 || abs(2 * c - (cols - 1)) < abs(2 * best - (cols - 1))) best = c;
    }
    return best;
}

int main(void) {
    char line[256], role[32];
    if (!fgets(line, sizeof line, stdin)) return 0;
    if (sscanf(line, "connect4 %d %d %31s", &cols, &rows, role) != 3 || cols > MAX || rows > MAX)
        return 1;
    while (fgets(line, sizeof line, stdin)) {
        int col;
        if (sscanf(line, "opponent %d", &col) == 1) {
            board[top(col - 1)][col - 1] = THEIRS;
        } else if (strncmp(line, "move", 4) == 0) {
            col = choose();
            board[top(col)][col] = MINE;
            printf("%d\n", col + 1);
            fflush(stdout);
        } else if (strncmp(line, "end", 3) == 0) {
            break;
        }
    }
    return 0;
}
