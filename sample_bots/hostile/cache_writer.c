/* Fixture: tries to write into what bots load from the compile cache, then
 * plays Arrow 5 legally (the code and every attack 0 1 2 3 4). It says on
 * stderr, as one line starting `cache:`, for each place whether a file
 * could be created there: "written" or "refused".
 *   own_build    its own build's folder (where its program lies)
 *   cache        the cache folder above it, where every build lies
 *   other_build  the folder given as its first argument (another bot's build)
 * Anything written is left in place for the test to find. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *try_create(const char *dir) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/planted-by-cache-writer", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) return "refused";
    close(fd);
    return "written";
}

int main(int argc, char **argv) {
    char program[PATH_MAX], build[PATH_MAX], cache[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", program, sizeof program - 1);
    program[n > 0 ? n : 0] = '\0';
    strcpy(build, program);
    strcpy(build, dirname(build));
    strcpy(cache, build);
    strcpy(cache, dirname(cache));
    const char *own_build = try_create(build);
    const char *in_cache = try_create(cache);
    const char *other_build = argc > 1 ? try_create(argv[1]) : "none";
    fprintf(stderr, "cache: own_build=%s cache=%s other_build=%s\n", own_build, in_cache,
            other_build);
    fflush(stderr);
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "code", 4) == 0 || strncmp(line, "attack", 6) == 0) {
            printf("0 1 2 3 4\n");
            fflush(stdout);
        } else if (strncmp(line, "end", 3) == 0) {
            return 0;
        }
    }
    return 0;
}
