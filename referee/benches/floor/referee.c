/* The floor: a minimal referee in C, the least any referee must do.
 *
 *   floor exchange ROUNDS BOT   one game of ROUNDS Arrow 5 rounds between
 *                               two copies of BOT: per attack, "attack" to
 *                               the bot, its reply read under a poll()
 *                               deadline, a "signal" line back; prints the
 *                               microseconds per attack.
 *   floor start GAMES BOT       GAMES times: start two bots, greet both, one
 *                               code and one attack each, "end", close and
 *                               reap; prints the milliseconds per game.
 *   floor mastermind GAMES PROGRAM [ARG...]
 *                               the same with two copies of a Mastermind bot
 *                               run as PROGRAM ARG... (the environment and
 *                               working folder this program was given; the
 *                               bots' stderr to /dev/null): greet, a code
 *                               and one attack each with its feedback, "end";
 *                               prints the milliseconds per game.
 *
 * No sandbox, no transcript, no rules: what is left is process start-up,
 * pipes and poll, the cost the referee is compared against. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct bot {
    pid_t pid;
    int in;  /* we write */
    int out; /* we read */
    char buf[4096];
    size_t len;
};

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* The command line every bot is started with: argv[0] is the program. */
static char **command;

static void start(struct bot *b, const char *path) {
    int to[2], from[2];
    if (pipe2(to, O_CLOEXEC) || pipe2(from, O_CLOEXEC)) { perror("pipe"); exit(1); }
    b->pid = fork();
    if (b->pid < 0) { perror("fork"); exit(1); }
    if (b->pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        if (command) {
            int null = open("/dev/null", O_WRONLY);
            if (null >= 0) dup2(null, 2);
            execv(command[0], command);
        } else {
            execl(path, path, (char *)NULL);
        }
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    b->in = to[1];
    b->out = from[0];
    b->len = 0;
}

static void send_line(struct bot *b, const char *line) {
    size_t n = strlen(line);
    if (write(b->in, line, n) != (ssize_t)n) { perror("write"); exit(1); }
}

/* One line from the bot within 2 s (a poll deadline, as a referee must). */
static void recv_line(struct bot *b) {
    double deadline = now_us() + 2e6;
    for (;;) {
        char *nl = memchr(b->buf, '\n', b->len);
        if (nl) {
            size_t used = (size_t)(nl - b->buf) + 1;
            memmove(b->buf, b->buf + used, b->len - used);
            b->len -= used;
            return;
        }
        int left = (int)((deadline - now_us()) / 1000);
        if (left <= 0) { fprintf(stderr, "timeout\n"); exit(1); }
        struct pollfd p = { .fd = b->out, .events = POLLIN };
        int r = poll(&p, 1, left);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) { fprintf(stderr, "timeout\n"); exit(1); }
        ssize_t got = read(b->out, b->buf + b->len, sizeof b->buf - b->len);
        if (got <= 0) { fprintf(stderr, "bot closed\n"); exit(1); }
        b->len += (size_t)got;
    }
}

static void finish(struct bot *b) {
    send_line(b, command ? "end draw attack-cap\n" : "end draw round-cap\n");
    close(b->in);
    close(b->out);
    int status;
    waitpid(b->pid, &status, 0);
}

static void attack(struct bot *b) {
    send_line(b, "attack\n");
    recv_line(b);
    send_line(b, "signal > . <\n");
}

int main(int argc, char **argv) {
    if (argc >= 4 && strcmp(argv[1], "mastermind") == 0) {
        signal(SIGPIPE, SIG_IGN);
        long count = atol(argv[2]);
        command = argv + 3;
        struct bot a, b;
        double t0 = now_us();
        for (long i = 0; i < count; i++) {
            start(&a, NULL);
            start(&b, NULL);
            send_line(&a, "mastermind 4 6 first 1 1\n");
            send_line(&b, "mastermind 4 6 second 1 2\n");
            send_line(&a, "code\n");
            recv_line(&a);
            send_line(&b, "code\n");
            recv_line(&b);
            send_line(&a, "attack\n");
            recv_line(&a);
            send_line(&a, "feedback 0 0\n");
            send_line(&b, "attack\n");
            recv_line(&b);
            send_line(&b, "feedback 0 0\n");
            finish(&a);
            finish(&b);
        }
        double t1 = now_us();
        printf("%.3f\n", (t1 - t0) / 1000.0 / count);
        return 0;
    }
    if (argc != 4) {
        fprintf(stderr, "usage: %s exchange ROUNDS BOT | start GAMES BOT | mastermind GAMES PROGRAM [ARG...]\n", argv[0]);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    long count = atol(argv[2]);
    const char *bot = argv[3];
    struct bot a, b;
    if (strcmp(argv[1], "exchange") == 0) {
        start(&a, bot);
        start(&b, bot);
        send_line(&a, "arrow5 classic first 1000 1\n");
        send_line(&b, "arrow5 classic second 1000 2\n");
        double t0 = now_us();
        for (long i = 0; i < count; i++) {
            attack(&a);
            attack(&b);
        }
        double t1 = now_us();
        finish(&a);
        finish(&b);
        printf("%.3f\n", (t1 - t0) / (2.0 * count));
        return 0;
    }
    if (strcmp(argv[1], "start") == 0) {
        double t0 = now_us();
        for (long i = 0; i < count; i++) {
            start(&a, bot);
            start(&b, bot);
            send_line(&a, "arrow5 classic first 1 1\n");
            send_line(&b, "arrow5 classic second 1 2\n");
            send_line(&a, "code\n");
            recv_line(&a);
            send_line(&b, "code\n");
            recv_line(&b);
            attack(&a);
            attack(&b);
            finish(&a);
            finish(&b);
        }
        double t1 = now_us();
        printf("%.3f\n", (t1 - t0) / 1000.0 / count);
        return 0;
    }
    fprintf(stderr, "unknown mode %s\n", argv[1]);
    return 2;
}
