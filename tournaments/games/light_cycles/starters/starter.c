/* A Light Cycles starter bot in C: moves to the free neighbour from which
 * it reaches the most free cells before every other cycle (its territory),
 * then with the most room behind it (the free cells it can still reach),
 * keeping away from cells another cycle could enter on the same turn when
 * it can. The same plan as starter.py.
 *
 * Lines it reads (README.md beside the judge): `cycles PLAYERS WIDTH
 * HEIGHT YOU`, `walls K X1 Y1 ...`, then each turn `turn T X0 Y0 X1 Y1 ...`
 * (every cycle's position, -1 -1 for a cycle that is out), answered with
 * N, E, S or W; finally `end ...`. Always flush after a reply. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX 40
#define PLAYERS 6

static int width, height, me, players;
static char blocked[MAX][MAX]; /* blocked[y][x]: a wall or a trail */
static const int DX[4] = {0, 1, 0, -1}, DY[4] = {-1, 0, 1, 0};
static const char *WORDS[4] = {"N", "E", "S", "W"};

static int free_cell(int x, int y) {
    return x >= 0 && x < width && y >= 0 && y < height && !blocked[y][x];
}

/* Breadth-first search from the `count` cells of `starts`: dist[y][x] the
 * steps from the nearest start to each free cell reached, -1 elsewhere.
 * Returns how many cells it reached (the starts included). */
static int distances(int starts[][2], int count, int dist[MAX][MAX]) {
    static int queue[MAX * MAX + PLAYERS][2];
    int head = 0, tail = 0;
    memset(dist, -1, sizeof(int) * MAX * MAX);
    for (int i = 0; i < count; i++) {
        dist[starts[i][1]][starts[i][0]] = 0;
        queue[tail][0] = starts[i][0], queue[tail][1] = starts[i][1], tail++;
    }
    while (head < tail) {
        int x = queue[head][0], y = queue[head][1];
        head++;
        for (int d = 0; d < 4; d++) {
            int nx = x + DX[d], ny = y + DY[d];
            if (free_cell(nx, ny) && dist[ny][nx] < 0) {
                dist[ny][nx] = dist[y][x] + 1;
                queue[tail][0] = nx, queue[tail][1] = ny, tail++;
            }
        }
    }
    return tail;
}

static int choose(int heads[][2]) {
    static int others[MAX][MAX], mine[MAX][MAX];
    int rivals[PLAYERS][2], count = 0;
    for (int p = 0; p < players; p++)
        if (p != me && heads[p][0] >= 0) rivals[count][0] = heads[p][0], rivals[count][1] = heads[p][1], count++;
    distances(rivals, count, others);
    int best = 0, best_safe = -1, best_land = -1, best_room = -1;
    for (int d = 0; d < 4; d++) {
        int cell[1][2] = {{heads[me][0] + DX[d], heads[me][1] + DY[d]}};
        int x = cell[0][0], y = cell[0][1];
        if (!free_cell(x, y)) continue;
        int safe = 1; /* no other cycle can enter it this turn */
        for (int p = 0; p < players; p++)
            if (p != me && heads[p][0] >= 0 && abs(heads[p][0] - x) + abs(heads[p][1] - y) == 1) safe = 0;
        int room = distances(cell, 1, mine), land = 0;
        for (int cy = 0; cy < height; cy++)
            for (int cx = 0; cx < width; cx++)
                if (mine[cy][cx] >= 0 && (others[cy][cx] < 0 || mine[cy][cx] < others[cy][cx])) land++;
        if (safe > best_safe || (safe == best_safe && (land > best_land || (land == best_land && room > best_room))))
            best = d, best_safe = safe, best_land = land, best_room = room;
    }
    return best; /* N when every way is blocked: the cycle crashes anyway */
}

int main(void) {
    static char line[8192];
    int heads[PLAYERS][2];
    while (fgets(line, sizeof line, stdin)) {
        char *rest;
        if (strncmp(line, "cycles ", 7) == 0) {
            if (sscanf(line + 7, "%d %d %d %d", &players, &width, &height, &me) != 4 || width > MAX ||
                height > MAX || players > PLAYERS)
                return 1;
        } else if (strncmp(line, "walls ", 6) == 0) {
            int count = (int)strtol(line + 6, &rest, 10);
            for (int i = 0; i < count; i++) {
                int x = (int)strtol(rest, &rest, 10), y = (int)strtol(rest, &rest, 10);
                if (x >= 0 && x < MAX && y >= 0 && y < MAX) blocked[y][x] = 1;
            }
        } else if (strncmp(line, "turn ", 5) == 0) {
            strtol(line + 5, &rest, 10); /* the turn number */
            for (int p = 0; p < players; p++) {
                heads[p][0] = (int)strtol(rest, &rest, 10);
                heads[p][1] = (int)strtol(rest, &rest, 10);
                if (heads[p][0] >= 0) blocked[heads[p][1]][heads[p][0]] = 1; /* a head leaves a trail */
            }
            printf("%s\n", WORDS[choose(heads)]);
            fflush(stdout);
        } else if (strncmp(line, "end", 3) == 0) {
            break;
        }
    }
    return 0;
}
