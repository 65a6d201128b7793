/* Cryptron fixture: sleeps 3 s before every move, over the 2 s a C bot has.
 * Its first move ("6,7,5,6", legal as anybody's first turn) is within the
 * startup time; the second is too late. Expected verdict: timeout. */
#include <stdio.h>
#include <unistd.h>

int main(void) {
    int player, turn = 1;
    char line[64];
    if (scanf("%d", &player) != 1) return 0;
    while (1) {
        if (!(player == 1 && turn == 1) && scanf("%63s", line) != 1) return 0;
        sleep(3);
        printf("6,7,5,6\n");
        fflush(stdout);
        turn++;
    }
}
