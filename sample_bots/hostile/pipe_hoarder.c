/* Fixture: holds memory in pipe buffers, which no resident measure sees.
 *
 * A pipe's data is kept in the kernel's pages, charged to no process's
 * resident size; a bot could make pipes, fill them and read its data back
 * later, storage beyond its memory limit. The referee counts every pipe a
 * bot holds (but its stdin, stdout and stderr) at the most its buffer
 * holds by default, 64 KiB, and refuses what would let a bot enlarge one
 * or hide one: `fcntl(F_SETPIPE_SZ)`, `fcntl(F_SETSIG)` and `mknod` (a
 * fifo). This bot tries those three, saying on stderr whether each was
 * refused:
 *
 *     F_SETPIPE_SZ: refused (Operation not permitted)
 *     F_SETSIG: refused (Operation not permitted)
 *     mkfifo: refused (Operation not permitted)
 *
 * then grows its resident memory to TARGET KiB (its `VmHWM`), so that
 * the test can put it just under its cap, makes PIPES pipes of the default
 * size and fills each, and says so:
 *
 *     resident: 7172 KiB
 *     pipes: 28 holding 1792 KiB
 *
 * It thinks 50 ms before its first reply, so that the referee's memory
 * poll (every 10 ms while a bot is asked) sees all it holds, then plays on,
 * holding it. Plays Mastermind legally: its code is all 1s and each attack
 * all 0s (see self_continuer.c).
 *
 *     pipe_hoarder.c PIPES TARGET [headless]
 *
 * With `headless` the game runs in a thread of its own and the main thread
 * exits at once (only itself: `SYS_exit`, not `exit_group`): the process
 * runs on, but its main thread's `/proc/PID/status` shows no memory and
 * `/proc/PID/fd` no descriptor, where a measure of the main thread alone
 * saw nothing of what it held.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Whether a call that returned `result` was refused, on stderr. */
static void tell(const char *what, int result) {
    if (result < 0) {
        fprintf(stderr, "%s: refused (%s)\n", what, strerror(errno));
    } else {
        fprintf(stderr, "%s: allowed (%d)\n", what, result);
    }
}

/* The calls that would let a bot hold more than the referee counts. */
static void try_the_forbidden(void) {
    int ends[2];
    if (pipe(ends) != 0) {
        perror("pipe");
        return;
    }
    /* A pipe of 1 MiB instead of 64 KiB, 16 times the charge. */
    tell("F_SETPIPE_SZ", fcntl(ends[1], F_SETPIPE_SZ, 1 << 20));
    /* A signal of its choosing on a descriptor's events: a SIGCONT on
     * data it sent itself would continue it while it is stopped. */
    tell("F_SETSIG", fcntl(ends[0], F_SETSIG, SIGCONT));
    close(ends[0]);
    close(ends[1]);
    /* A fifo in its folder: a pipe that lives on with no descriptor open
     * on it, so no count of descriptors finds it. */
    tell("mkfifo", mkfifo("fifo", 0600));
}

/* Its peak resident memory (VmHWM) in KiB, as the referee reads it. */
static long peak_kb(void) {
    /* The calling thread's: with the main thread gone (headless), the
     * process's own status shows no memory. */
    FILE *status = fopen("/proc/thread-self/status", "r");
    char line[256];
    long kb = 0;
    if (!status) return 0;
    while (fgets(line, sizeof line, status)) {
        if (sscanf(line, "VmHWM: %ld", &kb) == 1) break;
    }
    fclose(status);
    return kb;
}

/* Touches memory in steps of 64 KiB until its peak is `target` KiB. */
static void grow_to(long target) {
    while (peak_kb() < target) {
        /* volatile: the compiler may not drop writes nobody reads */
        volatile char *step = malloc(64 << 10);
        if (!step) break;
        for (int i = 0; i < 64 << 10; i += 512) step[i] = 1;
    }
    fprintf(stderr, "resident: %ld KiB\n", peak_kb());
}

/* Makes `count` pipes and fills each (64 KiB, its default size), keeping
 * both ends open: the data stays in the kernel until read. */
static void hoard(int count) {
    static char page[4096];
    long held = 0;
    int made = 0;
    memset(page, 'x', sizeof page);
    for (; made < count; made++) {
        int ends[2];
        if (pipe2(ends, O_NONBLOCK) != 0) {
            fprintf(stderr, "pipe %d: %s\n", made + 1, strerror(errno));
            break;
        }
        ssize_t written;
        while ((written = write(ends[1], page, sizeof page)) > 0) held += written;
    }
    fprintf(stderr, "pipes: %d holding %ld KiB\n", made, held >> 10);
}

static int pipes;
static long target;

static void *play(void *unused) {
    (void)unused;
    char line[256];
    int pegs = 4;
    int hoarded = 0;

    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "mastermind %d", &pegs) == 1) continue;
        if (strncmp(line, "end", 3) == 0) break;
        int code = strncmp(line, "code", 4) == 0;
        if (!code && strncmp(line, "attack", 6) != 0) continue; /* feedback */
        if (!hoarded) {
            hoarded = 1;
            try_the_forbidden();
            grow_to(target);
            hoard(pipes);
            struct timespec think = {0, 50 * 1000 * 1000};
            nanosleep(&think, NULL);
        }
        for (int i = 0; i < pegs; i++) {
            printf(i ? " %c" : "%c", code ? '1' : '0');
        }
        printf("\n");
        fflush(stdout);
    }
    exit(0);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: pipe_hoarder PIPES TARGET_KIB [headless]\n");
        return 2;
    }
    pipes = atoi(argv[1]);
    target = atol(argv[2]);
    if (argc > 3 && strcmp(argv[3], "headless") == 0) {
        pthread_t thread;
        if (pthread_create(&thread, NULL, play, NULL) != 0) return 3;
        syscall(SYS_exit, 0);
    }
    play(NULL);
    return 0;
}
