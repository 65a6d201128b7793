/* Cryptron fixture: does not compile (a missing semicolon and an undeclared
 * name). Expected verdict: compile. */
#include <stdio.h>

int main(void) {
    int player
    scanf("%d", &player);
    printf("%s\n", undeclared_move);
    return 0;
}
