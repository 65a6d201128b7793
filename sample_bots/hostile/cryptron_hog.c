/* Cryptron fixture: touches 16 MiB before its first move, over the 8 MiB a
 * bot may use beyond its language's allowance (4 MiB for C), then thinks for
 * a second. Expected verdict: memory. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
    int player;
    char line[64];
    if (scanf("%d", &player) != 1) return 0;
    if (player == 2 && scanf("%63s", line) != 1) return 0;
    size_t size = 16u << 20;
    /* volatile: the compiler may not drop writes nobody reads */
    volatile char *block = malloc(size);
    if (!block) return 1;
    for (size_t i = 0; i < size; i += 512) block[i] = 1;
    sleep(1);
    printf("6,7,5,6\n");
    fflush(stdout);
    while (scanf("%63s", line) == 1) {
    }
    return block[0] == 1 ? 0 : 2;
}
