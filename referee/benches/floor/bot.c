/* The floor's bot: the least a bot can do. Reads lines; answers "code"
 * with 0 1 2 3 4 and "attack" with 5 6 7 8 9 at once (as arrow5_constant
 * does, so two of them never crack each other); ignores every other line;
 * exits at "end" or end of input. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void) {
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "end", 3) == 0) return 0;
        /* One write per reply, unbuffered: as a careful bot does. */
        if (strncmp(line, "code", 4) == 0) {
            if (write(1, "0 1 2 3 4\n", 10) != 10) return 1;
        } else if (strncmp(line, "attack", 6) == 0) {
            if (write(1, "5 6 7 8 9\n", 10) != 10) return 1;
        }
    }
    return 0;
}
