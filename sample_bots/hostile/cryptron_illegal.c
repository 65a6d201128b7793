/* Cryptron fixture: a well-formed but illegal move (a first attack of two
 * rows). Expected verdict: illegal. */
#include <stdio.h>

int main(void) {
    int player;
    char line[64];
    if (scanf("%d", &player) != 1) return 0;
    if (player == 2 && scanf("%63s", line) != 1) return 0;
    printf("0,2,0,2\n");
    fflush(stdout);
    while (scanf("%63s", line) == 1) {
    }
    return 0;
}
